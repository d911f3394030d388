"""Domain-randomised synthetic micrographs with exact grain boundaries.

Every sample is drawn from a random grain partition (a warped, optionally stretched Voronoi tessellation with
annealing twins) and rendered in one of several randomly parametrised styles: dark etched lines, bright lines,
SEM relief, tint colours, flat grey maps. Artefacts that are not boundaries are added on top: mottling,
polishing scratches, pits, inclusions, uneven light, blur, noise and JPEG compression.

The targets are exact: `boundary` marks the pixels where the grain label changes (4-neighbourhood), `twin` the
pixels of the straight, parallel-sided twin lines drawn inside grains (not grain boundaries per ASTM E112).
"""

from __future__ import annotations

import io
from dataclasses import dataclass

import numpy as np
from PIL import Image
from scipy import ndimage
from scipy.spatial import cKDTree

STYLES = ("dark-lines", "bright-lines", "sem-relief", "tint", "flat-grey")


@dataclass
class Sample:
    image: np.ndarray  # H×W×3 uint8
    boundary: np.ndarray  # H×W float32 0/1, 1 px wide label changes
    twin: np.ndarray  # H×W float32 0/1, twin lines (not boundaries)
    style: str
    mean_intercept_px: float


def smooth_noise(rng: np.random.Generator, h: int, w: int, scale: float) -> np.ndarray:
    """Zero-mean, unit-std noise smooth over about `scale` px."""
    n = rng.standard_normal((h, w)).astype(np.float32)
    n = ndimage.gaussian_filter(n, max(scale, 0.5), mode="wrap")
    s = n.std()
    return n / s if s > 0 else n


def label_changes(labels: np.ndarray) -> np.ndarray:
    """1 where a pixel's right or lower neighbour has another label (a 1-px, zero-gap boundary trace)."""
    b = np.zeros(labels.shape, dtype=bool)
    b[:, :-1] |= labels[:, :-1] != labels[:, 1:]
    b[:-1, :] |= labels[:-1, :] != labels[1:, :]
    return b


def partition(rng: np.random.Generator, h: int, w: int, grain_px: float) -> np.ndarray:
    """Grain labels of a warped Voronoi tessellation whose mean intercept is about `grain_px`."""
    margin = 2 * grain_px
    area = (h + 2 * margin) * (w + 2 * margin)
    # mean intercept of a Poisson-Voronoi tessellation ≈ 0.69 / sqrt(density) ... solve for the seed count
    n = max(4, int(area * (0.69 / grain_px) ** 2))
    stretch = 1.0
    if rng.random() < 0.25:  # elongated or lath-shaped grains
        stretch = rng.uniform(1.5, 4.0)
    angle = rng.uniform(0, np.pi)
    pts = np.stack([rng.uniform(-margin, h + margin, n), rng.uniform(-margin, w + margin, n)], axis=1)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    # domain warp: curved boundaries
    amp = rng.uniform(0, 0.35) * grain_px
    wy = yy + amp * smooth_noise(rng, h, w, grain_px * 0.8)
    wx = xx + amp * smooth_noise(rng, h, w, grain_px * 0.8)
    c, s = np.cos(angle), np.sin(angle)

    def tf(py, px):
        u = c * py + s * px
        v = -s * py + c * px
        return np.stack([u / np.sqrt(stretch), v * np.sqrt(stretch)], axis=-1)

    tree = cKDTree(tf(pts[:, 0], pts[:, 1]))
    weights = rng.uniform(0, 1, n) ** 2 * (grain_px * rng.uniform(0, 0.6)) ** 2  # power diagram: size spread
    q = tf(wy.ravel(), wx.ravel())
    if weights.max() > 0:
        d, idx = tree.query(q, k=4)
        pd = d**2 - weights[idx]
        lab = idx[np.arange(len(idx)), pd.argmin(axis=1)]
    else:
        _, lab = tree.query(q)
    return lab.reshape(h, w).astype(np.int32) + 1


