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

/** Identical input (image bytes, model and version, settings, crop, mask bytes) → identical key. */
export function jobCacheKey(input: {
  imageSha256: string;
  model: string;
  version: string;
  settings: unknown;
  crop: unknown;
  maskSha256: string | null;
}): string {
  return createHash('sha256').update(canonicalJson(input)).digest('hex');
}
