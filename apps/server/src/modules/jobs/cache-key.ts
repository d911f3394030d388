import { createHash } from 'node:crypto';

/** JSON with object keys sorted, so equal settings give equal text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * Identical input (image bytes, the image's calibration, model and version, settings, crop, mask bytes) →
 * identical key. An image without a user calibration (`pixelSizeUm` null or absent) keeps the key it had
 * before calibrations existed; a calibrated one gets another key, so changing the calibration re-runs.
 */
export function jobCacheKey(input: {
  imageSha256: string;
  /** The image's user calibration in µm per pixel. */
  pixelSizeUm?: number | null;
  model: string;
  version: string;
  settings: unknown;
  crop: unknown;
  maskSha256: string | null;
  /** The image (id) whose sidecar text was uploaded with it (JEOL, Hitachi…): part of the key only when there is one. */
  sidecarOf?: string | null;
  /** The recipe version the job segments with ("id@version", issue 22): part of the key only when there is one. */
  recipe?: string | null;
}): string {
  const { pixelSizeUm, sidecarOf, recipe, ...rest } = input;
  const calibrated = pixelSizeUm === null || pixelSizeUm === undefined ? rest : { ...rest, pixelSizeUm };
  const withSidecar = sidecarOf ? { ...calibrated, sidecarOf } : calibrated;
  const keyed = recipe ? { ...withSidecar, recipe } : withSidecar;
  return createHash('sha256').update(canonicalJson(keyed)).digest('hex');
}
