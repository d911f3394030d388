import { LABEL_COLORS, labelsFromChannel, toLabelRgba, type LabelMask } from './maskState';

/** Paint, erase and fill change the mask; the hand (pan) only moves the zoomed view. */
export type Tool = 'paint' | 'erase' | 'fill' | 'pan';
export const LABEL_COUNT = 4;
/** The labels the toolbar offers: 0 (unpainted: a boundary, the background) and 1..LABEL_COUNT. */
export const LABELS = Array.from({ length: LABEL_COUNT + 1 }, (_, i) => i);
export const ACCEPTED_IMPORT = ['image/png', 'image/jpeg'];

/** A label's colour on the canvas (label 0 is drawn transparent: the image shows through). */
export const rgb = (label: number) => (label === 0 ? 'transparent' : `rgb(${LABEL_COLORS[label].join(',')})`);

/** Reads an image (URL or file) into label values at the working size. */
export async function readLabels(source: Blob, width: number, height: number): Promise<Uint8Array> {
  const bitmap = await createImageBitmap(source);
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(bitmap, 0, 0, width, height);
  bitmap.close();
  const rgba = ctx.getImageData(0, 0, width, height).data;
  const red = new Uint8Array(width * height);
  for (let i = 0; i < red.length; i++) red[i] = rgba[i * 4];
  return labelsFromChannel(red);
}

export async function maskToPng(mask: LabelMask): Promise<Blob> {
  const canvas = document.createElement('canvas');
  canvas.width = mask.width;
  canvas.height = mask.height;
  const ctx = canvas.getContext('2d')!;
  ctx.putImageData(new ImageData(toLabelRgba(mask) as Uint8ClampedArray<ArrayBuffer>, mask.width, mask.height), 0, 0);
  return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('png'))), 'image/png'));
}
