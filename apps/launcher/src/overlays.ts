import sharp from 'sharp';

/** Longest side of an overlay as sent and stored: the server's display rendition (images/render.ts DISPLAY_SIZE). */
export const OVERLAY_DISPLAY_SIZE = 2048;

type ResultFile = { filename: string; data: Buffer };

/**
 * The result's files as they are sent: each overlay (the PNG of an `image` item) larger than the display
 * rendition is scaled down to it (issue 30 item 4): a 24 MP RGB overlay is ~29 MB at full resolution, and the
 * results page, the reports and the sandbox show it at most at display size anyway. Everything else — the
 * full-resolution segmentation mask the mask editor reads, tables — goes as it is. An overlay that cannot be
 * read is sent unchanged.
 */
export async function displayOverlays(items: unknown[], files: ResultFile[]): Promise<ResultFile[]> {
  const overlays = new Set(
    items.flatMap((i) => {
      const item = i as { type?: unknown; filename?: unknown } | null;
      return item?.type === 'image' && typeof item.filename === 'string' ? [item.filename] : [];
    }),
  );
  return Promise.all(
    files.map(async (f) => {
      if (!overlays.has(f.filename) || !f.filename.toLowerCase().endsWith('.png')) return f;
      try {
        const meta = await sharp(f.data).metadata();
        if (!meta.width || !meta.height || Math.max(meta.width, meta.height) <= OVERLAY_DISPLAY_SIZE) return f;
        const data = await sharp(f.data, { limitInputPixels: false })
          .resize(OVERLAY_DISPLAY_SIZE, OVERLAY_DISPLAY_SIZE, { fit: 'inside' })
          .png({ compressionLevel: 6 })
          .toBuffer();
        return { filename: f.filename, data };
      } catch {
        return f;
      }
    }),
  );
}
