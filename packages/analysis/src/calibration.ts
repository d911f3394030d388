// Pixel size from an image file's own metadata: what microscopes, camera software and ImageJ write into TIFF tags.
import UTIF from 'utif2';
import { sniffFormat } from './image.js';

const UNIT_UM: Record<string, number> = { m: 1e6, mm: 1e3, cm: 1e4, um: 1, µm: 1, μm: 1, micron: 1, microns: 1, nm: 1e-3, pm: 1e-6 };
const unitUm = (u: string) =>
  UNIT_UM[
    u
      .trim()
      .toLowerCase()
      .replace('\\u00b5', 'µ')
      .replace(/^u00b5/, 'µ')
  ] ?? null;

/** Plausible pixel sizes of a micrograph: 0.1 nm to 1 mm per pixel. */
const plausible = (um: number | null): number | null => (um !== null && Number.isFinite(um) && um >= 1e-4 && um <= 1000 ? um : null);

const text = (v: unknown): string | null => (Array.isArray(v) ? v.filter((x) => typeof x === 'string').join('\n') : typeof v === 'string' ? v : null);
/** A tag's first value as a number; a RATIONAL comes as [numerator, denominator]. */
const firstNumber = (v: unknown): number | null => {
  const x = Array.isArray(v) ? v[0] : v;
  if (typeof x === 'number') return x;
  if (Array.isArray(x) && typeof x[0] === 'number' && typeof x[1] === 'number' && x[1] !== 0) return x[0] / x[1];
  return null;
};

/** FEI / Thermo Fisher SEM (tags 34680, 34682): `[Scan]` section, `PixelWidth=` in metres. */
export function feiPixelSizeUm(meta: string): number | null {
  const scan = /\[Scan\]([\s\S]*?)(\n\[|$)/.exec(meta);
  const m = /^\s*PixelWidth\s*=\s*([0-9.eE+-]+)/m.exec(scan ? scan[1] : meta);
  return m ? plausible(Number(m[1]) * 1e6) : null;
}

/** Zeiss SEM (tag 34118, CZ_SEM): "Image Pixel Size = 12.34 nm" (or "Pixel Size = …"). */
export function zeissPixelSizeUm(meta: string): number | null {
  const m = /(?:Image\s+)?Pixel\s+Size\s*=\s*([0-9.eE+-]+)\s*([a-zA-Zµμ]+)/i.exec(meta);
  const u = m ? unitUm(m[2]) : null;
  return m && u ? plausible(Number(m[1]) * u) : null;
}

/** OME-TIFF: `PhysicalSizeX` of the first Pixels element, in `PhysicalSizeXUnit` (default µm). */
export function omePixelSizeUm(description: string): number | null {
  if (!/<OME[\s>]/.test(description)) return null;
  const m = /PhysicalSizeX="([0-9.eE+-]+)"/.exec(description);
  if (!m) return null;
  const unit = /PhysicalSizeXUnit="([^"]+)"/.exec(description)?.[1] ?? 'µm';
  const u = unitUm(unit);
  return u ? plausible(Number(m[1]) * u) : null;
}

/** ImageJ: description `ImageJ=…` with `unit=micron` (or µm, nm, mm…); XResolution is pixels per that unit. */
export function imageJPixelSizeUm(description: string, xResolution: number | null): number | null {
  if (!/^ImageJ=/m.test(description) || !xResolution) return null;
  const unit = /^unit=(.+)$/m.exec(description)?.[1];
  const u = unit ? unitUm(unit) : null;
  return u ? plausible(u / xResolution) : null;
}

/**
 * Resolution tags in centimetres (ResolutionUnit 3; 4 mm and 5 µm as some microscope software writes): pixels per unit. Inches (dots per inch) are a print setting, not
 * a calibration, and so are the defaults many writers leave: 72, 96, 150, 300 or 600 dpi expressed in cm, or 1 px/mm.
 */
export function resolutionPixelSizeUm(xResolution: number | null, unit: number | null): number | null {
  if (!xResolution) return null;
  // 4 (mm) and 5 (µm) are not in baseline TIFF, but microscope software writes them (as EXIF's focal-plane unit has them)
  if (unit === 4) return xResolution === 1 ? null : plausible(1e3 / xResolution);
  if (unit === 5) return plausible(1 / xResolution);
  if (unit !== 3) return null;
  const defaults = [10, ...[72, 96, 150, 300, 600].map((dpi) => dpi / 2.54)];
  if (defaults.some((d) => Math.abs(xResolution / d - 1) < 0.002)) return null;
  return plausible(1e4 / xResolution);
}

/** The pixel size (µm/px) written in a TIFF file's tags, or null (other formats, no or untrustworthy metadata). */
export async function metadataPixelSizeUm(image: Uint8Array | Buffer): Promise<number | null> {
  return (await metadataCalibration(image))?.pixelSizeUm ?? null;
}

