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
 * Resolution tags in centimetres (ResolutionUnit 3): pixels per cm. Inches (dots per inch) are a print setting, not
 * a calibration, and so are the defaults many writers leave: 72, 96, 150, 300 or 600 dpi expressed in cm, or 1 px/mm.
 */
export function resolutionPixelSizeUm(xResolution: number | null, unit: number | null): number | null {
  if (!xResolution || unit !== 3) return null;
  const defaults = [10, ...[72, 96, 150, 300, 600].map((dpi) => dpi / 2.54)];
  if (defaults.some((d) => Math.abs(xResolution / d - 1) < 0.002)) return null;
  return plausible(1e4 / xResolution);
}

/** The pixel size (µm/px) written in a TIFF file's tags, or null (other formats, no or untrustworthy metadata). */
export async function metadataPixelSizeUm(image: Uint8Array | Buffer): Promise<number | null> {
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
  const fei = text(ifd.t34682) ?? text(ifd.t34680);
  const zeiss = text(ifd.t34118);
  return (
    (fei ? feiPixelSizeUm(fei) : null) ??
    (zeiss ? zeissPixelSizeUm(zeiss) : null) ??
    omePixelSizeUm(description) ??
    imageJPixelSizeUm(description, xRes) ??
    resolutionPixelSizeUm(xRes, firstNumber(ifd.t296))
  );
}