def add_twins(rng: np.random.Generator, labels: np.ndarray, grain_px: float, share: float):
    """Straight, parallel-sided bands across a share of the grains: they become a region of their own in the
    rendering (another tone) but their edges are twin lines, not boundaries. Returns (render labels, twin mask)."""
    h, w = labels.shape
    render = labels.copy()
    twin = np.zeros((h, w), dtype=bool)
    ids = np.unique(labels)
    nxt = labels.max() + 1
    objs = ndimage.find_objects(labels)
    for gid in ids:
        if rng.random() > share:
            continue
        sl = objs[gid - 1]
        if sl is None:
            continue
        ys, xs = sl
        sub = labels[ys, xs] == gid
        if sub.sum() < 80:
            continue
        yy, xx = np.mgrid[ys, xs]
        cy, cx = yy[sub].mean(), xx[sub].mean()
        ang = rng.uniform(0, np.pi)
        d = (yy - cy) * np.cos(ang) - (xx - cx) * np.sin(ang)
        width = rng.uniform(0.12, 0.35) * grain_px
        off = rng.uniform(-0.3, 0.3) * grain_px
        band = sub & (np.abs(d - off) < width / 2)
        if band.sum() < 20:
            continue
        region = render[ys, xs]
        region[band] = nxt
        nxt += 1
        edge = np.zeros_like(sub)
        inner = band
        edge |= inner & ~ndimage.binary_erosion(inner, iterations=1, border_value=1)
        edge &= ~label_changes(labels[ys, xs])  # where the band meets the grain boundary it is a boundary
        twin[ys, xs] |= edge
    return render, twin


def grain_tones(rng: np.random.Generator, n: int, style: str) -> np.ndarray:
    """RGB tone (0..1) per grain label (index 0 unused)."""
    if style == "tint":
        # neighbours differ by hue and brightness: random hue around a dominant tint, random saturation
        base = rng.uniform(0, 1)
        hue = (base + rng.normal(0, rng.uniform(0.08, 0.3), n + 1)) % 1.0
        sat = np.clip(rng.uniform(0.2, 0.8) + rng.normal(0, 0.15, n + 1), 0.05, 1)
        val = np.clip(rng.uniform(0.4, 0.8) + rng.normal(0, 0.15, n + 1), 0.1, 1)
        return hsv_to_rgb(hue, sat, val)
    if style in ("sem-relief", "flat-grey"):
        g = np.clip(rng.uniform(0.25, 0.7) + rng.normal(0, rng.uniform(0.06, 0.2), n + 1), 0.02, 0.98)
    elif style == "bright-lines":
        g = np.clip(rng.uniform(0.15, 0.5) + rng.normal(0, rng.uniform(0.0, 0.08), n + 1), 0.02, 0.9)
    else:  # dark lines on bright grains
        g = np.clip(rng.uniform(0.55, 0.9) + rng.normal(0, rng.uniform(0.0, 0.1), n + 1), 0.1, 1)
    tint = np.array([1, 1, 1]) + rng.normal(0, 0.04, 3)  # a slight colour cast
    return np.clip(g[:, None] * tint[None, :], 0, 1)


def hsv_to_rgb(h, s, v):
    i = np.floor(h * 6).astype(int) % 6
    f = h * 6 - np.floor(h * 6)
    p, q, t = v * (1 - s), v * (1 - f * s), v * (1 - (1 - f) * s)
    r = np.choose(i, [v, q, p, p, t, v])
    g = np.choose(i, [t, v, v, q, p, p])
    b = np.choose(i, [p, p, t, v, v, q])
    return np.stack([r, g, b], axis=-1)


def draw_lines(rng, boundary_or_twin: np.ndarray, width: float, grain_px: float) -> np.ndarray:
    """Line intensity 0..1: the 1-px trace widened to `width`, faded and broken along its length."""
    if width <= 0:
        return np.zeros(boundary_or_twin.shape, np.float32)
    d = ndimage.distance_transform_edt(~boundary_or_twin)
    prof = np.clip(width / 2 + 0.5 - d, 0, 1).astype(np.float32)
    h, w = prof.shape
    fade = np.clip(0.75 + rng.uniform(0.1, 0.5) * smooth_noise(rng, h, w, grain_px * rng.uniform(0.3, 1.5)), 0, 1)
    if rng.random() < 0.5:  # broken lines
        gaps = smooth_noise(rng, h, w, rng.uniform(2, 6)) > rng.uniform(1.0, 2.2)
        fade = fade * ~gaps
    return prof * fade