/** A pixel size read from metadata and what it was read from (shown to the user: "Zeiss SEM metadata"). */
export interface MetadataCalibration {
  pixelSizeUm: number;
  /** The instrument or program whose metadata gave it: "Zeiss SEM", "Thermo Fisher/FEI SEM", "ImageJ", … */
  source: string;
}

/** A tag's value as text: ASCII tags as they are, BYTE/UNDEFINED tags (some vendors write their text so) as Latin-1. */
const tagText = (v: unknown): string | null => {
  const t = text(v);
  if (t !== null) return t;
  if (v instanceof Uint8Array || (Array.isArray(v) && v.length > 8 && v.every((x) => typeof x === 'number' && x >= 0 && x < 256)))
    return Buffer.from(v as ArrayLike<number>).toString('latin1');
  return null;
};

const num = (s: string) => Number(s.replace(',', '.'));
const NUM = '([0-9]+(?:[.,][0-9]+)?(?:[eE][-+]?[0-9]+)?)';

/** TESCAN (tag 50431 or the `.hdr`/`.txt` sidecar): `PixelSizeX=` in metres. */
export function tescanPixelSizeUm(meta: string): number | null {
  const m = new RegExp(`^\\s*PixelSizeX\\s*=\\s*${NUM}`, 'm').exec(meta);
  return m ? plausible(num(m[1]) * 1e6) : null;
}

/** JEOL SEM sidecar (`.txt`): `$$SM_MICRON_BAR` pixels long for `$$SM_MICRON_MARKER` (e.g. 10um); older `$CM_` keys alike. */
export function jeolPixelSizeUm(meta: string): number | null {
  const bar = /^\$+(?:SM|CM)_MICRON_BAR\s+([0-9.]+)/m.exec(meta);
  const marker = /^\$+(?:SM|CM)_MICRON_MARKER\s+([0-9.,]+)\s*([a-zA-Zµμ]+)/m.exec(meta);
  if (!bar || !marker) return null;
  const u = unitUm(marker[2]);
  return u ? plausible((num(marker[1]) * u) / Number(bar[1])) : null;
}

/** Hitachi SEM sidecar (`.txt`, `[SemImageFile]`): `PixelSize=` in nanometres. */
export function hitachiPixelSizeUm(meta: string): number | null {
  const m = new RegExp(`^\\s*PixelSize\\s*=\\s*${NUM}\\s*$`, 'm').exec(meta);
  return m ? plausible(num(m[1]) * 1e-3) : null;
}

/** Leica LAS (`.cal.xml` or the file's XML): `XMetresPerPixel`; Keyence: `MeterPerPixel` (or per-pixel XY calibration), in metres. */
export function metresPerPixelUm(meta: string): number | null {
  const m =
    new RegExp(`<(?:X)?Met(?:re|er)s?PerPixel(?:X)?>\\s*${NUM}\\s*<`, 'i').exec(meta) ??
    new RegExp(`\\bX?Met(?:re|er)s?PerPixel\\s*[=:]\\s*${NUM}`, 'i').exec(meta);
  return m ? plausible(num(m[1]) * 1e6) : null;
}

/** Nikon NIS-Elements: `dCalibration` in µm per pixel. */
export function nikonPixelSizeUm(meta: string): number | null {
  const m = new RegExp(`dCalibration\\W{0,12}?${NUM}`).exec(meta);
  return m ? plausible(num(m[1])) : null;
}

/**
 * A written calibration as optical software exports it (Olympus/Evident Stream, Keyence, Leica, Nikon):
 * "Calibration: 0.345 µm/px", "Pixel size = 1,25 µm", `<PixelSizeX unit="um">0.5</PixelSizeX>`. The unit is required.
 */
export function writtenCalibrationUm(meta: string): number | null {
  const kv = new RegExp(
    `(?:Pixel\\s*Size(?:\\s*X)?|X\\s*Calibration|Calibration(?:\\s*X)?|Resolution\\s*X)\\s*(?:\\[[^\\]]*\\])?\\s*[=:]\\s*${NUM}\\s*([a-zA-Zµμ]+)(?:\\s*/\\s*(?:px|pixel))?`,
    'i',
  ).exec(meta);
  if (kv) {
    const u = unitUm(kv[2]);
    if (u) return plausible(num(kv[1]) * u);
  }
  const xml = new RegExp(`<(?:PixelSizeX|PixelWidth|CalibrationX|XCalibration)\\b[^>]*?unit="([^"]+)"[^>]*>\\s*${NUM}\\s*<`, 'i').exec(meta);
  if (xml) {
    const u = unitUm(xml[1]);
    if (u) return plausible(num(xml[2]) * u);
  }
  return null;
}

/** Which optical vendor wrote a text (for the source shown to the user). */
function opticalVendor(meta: string): string {
  if (/olympus|evident/i.test(meta)) return 'Olympus/Evident';
  if (/keyence|VHX|VK-X/i.test(meta)) return 'Keyence';
  if (/leica|LAS X|LAS V/i.test(meta)) return 'Leica LAS';
  if (/nikon|NIS-Elements/i.test(meta)) return 'Nikon NIS-Elements';
  return 'Instrument';
}

