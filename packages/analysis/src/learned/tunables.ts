// Every tunable of the learned segmentation, in one place. Values are in pixels of the WORKING scale (the image
// resampled so that its mean lineal intercept is near NETWORK.targetInterceptPx), so none depends on the input's
// resolution. Changing one changes the outputs of the version that uses it: ship a new version instead.
import { atVersion } from '../types.js';

export const NETWORK = {
  /** The grain-boundary network of 20261201 (packages/analysis/models; trained by training/train.py, card beside it). */
  grainFile: 'grain-boundaries.onnx',
  /**
   * The grain-boundary network of each learned version, from the version on (grainNetworkFile). 20261202: trained
   * again with the real tiles' looks varied (gamma, inversion, uneven light, JPEG) and crops normalised as parts of a
   * larger image, 3000 steps (its card).
   */
  grainFiles: [
    ['20261201', 'grain-boundaries.onnx'],
    ['20261202', 'grain-boundaries-20261202.onnx'],
  ] as ReadonlyArray<readonly [string, string]>,
  /** Tile size (px, multiple of 8) and overlap on each side. */
  tile: 512,
  overlap: 32,
  /**
   * From this version on, tiles of up to `balancedTile` px sized to the image (network.ts balancedTile): a 4 MP
   * image's passes computed 1.65× their pixels in 512 px tiles, 1.1× so (1024 px tiles: as fast, +30 MB peak).
   */
  balancedFrom: '20261202',
  balancedTile: 768,
  /** Intra-op threads per session, at most (ONNX_THREADS overrides; never more than the machine's cores). */
  threads: 2,
  /**
   * ONNX Runtime's CPU memory arena per session (no version: the outputs are the same either way). Off: a session
   * returns its tensors' memory after each run instead of keeping the largest tile's as a pool, so the sessions of
   * several networks in one worker (the grain boundaries of each version, the dark phase) do not each hold their
   * peak. bench:analysis: peak RSS 1591 → 1470 MB with every model at 12 MP, 893 → 791 MB for the grain model at
   * 4 MP; times within the bench's run-to-run spread.
   */
  memoryArena: false,
} as const;

export const WORKING_SCALE = {
  /** Mean lineal intercept the final pass aims at (the network was trained on 10–100 px). */
  targetInterceptPx: 32,
  /** The first pass sees at most this many pixels. */
  firstPassPixels: 300_000,
  /** A first pass whose intercept is below this is repeated at twice the scale (grains too small to see). */
  minFirstPassInterceptPx: 11,
  /** A pass at the image's own scale with fewer grains than this is repeated at the largest scale (grains too fine). */
  minFirstPassGrains: 5,
  /** Bounds of the working scale factor and of the working image. */
  maxUpscale: 2,
  maxWorkingPixels: 12_000_000,
  /** The working image keeps at least this many pixels on its shorter side. */
  minShortSidePx: 192,
  /** A pass whose scale is within this ratio of the wanted one is used as it is. */
  reuseTolerance: 0.15,
  /**
   * From this version on, a finer look checks the working scale: a central crop of at most `finerLookSidePx` working
   * px a side, at twice the working scale (at most the largest). Grains too fine for the chosen scale (the passes
   * before saw texture, not grains) show there with a mean intercept below `finerLookRatio` of the chosen scale's;
   * the look then doubles again while that holds, and the working scale is chosen again from the finest intercept. At the right scale the two agree (0.9–2.2 on the
   * samples and real images, as a finer look may miss faint lines but adds no grains).
   */
  finerLookFrom: '20261202',
  finerLookSidePx: 512,
  finerLookRatio: 0.6,
  /** The finer look, and a working scale it chose, may enlarge the image up to this (maxUpscale otherwise). */
  finerLookMaxUpscale: 4,
  /** Below this mean intercept at the working scale (px) the grains are finer than the network was trained for: a warning. */
  minTrainedInterceptPx: 10,
  /**
   * From this version on, the working scale is a fixed point: the pass at it asks for its own scale (the scale its
   * mean intercept puts at `targetInterceptPx` is within `fixedPointTolerance` of it). The network draws more or
   * fewer faint lines at another scale, so one step from the first pass landed where the image's resolution put
   * it: a tile and the same tile enlarged 2× were measured at scales 20 % apart and read up to 0.45 G apart. Up to
   * `fixedPointSteps` more passes, each to the geometric mean of the pass's scale and the one it asks for (a full
   * step overshoots: the answer moves with the scale). Chosen on tiles of the training images (bench:dev-tiles).
   */
  fixedPointFrom: '20261209',
  fixedPointTolerance: 0.05,
  fixedPointSteps: 4,
} as const;

