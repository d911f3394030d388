// ASTM E112 / ISO 643 counting on a grain label image. Labels: >0 grain id, 0 boundary / unassigned,
// valid[i] = 0 outside the analysed area.

/** E112 planimetric: G = 3.321928·log10(N_A) − 2.954, N_A in grains/mm². */
export const astmGFromNA = (nAmm2: number) => 3.321928 * Math.log10(nAmm2) - 2.954;
/** E112 intercept: G = −6.643856·log10(L̄ in mm) − 3.288. */
export const astmGFromIntercept = (lMm: number) => -6.643856 * Math.log10(lMm) - 3.288;

export interface JeffriesResult {
  inside: number;
  border: number;
  /** inside + border/2 */
  jeffries: number;
  /** per label: 0 none, 1 inside, 2 touches the border of the analysed area */
  kind: Uint8Array;
  area: Float64Array;
}

/**
 * Jeffries planimetric count: grains wholly inside count 1, grains cut by the border of the analysed
 * area (image edge or excluded region, within `margin` px) count ½.
 */
export function jeffriesCount(labels: Int32Array, w: number, h: number, valid: Uint8Array | null, nLabels: number, margin = 0): JeffriesResult {
  const kind = new Uint8Array(nLabels + 1);
  const area = new Float64Array(nLabels + 1);
  const m = margin;
  const N = w * h;
  if (valid) {
    for (let i = 0; i < N; i++) {
      const l = labels[i];
      if (l > 0 && valid[i] === 1) area[l]++;
    }
  } else {
    for (let i = 0; i < N; i++) {
      const l = labels[i];
      if (l > 0) area[l]++;
    }
  }
  for (let l = 1; l <= nLabels; l++) if (area[l] > 0) kind[l] = 1;
  const mark = (i: number) => {
    const l = labels[i];
    if (l > 0 && (!valid || valid[i] === 1)) kind[l] = 2;
  };
  // grains within `margin` px of the image edge
  for (let y = 0; y < h; y++) {
    if (y <= m || y >= h - 1 - m) {
      for (let x = 0; x < w; x++) mark(y * w + x);
      continue;
    }
    for (let x = 0; x <= Math.min(m, w - 1); x++) mark(y * w + x);
    for (let x = Math.max(w - 1 - m, m + 1); x < w; x++) mark(y * w + x);
  }
  // grains within `margin` px (along a row or column) of an excluded pixel: walk out from each excluded pixel
  if (valid) {
    const inner = (i: number) => {
      const y = (i / w) | 0,
        x = i - y * w;
      return x > m && y > m && x < w - 1 - m && y < h - 1 - m;
    };
    for (let p = 0; p < N; p++) {
      if (valid[p]) continue;
      for (let d = 1; d <= m + 1; d++) {
        for (const i of [p + d, p - d, p + d * w, p - d * w]) if (i >= 0 && i < N && inner(i)) mark(i);
      }
    }
  }
  let inside = 0,
    border = 0;
  for (let l = 1; l <= nLabels; l++) {
    if (kind[l] === 1) inside++;
    else if (kind[l] === 2) border++;
  }
  return { inside, border, jeffries: inside + border / 2, kind, area };
}

export interface InterceptResult {
  /** total test-line length in px */
  lengthPx: number;
  /** boundary intersections counted */
  intersections: number;
  /** mean lineal intercept in px */
  meanInterceptPx: number;
}

/**
 * Mean lineal intercept on horizontal and vertical test lines every `spacing` px: L̄ = L_T / P,
 * P = number of grain-boundary intersections (a change of grain label along the line, skipping
 * boundary pixels). Lines are interrupted by excluded pixels.
 */
export function meanIntercept(labels: Int32Array, w: number, h: number, valid: Uint8Array | null, spacing: number, minRun = 3): InterceptResult {
  let length = 0,
    hits = 0;
  // A boundary is crossed where the grain label changes between two runs of at least `minRun`
  // pixels: a digitised boundary running along the test line flickers between its two grains,
  // which is not an intersection.
  const walk = (start: number, step: number, n: number) => {
    let last = 0,
      cur = 0,
      run = 0;
    const close = () => {
      if (cur > 0 && run >= minRun) {
        if (last !== 0 && cur !== last) hits++;
        last = cur;
      }
    };
    for (let k = 0; k < n; k++) {
      const i = start + k * step;
      if (valid && !valid[i]) {
        close();
        last = 0;
        cur = 0;
        run = 0;
        continue;
      }
      length++;
      const l = labels[i];
      if (l <= 0) continue;
      if (l === cur) {
        run++;
        continue;
      }
      close();
      cur = l;
      run = 1;
    }
    close();
  };
  const off = Math.floor(spacing / 2);
  for (let y = off; y < h; y += spacing) walk(y * w, 1, w);
  for (let x = off; x < w; x += spacing) walk(x, w, h);
  return { lengthPx: length, intersections: hits, meanInterceptPx: hits ? length / hits : NaN };
}
