import { describe, expect, it } from 'vitest';
import { feiPixelSizeUm, metadataCalibration, metadataPixelSizeUm, omePixelSizeUm, sidecarCalibration, zeissPixelSizeUm } from './calibration.js';
import { encodeGreyTiff } from './synth/tiff.js';

const pixels = new Uint8Array(64 * 48).map((_, i) => i % 251);
const tiff = (extras: Parameters<typeof encodeGreyTiff>[3]) => encodeGreyTiff(pixels, 64, 48, extras);

describe('pixel size from file metadata', () => {
  it('reads ImageJ calibration (unit=micron, pixels per micron in XResolution)', async () => {
    const file = tiff({ description: 'ImageJ=1.54f\nunit=micron\nmin=0.0\nmax=255.0\n', resolution: [4440, 1000], resolutionUnit: 1 });
    expect(await metadataPixelSizeUm(file)).toBeCloseTo(1000 / 4440, 6);
  });

  it('reads resolution tags in centimetres, and ignores dpi and the usual defaults', async () => {
    expect(await metadataPixelSizeUm(tiff({ resolution: [44400, 1], resolutionUnit: 3 }))).toBeCloseTo(1e4 / 44400, 6);
    expect(await metadataPixelSizeUm(tiff({ resolution: [300, 1], resolutionUnit: 2 }))).toBeNull();
    expect(await metadataPixelSizeUm(tiff({ resolution: [72, 1], resolutionUnit: 2 }))).toBeNull();
    expect(await metadataPixelSizeUm(tiff({ resolution: [10, 1], resolutionUnit: 3 }))).toBeNull(); // 1 px/mm
    expect(await metadataPixelSizeUm(tiff({ resolution: [11811, 100], resolutionUnit: 3 }))).toBeNull(); // 300 dpi in cm
    expect(await metadataPixelSizeUm(tiff({}))).toBeNull();
  });

  it('reads OME-TIFF PhysicalSizeX with its unit', async () => {
    const ome =
      '<?xml version="1.0"?><OME xmlns="http://www.openmicroscopy.org/Schemas/OME/2016-06"><Image><Pixels PhysicalSizeX="65" PhysicalSizeXUnit="nm" SizeX="64"/></Image></OME>';
    expect(await metadataPixelSizeUm(tiff({ description: ome }))).toBeCloseTo(0.065, 9);
    expect(omePixelSizeUm('<OME><Pixels PhysicalSizeX="0.5"/></OME>')).toBe(0.5);
  });

  it('reads FEI/Thermo [Scan] PixelWidth in metres and Zeiss SEM pixel size', () => {
    expect(feiPixelSizeUm('[User]\nDate=x\n[Scan]\nPixelWidth=1.234e-08\nPixelHeight=1.234e-08\n[Stage]\n')).toBeCloseTo(0.01234, 9);
    expect(zeissPixelSizeUm('AP_PIXEL_SIZE\nImage Pixel Size = 23.45 nm\n')).toBeCloseTo(0.02345, 9);
    expect(zeissPixelSizeUm('Image Pixel Size = 1.5 µm')).toBe(1.5);
  });

  it('gives nothing for PNG and JPEG', async () => {
    expect(await metadataPixelSizeUm(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]))).toBeNull();
  });
});