export const ORIENTATIONS = {
  /**
   * From this version on, every pass averages the network's answer over orientations of its image (orient.ts): the
   * network is not rotation- or mirror-equivariant, and a faint line it is unsure of is drawn or not by chance of
   * orientation. Averaged over all eight symmetries of the pixel grid the answer is the same for a rotated or
   * mirrored image; where the grains are few, a few such chance lines move G most. The scale-choosing passes are
   * averaged too (with the measured pass alone averaged, a rotated field still chose another scale).
   */
  from: '20261208',
  /**
   * The orientations' network pixels, at most (the working image the first pass foresees, times their number): 8
   * (all symmetries), 4 (the quarter turns) or 2 (the half turn), else 1. A large working image holds many grains, whose chance lines
   * average out in G by their number; a small one, where they do not, gets all eight.
   */
  budgetPixels: 3_000_000,
} as const;

export const SHADING = {
  /** From this version on, the image's shading (a plane per channel) is divided out before the network (shading.ts). */
  from: '20261203',
  /** The plane is fitted on a grid of at most about this many pixels. */
  fitPixels: 200_000,
  /** The correction multiplies a pixel by at most this, or divides it by at most this. */
  maxGain: 3,
} as const;

export const PARTITION = {
  /** Pixels below this boundary probability are grain interior: their connected pieces seed the grains. */
  seedBelow: 0.5,
  /** Two neighbouring grains whose shared border has a mean boundary probability below this are one grain. */
  mergeBelow: 0.4,
  /** Probability levels of the flooding queue. */
  levels: 256,
} as const;

export const SELF_CHECKS = {
  /** Mean boundary probability on the drawn boundaries below this: the boundaries are uncertain (a warning). */
  minConfidence: 0.55,
  /** One region covering more than this share of the analysed area: not a grain structure (a refusal). */
  maxLargestShare: 0.5,
  /**
   * Twin bands merged in at least this share of the grains (or twin lines from the network): the structure is
   * twinned, and the result says twins were not counted. Fewer are chance: two straight, parallel sides between
   * look-alike neighbours occur in 0.4–3.4 % of the grains of untwinned structures (the samples, ferritic steel, the
   * TBM tint etching); annealed FCC metals have twins in most grains (synthetic twins: 12 %).
   */
  minTwinBandShare: 0.05,
  /** Twin-line pixels per boundary pixel from which the network's twin output alone says the structure is twinned. */
  minTwinRatio: 0.02,
} as const;

export const TWINS = {
  /** A straight piece of border is at least this long (px) and its points lie within this rms of a line (px). */
  minLinePx: 10,
  maxLineRms: 1.6,
  /** The two sides of a band are parallel within this angle. */
  maxAngleRad: (8 * Math.PI) / 180,
  /** A band is at least this wide (px), and at most this share of its length. */
  minWidthPx: 2,
  maxWidthToLength: 0.8,
  /** The two sides make up at least this share of the band's border. */
  minBorderShare: 0.5,
  /** Two pieces of a parent look alike: mean colours closer than this (8-bit RGB), or than this share of the band's difference to them. */
  sameColour: 12,
  sameColourShare: 0.5,
} as const;

/** The shipped grain-boundary network of an engine version (or version label such as `20261201-ft1`): the file of the latest version at or before it. */
export function grainNetworkFile(version: string): string {
  return atVersion(NETWORK.grainFiles, version);
}
