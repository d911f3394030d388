// Resampling of RGB images, probability planes, masks and labels between the image's and the working scale
// (OpenCV: area interpolation to shrink, bilinear to enlarge; nearest neighbour for masks and labels).
import { cv } from '../cv.js';

type Plane = Uint8Array | Float32Array | Int32Array;

/** `data` (w×h, `channels` interleaved) resized to W×H; `nearest` for masks and labels. Same array type back. */
function resized<T extends Plane>(data: T, channels: 1 | 3, w: number, h: number, W: number, H: number, nearest: boolean): T {
  if (w === W && h === H) return data;
  const c = cv();
  const type = data instanceof Float32Array ? c.CV_32FC1 : data instanceof Int32Array ? c.CV_32SC1 : channels === 3 ? c.CV_8UC3 : c.CV_8UC1;
  const src = new c.Mat(h, w, type);
  const view = (m: { data: Uint8Array; data32F: Float32Array; data32S: Int32Array }) =>
    data instanceof Float32Array ? m.data32F : data instanceof Int32Array ? m.data32S : m.data;
  view(src).set(data);
  const dst = new c.Mat();
  c.resize(src, dst, new c.Size(W, H), 0, 0, nearest ? c.INTER_NEAREST : W < w ? c.INTER_AREA : c.INTER_LINEAR);
  const out = view(dst).slice() as T;
  src.delete();
  dst.delete();
  return out;
}

/** RGB (interleaved, 8 bit) w×h → W×H. */
export const resizeRgb = (rgb: Uint8Array, w: number, h: number, W: number, H: number) => resized(rgb, 3, w, h, W, H, false);
/** A float plane w×h → W×H. */
export const resizeFloat = (f: Float32Array, w: number, h: number, W: number, H: number) => resized(f, 1, w, h, W, H, false);
/** A 0/1 mask w×h → W×H (nearest neighbour). */
export const resizeMask = (m: Uint8Array, w: number, h: number, W: number, H: number) => resized(m, 1, w, h, W, H, true);
/** Labels w×h → W×H (nearest neighbour). */
export const resizeLabels = (l: Int32Array, w: number, h: number, W: number, H: number) => resized(l, 1, w, h, W, H, true);