describe('instrument metadata, named by its source', () => {
  it('reads each vendor from the TIFF tags it writes', async () => {
    const cases: [Parameters<typeof encodeGreyTiff>[3], number, string][] = [
      [{ tags: { 34118: 'AP_PIXEL_SIZE\r\nImage Pixel Size = 12.5 nm\r\nAP_MAG\r\nMag = 5.00 K X\r\n' } }, 0.0125, 'Zeiss SEM'],
      [{ tags: { 34682: '[User]\r\nDate=11/26/2026\r\n[Scan]\r\nPixelWidth=2.5e-08\r\nPixelHeight=2.5e-08\r\n' } }, 0.025, 'Thermo Fisher/FEI SEM'],
      [{ tags: { 50431: '[MAIN]\r\nDevice=VEGA3\r\nPixelSizeX=1.5625e-07\r\nPixelSizeY=1.5625e-07\r\n' } }, 0.15625, 'TESCAN SEM'],
      [{ description: '<?xml version="1.0"?><OME><Image><Pixels PhysicalSizeX="0.325" SizeX="64"/></Image></OME>' }, 0.325, 'OME-TIFF'],
      [{ description: 'ImageJ=1.54f\nunit=\\u00B5m\nspacing=1.0\n', resolution: [2, 1], resolutionUnit: 1 }, 0.5, 'ImageJ'],
      [
        { tags: { 305: 'OLYMPUS Stream Motion 2.4', 65000: '<Calibration><PixelSizeX unit="um">0.69</PixelSizeX></Calibration>' } },
        0.69,
        'Olympus/Evident',
      ],
      [
        { tags: { 305: 'KEYENCE VHX-7000', 65001: '<Data><XyCalibration><MeterPerPixel>1.25e-6</MeterPerPixel></XyCalibration></Data>' } },
        1.25,
        'Keyence',
      ],
      [{ description: 'Leica Application Suite LAS X\n<XMetresPerPixel>3.2E-7</XMetresPerPixel>' }, 0.32, 'Leica LAS'],
      [{ tags: { 305: 'NIS-Elements D 5.30', 65330: 'dCalibration 0.1614' } }, 0.1614, 'Nikon NIS-Elements'],
      [{ resolution: [2000, 1], resolutionUnit: 3 }, 5, 'TIFF resolution'],
      [{ resolution: [400, 1], resolutionUnit: 4 }, 2.5, 'TIFF resolution'],
    ];
    for (const [extras, um, source] of cases) {
      const r = await metadataCalibration(tiff(extras));
      expect(r, source).not.toBeNull();
      expect(r!.pixelSizeUm, source).toBeCloseTo(um, 9);
      expect(r!.source).toBe(source);
    }
  });

  it('reads the sidecar files of JEOL, Hitachi and TESCAN, and prefers the file’s own tags', async () => {
    const jeol = '$CM_FORMAT JEOL/SEM\n$CM_FULL_SIZE 1280 960\n$CM_MAG 5000\n$$SM_MICRON_BAR 160\n$$SM_MICRON_MARKER 5um\n';
    expect(sidecarCalibration(jeol)).toEqual({ pixelSizeUm: 5 / 160, source: 'JEOL SEM' });
    const hitachi = '[SemImageFile]\r\nInstructName=S-4800\r\nDataSize=1280x960\r\nMagnification=10000\r\nPixelSize=9.921875\r\n';
    expect(sidecarCalibration(hitachi)!.pixelSizeUm).toBeCloseTo(0.009921875, 12);
    expect(sidecarCalibration(hitachi)!.source).toBe('Hitachi SEM');
    expect(sidecarCalibration('[MAIN]\nPixelSizeX=2e-08\n')).toEqual({ pixelSizeUm: 0.02, source: 'TESCAN SEM' });
    expect(sidecarCalibration('nothing here: 12.5 kV')).toBeNull();
    // a PNG has no tags: the sidecar calibrates it; a TIFF's own tags win over a sidecar
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
    expect((await metadataCalibration(png, jeol))?.source).toBe('JEOL SEM');
    expect((await metadataCalibration(tiff({ tags: { 34118: 'Image Pixel Size = 1 µm' } }), jeol))?.source).toBe('Zeiss SEM');
  });

  it('ignores dpi, the usual defaults and texts without a unit', async () => {
    expect(await metadataCalibration(tiff({ resolution: [96, 1], resolutionUnit: 2 }))).toBeNull();
    expect(await metadataCalibration(tiff({ tags: { 305: 'Photo editor', 65000: 'Calibration: 0.5' } }))).toBeNull();
    expect(await metadataCalibration(tiff({ description: 'ImageJ=1.54f\nunit=pixel\n', resolution: [1, 1], resolutionUnit: 1 }))).toBeNull();
  });
});
