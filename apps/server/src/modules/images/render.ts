/** Decompression-bomb guard: images up to 100 megapixels. */
export const MAX_IMAGE_PIXELS = 100_000_000;
export const THUMBNAIL_SIZE = 256;
export const DISPLAY_SIZE = 2048;
