/** What the image decode pool (decode-pool.ts) asks of its workers (decode-worker.ts), and their answers. */
interface Limits {
  /** Largest width × height (MAX_IMAGE_PIXELS). */
  maxPixels: number;
  /** Largest width × height × channels × bytes per sample (`IMAGE_DECODE_MAX_MB`). */
  maxDecodeBytes: number;
}

export type DecodeTask =
  /** An analysis image: size, bit depth and both renditions (WebP thumbnail and display). */
  | ({ op: 'ingest'; path: string; displaySize: number; thumbnailSize: number } & Limits)
  /** A mask of a job: must be `width` × `height`; answered re-encoded as PNG. */
  | ({ op: 'mask'; path: string; width: number; height: number } & Limits)
  /** A company logo: re-encoded as PNG of at most `size` px. */
  | ({ op: 'logo'; data: Uint8Array; size: number } & Limits)
  /** The header only: format and size. */
  | ({ op: 'metadata'; path: string } & Limits);

export type RefusalCode = 'PIXELS' | 'DECODED' | 'CORRUPT' | 'SIZE' | 'MEMORY' | 'TIMEOUT';

export type TaskAnswer = { id: number; rss: number } & ({ ok: true; value: unknown } | { ok: false; code: RefusalCode; message: string });

const sampleBytes: Record<string, number> = {
  uchar: 1,
  char: 1,
  ushort: 2,
  short: 2,
  uint: 4,
  int: 4,
  float: 4,
  complex: 8,
  double: 8,
  dpcomplex: 16,
};

/** Bytes the header says the decoded image takes: width × height × channels × bytes per sample. */
export function decodedBytes(meta: { width?: number; height?: number; channels?: number; depth?: string }): number {
  return (meta.width ?? 0) * (meta.height ?? 0) * (meta.channels ?? 1) * (sampleBytes[meta.depth ?? 'uchar'] ?? 1);
}
