// Resampling of RGB images, probability planes, masks and labels between the image's and the working scale
// (OpenCV: area interpolation to shrink, bilinear to enlarge; nearest neighbour for masks and labels).
import { cv } from '../cv.js';

function resizeMat(data: ArrayLike<number>, type: number, channels: number, w: number, h: number, W: number, H: number, interp: number) {
  const c = cv();
  const src = new c.Mat(h, w, type);
  if (type === c.CV_32FC1) src.data32F.set(data);
  else if (type === c.CV_32SC1) src.data32S.set(data);
  else src.data.set(data);
  const dst = new c.Mat();
  c.resize(src, dst, new c.Size(W, H), 0, 0, interp);
  src.delete();
  return { dst, channels };
}

const interpFor = (w: number, W: number) => (W < w ? cv().INTER_AREA : cv().INTER_LINEAR);

/** RGB (interleaved, 8 bit) w×h → W×H. */
export function resizeRgb(rgb: Uint8Array, w: number, h: number, W: number, H: number): Uint8Array {
  if (w === W && h === H) return rgb;
  const { dst } = resizeMat(rgb, cv().CV_8UC3, 3, w, h, W, H, interpFor(w, W));
  const out = new Uint8Array(dst.data);
  dst.delete();
  return out;
}

/** A float plane w×h → W×H. */
export function resizeFloat(f: Float32Array, w: number, h: number, W: number, H: number): Float32Array {
  if (w === W && h === H) return f;
  const { dst } = resizeMat(f, cv().CV_32FC1, 1, w, h, W, H, interpFor(w, W));
  const out = new Float32Array(dst.data32F);
  dst.delete();
  return out;
}

/** A 0/1 mask w×h → W×H (nearest neighbour). */
export function resizeMask(m: Uint8Array, w: number, h: number, W: number, H: number): Uint8Array {
  if (w === W && h === H) return m;
  const { dst } = resizeMat(m, cv().CV_8UC1, 1, w, h, W, H, cv().INTER_NEAREST);
  const out = new Uint8Array(dst.data);
  dst.delete();
  return out;
}

/** Labels w×h → W×H (nearest neighbour). */
export function resizeLabels(l: Int32Array, w: number, h: number, W: number, H: number): Int32Array {
  if (w === W && h === H) return l;
  const { dst } = resizeMat(l, cv().CV_32SC1, 1, w, h, W, H, cv().INTER_NEAREST);
  const out = new Int32Array(dst.data32S);
  dst.delete();
  return out;
}
