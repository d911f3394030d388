"""Multi-class segmentation networks for the layer, crack and dark-phase models (issue 22 item 3).

Two tasks, each its own small U-Net (lamella_train.model.UNet with C outputs, softmax):

- ``coating``: SEM cross-sections of environmental barrier coatings (../shared/training/ebc, 7 images 1024²):
  0 background, 1 oxide layer (the thermally grown oxide), 2 crack. Worked at half resolution (working scale 0.5),
  where the oxide is 40–150 px thick and a crack 1–3 px wide.
- ``phase``: SEM images of etched Ni-base superalloys (../shared/training/superalloy, 12 images 512²): 0 matrix,
  1 dark phase (γ′; the labels' secondary 1 and tertiary 2 γ′ are one class). Worked at full resolution.

Both learn from the real annotated images plus a share of simple synthetic images with exact labels (a three-band
cross-section with cracks in the middle band; a two-phase blob structure), which keep the network from reading
one data set's grey levels as the class.

The measurements the cross-validation scores are the product's (packages/analysis/src/models):

- layer mean thickness: the largest 8-connected region of oxide ∪ crack, its first and last row in every column
  (columns whose layer touches the top or bottom edge are skipped), the chord corrected to the perpendicular by the
  tilt of the least-squares mid-line (measure/thickness.ts perpendicularThickness), the mean over the columns;
- crack count: 8-connected regions of the crack class after a 3×3 closing, of at least CRACK_MIN_AREA pixels
  (full resolution) and CRACK_MIN_EXTENT px bounding-box diagonal;
- dark-phase area fraction: dark-phase pixels / all pixels, in percent.

The same functions measure the hand labels, so every error is network against hand labels, measured alike.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

import numpy as np
from PIL import Image
from scipy import ndimage

TASKS = {
    "coating": {
        "folder": "ebc",
        "classes": ["background", "oxide", "crack"],
        "scale": 0.5,
        "file": "coating-classes.onnx",
        "source": "environmental barrier coatings after steam cycling, SEM (BSE) cross-sections",
    },
    # working scale 0.5 from porosity 20261207 (dark-phase-20261207.onnx): twice the context per 128-px crop, the
    # cross-validation's mean error 3.3 → 1.9 points; dark-phase.onnx (porosity 20261202–20261204) was trained at 1.0
    "phase": {
        "folder": "superalloy",
        "classes": ["matrix", "dark phase (γ′)"],
        "scale": 0.5,
        "file": "dark-phase-20261207.onnx",
        "source": "etched Ni-base superalloys, SEM (SE)",
    },
}

CRACK_MIN_AREA = 20
CRACK_MIN_EXTENT = 12


@dataclass
class Item:
    name: str
    image: np.ndarray  # H×W×3 uint8 at the working scale
    labels: np.ndarray  # H×W uint8 at the working scale
    full_labels: np.ndarray  # H0×W0 uint8 at full resolution (the metrics' reference)
    full_shape: tuple = field(default=(0, 0))


def downscale_labels(lab: np.ndarray, scale: float, n_classes: int) -> np.ndarray:
    """Labels at the working scale: majority of each block, except that a crack present in a block wins (a 3-px
    crack stays a 1–2 px line at half resolution)."""
    if scale == 1.0:
        return lab
    f = int(round(1 / scale))
    h, w = lab.shape[0] // f * f, lab.shape[1] // f * f
    blocks = lab[:h, :w].reshape(h // f, f, w // f, f).transpose(0, 2, 1, 3).reshape(h // f, w // f, f * f)
    counts = np.stack([(blocks == c).sum(-1) for c in range(n_classes)], -1)
    out = counts.argmax(-1).astype(np.uint8)
    if n_classes == 3:
        out[counts[..., 2] > 0] = 2
    return out


def load(shared: str, task: str) -> list[Item]:
    spec = TASKS[task]
    root = os.path.join(shared, "training", spec["folder"])
    n_classes = len(spec["classes"])
    out = []
    for f in sorted(os.listdir(root)):
        if not f.endswith(".labels.png"):
            continue
        name = f[: -len(".labels.png")]
        img = Image.open(os.path.join(root, name + ".png")).convert("RGB")
        lab = np.array(Image.open(os.path.join(root, f)))
        if lab.ndim == 3:
            lab = lab[..., 0]
        if task == "phase":
            lab = (lab > 0).astype(np.uint8)
        full = lab.copy()
        s = spec["scale"]
        if s != 1.0:
            img = img.resize((round(img.width * s), round(img.height * s)), Image.BOX)
            lab = downscale_labels(lab, s, n_classes)
        out.append(Item(name, np.array(img), lab, full, full.shape))
    return out


def folds(items: list[Item], k: int) -> list[list[str]]:
    names = [a.name for a in items]
    return [names[i::k] for i in range(k)]


# ---------------------------------------------------------------- synthetic images with exact labels


def _smooth_noise(rng, h, w, sigma):
    n = ndimage.gaussian_filter(rng.normal(0, 1, (h, w)), sigma)
    return n / max(n.std(), 1e-6)


def synth_coating(rng: np.random.Generator, size: int):
    """Three bands (top coat, oxide, substrate) with wavy interfaces, pores, and cracks across the oxide."""
    h = w = size
    x = np.arange(w)
    t = rng.uniform(0.08, 0.45) * h
    y_top = rng.uniform(0.15, 0.85 - t / h) * h + np.cumsum(rng.normal(0, 0.6, w)) * rng.uniform(0, 1)
    y_top = y_top + np.tan(rng.uniform(-0.15, 0.15)) * (x - w / 2)
    y_bot = y_top + t * (1 + 0.25 * _smooth_noise(rng, 1, w, 12)[0] * rng.uniform(0, 1))
    yy = np.arange(h)[:, None]
    lab = np.zeros((h, w), np.uint8)
    lab[(yy >= y_top[None]) & (yy < y_bot[None])] = 1
    levels = rng.uniform(40, 230, 3)
    while abs(levels[1] - levels[0]) < 25 or abs(levels[1] - levels[2]) < 25:
        levels = rng.uniform(40, 230, 3)
    if rng.random() < 0.5:
        # as in most of the real cross-sections: the substrate has the oxide's grey, and only a thin bright or dark
        # interface line parts them
        levels[2] = levels[1] + rng.uniform(-6, 6)
    img = np.where(yy < y_top[None], levels[0], np.where(lab == 1, levels[1], levels[2])).astype(np.float32)
    if abs(levels[2] - levels[1]) < 10:
        line = np.abs(yy - y_bot[None]) < rng.uniform(0.6, 1.5)
        img[line] = np.clip(levels[1] + rng.choice([-1, 1]) * rng.uniform(25, 70), 0, 255)
    # pores (dark) in the top coat and a few in the others: background class
    for _ in range(int(rng.integers(0, 25))):
        cy, cx, r = rng.uniform(0, h), rng.uniform(0, w), rng.uniform(2, 0.08 * size)
        m = (yy - cy) ** 2 + (x[None] - cx) ** 2 < r * r
        m &= yy < y_top[None] + (r if rng.random() < 0.5 else 0)
        img[m] = rng.uniform(10, 60)
        lab[m] = 0
    # cracks: roughly vertical thin dark lines through the oxide
    for _ in range(int(rng.integers(0, 4))):
        cx = rng.uniform(0.05, 0.95) * w
        width = rng.uniform(0.8, 2.5)
        drift = np.cumsum(rng.normal(0, 0.25, h)) + np.tan(rng.uniform(-0.3, 0.3)) * (np.arange(h) - h / 2)
        line = np.abs(x[None] - (cx + drift[:, None])) < width / 2
        line &= lab == 1
        img[line] = np.minimum(img[line], rng.uniform(0, 50))
        lab[line] = 2
    rng.normal(0, 1, (h, w))  # drawn and unused: keeps the data order the cross-validation in cv-classes.json ran with
    img += _smooth_noise(rng, h, w, rng.uniform(1, 6)) * rng.uniform(0, 12)
    img = ndimage.gaussian_filter(img, rng.uniform(0.3, 1.0)) + rng.normal(0, rng.uniform(2, 12), (h, w))
    return np.repeat(np.clip(img, 0, 255).astype(np.uint8)[..., None], 3, 2), lab


def synth_phase(rng: np.random.Generator, size: int):
    """Rounded dark precipitates in a brighter matrix (a thresholded smooth random field), with fine dots."""
    h = w = size
    f = _smooth_noise(rng, h, w, rng.uniform(4, 14))
    lab = (f > rng.uniform(-0.6, 0.6)).astype(np.uint8)
    dots = (_smooth_noise(rng, h, w, 1.5) > rng.uniform(2.2, 3.2)) & (lab == 0)
    lab[dots] = 1
    dark, bright = sorted(rng.uniform(50, 220, 2))
    if bright - dark < 20:
        bright = min(255, dark + 20 + rng.uniform(0, 40))
    img = np.where(lab == 1, dark, bright).astype(np.float32)
    # etch relief: a bright rim around the precipitates (SEM edge effect)
    rim = ndimage.binary_dilation(lab == 1, iterations=int(rng.integers(1, 3))) & (lab == 0)
    img[rim] += rng.uniform(0, 40)
    img += _smooth_noise(rng, h, w, rng.uniform(10, 40)) * rng.uniform(0, 15)
    img = ndimage.gaussian_filter(img, rng.uniform(0.4, 1.5)) + rng.normal(0, rng.uniform(2, 15), (h, w))
    return np.repeat(np.clip(img, 0, 255).astype(np.uint8)[..., None], 3, 2), lab


SYNTH = {"coating": synth_coating, "phase": synth_phase}


# ---------------------------------------------------------------- the product's measurements


def largest_component(mask: np.ndarray) -> np.ndarray:
    lab, n = ndimage.label(mask, structure=np.ones((3, 3)))
    if n == 0:
        return mask.astype(bool)
    sizes = ndimage.sum(np.ones_like(lab), lab, index=np.arange(1, n + 1))
    return lab == (1 + int(np.argmax(sizes)))


def layer_thickness(layer: np.ndarray) -> float | None:
    """Mean perpendicular thickness (px) of the largest region, column by column (models/layer.ts with a mask)."""
    m = largest_component(layer)
    h, w = m.shape
    cols = np.nonzero(m.any(0))[0]
    if len(cols) < 3:
        return None
    first = m[:, cols].argmax(0)
    last = h - 1 - m[::-1, cols].argmax(0)
    ok = (first > 0) & (last < h - 1)
    if ok.sum() < 3:
        return None
    xs, top, bottom = cols[ok].astype(float), first[ok] - 0.5, last[ok] + 0.5
    b = np.polyfit(xs, (top + bottom) / 2, 1)[0]
    return float(np.mean((bottom - top) * np.cos(np.arctan(b))))


def crack_count(crack: np.ndarray) -> int:
    m = ndimage.binary_closing(crack, structure=np.ones((3, 3)))
    lab, n = ndimage.label(m, structure=np.ones((3, 3)))
    count = 0
    for i, sl in enumerate(ndimage.find_objects(lab), start=1):
        if sl is None:
            continue
        area = int((lab[sl] == i).sum())
        diag = np.hypot(sl[0].stop - sl[0].start, sl[1].stop - sl[1].start)
        if area >= CRACK_MIN_AREA and diag >= CRACK_MIN_EXTENT:
            count += 1
    return count


def measure(task: str, labels: np.ndarray) -> dict:
    """The measurements of a full-resolution class map."""
    if task == "coating":
        t = layer_thickness((labels == 1) | (labels == 2))
        return {"thicknessPx": None if t is None else round(t, 2), "crackCount": crack_count(labels == 2)}
    return {"darkPhasePercent": round(100 * float((labels == 1).mean()), 2)}


def errors(task: str, pred: dict, ref: dict) -> dict:
    if task == "coating":
        t, r = pred.get("thicknessPx"), ref["thicknessPx"]
        c, rc = pred.get("crackCount"), ref["crackCount"]
        return {
            "thicknessErrorPercent": None if t is None or not r else round(100 * abs(t - r) / r, 2),
            "crackCountErrorPercent": None if c is None else round(100 * abs(c - rc) / max(rc, 1), 1),
        }
    p = pred.get("darkPhasePercent")
    return {"darkPhaseErrorPoints": None if p is None else round(abs(p - ref["darkPhasePercent"]), 2)}