def render(rng: np.random.Generator, h: int, w: int, grain_px: float, style: str | None = None) -> Sample:
    style = style or STYLES[rng.choice(len(STYLES), p=[0.34, 0.14, 0.14, 0.26, 0.12])]
    labels = partition(rng, h, w, grain_px)
    twin_share = rng.uniform(0.2, 0.6) if rng.random() < 0.35 else 0.0
    rlabels, twin = add_twins(rng, labels, grain_px, twin_share) if twin_share else (labels, np.zeros((h, w), bool))
    boundary = label_changes(labels)
    tones = grain_tones(rng, int(rlabels.max()) + 1, style)
    img = tones[rlabels].astype(np.float32)
    # mottling / texture inside grains
    if rng.random() < 0.6:
        mot = smooth_noise(rng, h, w, rng.uniform(1.5, 0.5 * grain_px)) * rng.uniform(0.02, 0.12)
        img *= 1 + mot[..., None]
    # lines
    if style in ("dark-lines", "bright-lines") or (style in ("tint", "sem-relief") and rng.random() < 0.35):
        wdt = rng.uniform(1.0, 4.5) if style != "tint" else rng.uniform(0.8, 2.0)
        lines = draw_lines(rng, boundary, wdt, grain_px)
        tw_lines = draw_lines(rng, twin, wdt * rng.uniform(0.6, 1.0), grain_px) if twin.any() and rng.random() < 0.8 else 0
        strength = rng.uniform(0.25, 0.85) if style != "tint" else rng.uniform(0.1, 0.4)
        L = np.maximum(lines, tw_lines * rng.uniform(0.5, 1.0)) * strength
        if style == "bright-lines" or (style == "sem-relief" and rng.random() < 0.5):
            img = img + (1 - img) * L[..., None]
        else:
            img = img * (1 - L[..., None])
    if style == "sem-relief":  # edge brightening around grains (SE topography)
        edge = ndimage.gaussian_filter(boundary.astype(np.float32), rng.uniform(1, 3))
        img += edge[..., None] * rng.uniform(0.5, 2.0)
    # scratches: long straight thin lines across grains
    for _ in range(rng.poisson(1.2) if rng.random() < 0.5 else 0):
        y0, x0 = rng.uniform(0, h), rng.uniform(0, w)
        ang = rng.uniform(0, np.pi)
        yy, xx = np.mgrid[0:h, 0:w]
        d = np.abs((yy - y0) * np.cos(ang) - (xx - x0) * np.sin(ang))
        sw = rng.uniform(0.5, 2.0)
        s = np.clip(sw - d, 0, 1) * rng.uniform(0.1, 0.4)
        img = img * (1 - s[..., None]) if rng.random() < 0.6 else img + (1 - img) * s[..., None]
    # pits and inclusions: small dark blobs
    if rng.random() < 0.5:
        n = rng.poisson(h * w / (grain_px * grain_px) * rng.uniform(0.05, 0.6))
        blobs = np.zeros((h, w), np.float32)
        ys, xs = rng.integers(0, h, n), rng.integers(0, w, n)
        blobs[ys, xs] = 1
        r = rng.uniform(0.8, 3.0)
        blobs = np.clip(ndimage.gaussian_filter(blobs, r) * (2 * np.pi * r * r) * rng.uniform(0.4, 1.0), 0, 1)
        img = img * (1 - blobs[..., None] * rng.uniform(0.4, 0.9))
    # uneven light
    if rng.random() < 0.5:
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        g = 1 + rng.uniform(-0.3, 0.3) * (yy / h - 0.5) + rng.uniform(-0.3, 0.3) * (xx / w - 0.5)
        g += smooth_noise(rng, h, w, max(h, w) / 3) * rng.uniform(0, 0.12)
        img *= g[..., None]
    # blur and noise
    if rng.random() < 0.5:
        img = ndimage.gaussian_filter(img, (rng.uniform(0.3, 1.4), rng.uniform(0.3, 1.4), 0))
    img += rng.normal(0, rng.uniform(0.0, 0.07), img.shape).astype(np.float32)
    # contrast / brightness jitter
    img = (img - 0.5) * rng.uniform(0.6, 1.4) + 0.5 + rng.uniform(-0.15, 0.15)
    out = (np.clip(img, 0, 1) * 255 + 0.5).astype(np.uint8)
    if rng.random() < 0.3:  # grey camera
        gray = out.mean(axis=2, keepdims=True).astype(np.uint8)
        out = np.repeat(gray, 3, axis=2)
    if rng.random() < 0.35:  # JPEG
        buf = io.BytesIO()
        Image.fromarray(out).save(buf, format="JPEG", quality=int(rng.uniform(40, 92)))
        out = np.array(Image.open(io.BytesIO(buf.getvalue())).convert("RGB"))
    mi = mean_intercept(labels)
    return Sample(out, boundary.astype(np.float32), twin.astype(np.float32), style, mi)


def mean_intercept(labels: np.ndarray) -> float:
    """Mean lineal intercept (px) over all rows and columns: length / label changes."""
    p = (labels[:, 1:] != labels[:, :-1]).sum() + (labels[1:, :] != labels[:-1, :]).sum()
    return float(labels.size * 2 / max(p, 1))


def sample(rng: np.random.Generator, size: int = 192, grain_range=(10.0, 100.0)) -> Sample:
    """One random training sample; the grain size is log-uniform over `grain_range` (mean intercept, px)."""
    lo, hi = np.log(grain_range[0]), np.log(grain_range[1])
    grain_px = float(np.exp(rng.uniform(lo, hi)))
    return render(rng, size, size, grain_px)
