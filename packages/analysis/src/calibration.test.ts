import { describe, expect, it } from 'vitest';
import { feiPixelSizeUm, metadataPixelSizeUm, omePixelSizeUm, zeissPixelSizeUm } from './calibration.js';
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
