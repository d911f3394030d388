// Trained segmentation networks run with ONNX Runtime for Node (onnxruntime-node: native CPU kernels shipped in the
// npm package; nothing is downloaded at install or run time — the project's .npmrc skips the package's install
// script, which would fetch CUDA libraries from outside the registry).
//
// A network takes 1×3×H×W float32 RGB with H and W multiples of 8 and gives 1×C×H×W probabilities. Its input's name
// says how the image is normalised: `image` per image and channel, (x/255 − mean) / max(std, 0.02) (every shipped
// network); `image_centred` only centred, x/255 − mean, the network dividing by the fixed scale it was trained with
// (training/train.py --input-scale: a candidate measured with BENCH_NETWORK, not shipped), so a crop of an image
// reaches it with the same values as the whole image where they overlap. Big images are cut into overlapping
// tiles; the statistics are computed over the whole image first, so every tile sees the same input scale.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as ort from 'onnxruntime-node';
import { AnalysisError } from '../errors.js';
import { NETWORK } from './tunables.js';

/** Folder of the shipped network files (packages/analysis/models). */
export const MODELS_DIR = fileURLToPath(new URL('../../models/', import.meta.url));

const sessions = new Map<string, Promise<ort.InferenceSession>>();
const require = createRequire(import.meta.url);

/**
 * Execution providers from ONNX_EXECUTION_PROVIDER: `auto` (default: CUDA when the machine has an NVIDIA device and
 * onnxruntime-node's CUDA provider library is installed next to its binding, else CPU), `cuda` (CUDA first, CPU as
 * fallback) or `cpu`. Threads per session from ONNX_THREADS (default NETWORK.threads, at most the machine's cores; the
 * analysis pool gives each worker its share).
 */
export function executionProviders(env = process.env): string[] {
  const ep = (env.ONNX_EXECUTION_PROVIDER ?? 'auto').toLowerCase();
  if (ep === 'cpu') return ['cpu'];
  if (ep === 'cuda') return ['cuda', 'cpu'];
  const binDir = path.dirname(require.resolve('onnxruntime-node/package.json'));
  const cudaLib = path.join(binDir, 'bin', 'napi-v6', process.platform, process.arch, 'libonnxruntime_providers_cuda.so');
  return existsSync('/dev/nvidiactl') && existsSync(cudaLib) ? ['cuda', 'cpu'] : ['cpu'];
}

function sessionOptions(providers: string[]): ort.InferenceSession.SessionOptions {
  const threads = Math.max(1, Number(process.env.ONNX_THREADS) || Math.min(NETWORK.threads, availableParallelism()));
  return {
    executionProviders: providers,
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
    enableCpuMemArena: NETWORK.memoryArena,
  };
}

/** Sessions of networks other than the shipped files (trained versions) kept at once; the oldest is released first. */
const MAX_OTHER_SESSIONS = 4;
const otherKeys: string[] = [];
const shaMemo = new Map<string, string>();

/** SHA-256 of a file, remembered per path, size and modification time. */
function fileSha(filePath: string): string {
  const st = statSync(filePath);
  const memo = `${filePath}\0${st.size}\0${st.mtimeMs}`;
  let sha = shaMemo.get(memo);
  if (!sha) {
    sha = createHash('sha256').update(readFileSync(filePath)).digest('hex');
    shaMemo.set(memo, sha);
  }
  return sha;
}

/**
 * The session of a network file (loaded once per process or worker thread); CPU when CUDA fails to start. `file` is
 * a shipped file's name (packages/analysis/models) or the absolute path of another network with the same input and
 * output conventions (a trained version, issue 25): such a file is cached per path and SHA-256, so a file rewritten
 * at the same path is loaded anew.
 */
export function networkSession(file: string): Promise<ort.InferenceSession> {
  const other = path.isAbsolute(file);
  const filePath = other ? file : MODELS_DIR + file;
  if (!existsSync(filePath)) throw new AnalysisError('ANALYSIS_FAILED', `Network file ${other ? filePath : file} is missing`);
  const key = other ? `${filePath}#${fileSha(filePath)}` : file;
  let s = sessions.get(key);
  if (!s) {
    const providers = executionProviders();
    s = ort.InferenceSession.create(filePath, sessionOptions(providers)).catch((e) => {
      if (providers[0] === 'cpu') throw e;
      return ort.InferenceSession.create(filePath, sessionOptions(['cpu']));
    });
    sessions.set(key, s);
    s.catch(() => sessions.delete(key));
    if (other) {
      otherKeys.push(key);
      while (otherKeys.length > MAX_OTHER_SESSIONS) {
        const old = otherKeys.shift()!;
        const o = sessions.get(old);
        sessions.delete(old);
        o?.then((x) => x.release()).catch(() => undefined);
      }
    }
  }
  return s;
}

/** Per-channel mean and std of an interleaved RGB image over its valid pixels (std floored at 0.02 of full scale). */
export function channelStats(rgb: Uint8Array, valid: Uint8Array | null): { mean: number[]; std: number[] } {
  const s = [0, 0, 0],
    q = [0, 0, 0];
  let n = 0;
  const N = rgb.length / 3;
  for (let i = 0; i < N; i++) {
    if (valid && !valid[i]) continue;
    n++;
    for (let c = 0; c < 3; c++) {
      const v = rgb[3 * i + c] / 255;
      s[c] += v;
      q[c] += v * v;
    }
  }
  n = Math.max(n, 1);
  const mean = s.map((v) => v / n);
  const std = q.map((v, c) => Math.max(Math.sqrt(Math.max(v / n - mean[c] * mean[c], 0)), 0.02));
  return { mean, std };
}