/**
 * The pixel size in a sidecar text file uploaded with the image (same stem): JEOL and Hitachi SEM `.txt`, TESCAN
 * `.hdr`, Leica `.cal.xml`, or any of the texts the TIFF parsers read.
 */
export function sidecarCalibration(sidecar: string): MetadataCalibration | null {
  const t = sidecar.replace(/\r\n?/g, '\n');
  const tries: [string, (s: string) => number | null][] = [
    ['JEOL SEM', jeolPixelSizeUm],
    ['Thermo Fisher/FEI SEM', (s) => (/\[Scan\]/.test(s) ? feiPixelSizeUm(s) : null)],
    ['TESCAN SEM', tescanPixelSizeUm],
    ['Hitachi SEM', hitachiPixelSizeUm],
    ['Zeiss SEM', (s) => (/Image Pixel Size|AP_PIXEL_SIZE/i.test(s) ? zeissPixelSizeUm(s) : null)],
    [`${opticalVendor(t)}`, metresPerPixelUm],
    ['Nikon NIS-Elements', nikonPixelSizeUm],
    [`${opticalVendor(t)}`, writtenCalibrationUm],
  ];
  for (const [source, f] of tries) {
    const um = f(t);
    if (um) return { pixelSizeUm: um, source };
  }
  return null;
}

/**
 * The pixel size in a TIFF file's tags, with its source: Thermo Fisher/FEI (34682, 34680), Zeiss SEM (34118),
 * TESCAN (50431), OME-TIFF, ImageJ, vendor texts in the description or other text tags (Olympus/Evident, Keyence,
 * Leica, Nikon), then resolution tags in cm (not the usual dpi defaults). Then a sidecar's text, when given.
 */
export async function metadataCalibration(
  image: Uint8Array | Buffer,
  sidecar?: string | null,
  /** false: only what 20261123–20261127 read (FEI, Zeiss, OME, ImageJ, resolution in cm), so they keep their results */
  extended = true,
): Promise<MetadataCalibration | null> {
  const fromFile = await tiffCalibration(image, extended);
  return fromFile ?? (sidecar ? sidecarCalibration(sidecar) : null);
}

async function tiffCalibration(image: Uint8Array | Buffer, extended: boolean): Promise<MetadataCalibration | null> {
  const buf = Buffer.isBuffer(image) ? image : Buffer.from(image.buffer, image.byteOffset, image.byteLength);
  if (sniffFormat(buf) !== 'tiff') return null;
  let ifd: Record<string, unknown>;
  try {
    ifd = UTIF.decode(buf)[0] as unknown as Record<string, unknown>;
  } catch {
    return null;
  }
  if (!ifd) return null;
  const description = text(ifd.t270) ?? '';
  const xRes = firstNumber(ifd.t282);
  const fei = tagText(ifd.t34682) ?? tagText(ifd.t34680);
  const zeiss = tagText(ifd.t34118);
  const tescan = tagText(ifd.t50431);
  const found = (source: string, um: number | null): MetadataCalibration | null => (um ? { pixelSizeUm: um, source } : null);
  // other vendor texts: the description, the software tag and any private text tag
  const others = Object.entries(ifd)
    .filter(([k]) => /^t\d+$/.test(k) && Number(k.slice(1)) >= 32768 && !['t34682', 't34680', 't34118', 't50431'].includes(k))
    .map(([, v]) => tagText(v))
    .filter((v): v is string => !!v);
  const vendorText = [description, text(ifd.t305) ?? '', ...others].join('\n');
  if (!extended)
    return (
      (fei ? found('Thermo Fisher/FEI SEM', feiPixelSizeUm(fei)) : null) ??
      (zeiss ? found('Zeiss SEM', zeissPixelSizeUm(zeiss)) : null) ??
      found('OME-TIFF', omePixelSizeUm(description)) ??
      found('ImageJ', imageJPixelSizeUm(description, xRes)) ??
      found('TIFF resolution', firstNumber(ifd.t296) === 3 ? resolutionPixelSizeUm(xRes, 3) : null)
    );
  return (
    (fei ? found('Thermo Fisher/FEI SEM', feiPixelSizeUm(fei)) : null) ??
    (zeiss ? found('Zeiss SEM', zeissPixelSizeUm(zeiss)) : null) ??
    (tescan ? found('TESCAN SEM', tescanPixelSizeUm(tescan)) : null) ??
    found('OME-TIFF', omePixelSizeUm(description)) ??
    found('ImageJ', imageJPixelSizeUm(description, xRes)) ??
    found(opticalVendor(vendorText), metresPerPixelUm(vendorText)) ??
    found('Nikon NIS-Elements', nikonPixelSizeUm(vendorText)) ??
    (/^ImageJ=|<OME[\s>]/m.test(description) ? null : found(opticalVendor(vendorText), writtenCalibrationUm(vendorText))) ??
    found('TIFF resolution', resolutionPixelSizeUm(xRes, firstNumber(ifd.t296)))
  );
}