/** A network file's input that is centred only: the network divides by its own fixed scale (see the header). */
export const CENTRED_INPUT = 'image_centred';

/** The mean and divisor per channel that bring an image to the input `inputName` wants. */
export function normalisation(inputName: string, rgb: Uint8Array, valid: Uint8Array | null): { mean: number[]; std: number[] } {
  const stats = channelStats(rgb, valid);
  return inputName === CENTRED_INPUT ? { mean: stats.mean, std: [1, 1, 1] } : stats;
}

/**
 * The side of the tiles that cover `n` px with as few tiles of at most `tile` px as overlap by `overlap` on each
 * side, all of one size (a multiple of 8): a 2310 px side takes three tiles of 816 px, not five of 512 px.
 */
export function balancedTile(n: number, tile: number, overlap: number): number {
  const n8 = Math.ceil(n / 8) * 8;
  if (n8 <= tile) return n8;
  const count = Math.ceil((n - 2 * overlap) / (tile - 2 * overlap));
  return Math.min(tile, Math.ceil((n + 2 * overlap * (count - 1)) / count / 8) * 8);
}

/**
 * Runs a network over an RGB image (interleaved, w×h) in tiles of `tile` px (a multiple of 8) that overlap by
 * `overlap` px on each side; each output pixel comes from the tile where it lies farthest from a cut edge. Returns
 * one probability plane per output channel. `balanced`: tiles of up to `tile` px sized to the image
 * (balancedTile), so little is computed twice; otherwise tiles of `tile` px, the last one shifted back to the edge.
 * `norm`: the image's normalisation when the caller has it already (the same for every orientation of the image).
 */
export async function runTiled(
  session: ort.InferenceSession,
  rgb: Uint8Array,
  w: number,
  h: number,
  valid: Uint8Array | null,
  tile: number = NETWORK.tile,
  overlap: number = NETWORK.overlap,
  balanced = false,
  norm: { mean: number[]; std: number[] } = normalisation(session.inputNames[0], rgb, valid),
): Promise<Float32Array[]> {
  const inputName = session.inputNames[0];
  const { mean, std } = norm;
  const tw = balanced ? balancedTile(w, tile, overlap) : Math.min(tile, Math.ceil(w / 8) * 8),
    th = balanced ? balancedTile(h, tile, overlap) : Math.min(tile, Math.ceil(h / 8) * 8);
  const stepX = Math.max(8, tw - 2 * overlap),
    stepY = Math.max(8, th - 2 * overlap);
  const starts = (n: number, t: number, step: number) => {
    if (n <= t) return [0];
    const out: number[] = [];
    for (let s = 0; ; s += step) {
      if (s + t >= n) {
        out.push(n - t);
        break;
      }
      out.push(s);
    }
    return out;
  };
  const xs = starts(w, tw, stepX),
    ys = starts(h, th, stepY);
  const input = new Float32Array(3 * tw * th);
  // the normalised value of each 8-bit level per channel (the same arithmetic as per pixel, once per level)
  const lut = [0, 1, 2].map((c) => Float32Array.from({ length: 256 }, (_, v) => (v / 255 - mean[c]) / std[c]));
  const [l0, l1, l2] = lut;
  const plane = tw * th;
  let outputs: Float32Array[] | null = null;
  const outputName = session.outputNames[0];
  for (let yi = 0; yi < ys.length; yi++)
    for (let xi = 0; xi < xs.length; xi++) {
      const x0 = xs[xi],
        y0 = ys[yi];
      // fill the tile (reflecting at the image's edge when the image is smaller than the tile)
      for (let y = 0; y < th; y++) {
        let sy = y0 + y;
        if (sy >= h) sy = Math.max(0, 2 * h - 2 - sy);
        for (let x = 0; x < tw; x++) {
          let sx = x0 + x;
          if (sx >= w) sx = Math.max(0, 2 * w - 2 - sx);
          const si = 3 * (sy * w + sx);
          const di = y * tw + x;
          input[di] = l0[rgb[si]];
          input[plane + di] = l1[rgb[si + 1]];
          input[2 * plane + di] = l2[rgb[si + 2]];
        }
      }
      const res = await session.run({ [inputName]: new ort.Tensor('float32', input, [1, 3, th, tw]) });
      const out = res[outputName];
      const data = out.data as Float32Array;
      const C = out.dims[1];
      outputs ??= Array.from({ length: C }, () => new Float32Array(w * h));
      // the part of this tile it owns: up to the middle of the overlap with each neighbour
      const ox0 = xi === 0 ? 0 : x0 + overlap,
        ox1 = xi === xs.length - 1 ? w : xs[xi + 1] + overlap;
      const oy0 = yi === 0 ? 0 : y0 + overlap,
        oy1 = yi === ys.length - 1 ? h : ys[yi + 1] + overlap;
      const xa = Math.max(ox0, x0),
        xb = Math.min(ox1, w, x0 + tw);
      for (let c = 0; c < C && xb > xa; c++) {
        const dst = outputs[c];
        const off = c * plane;
        for (let y = Math.max(oy0, y0); y < Math.min(oy1, h, y0 + th); y++)
          dst.set(data.subarray(off + (y - y0) * tw + (xa - x0), off + (y - y0) * tw + (xb - x0)), y * w + xa);
      }
      out.dispose?.();
    }
  return outputs ?? [];
}
