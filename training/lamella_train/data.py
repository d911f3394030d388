"""Real training data: the TBM tint-etched steel with hand-traced boundary tiles (../shared/training/tbm).

Only the 128×128 tiles listed in `labels_128/N-Y-X-dy-dx.png` are annotated; everything else in an image is
unlabelled, not "no boundary". A training crop therefore carries a weight map: 1 inside annotated tiles, 0
elsewhere, and the loss ignores weight-0 pixels. The hand strokes (a few px wide) are thinned to a 1-px trace
so that real and synthetic targets have the same width.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

import numpy as np
from PIL import Image
from skimage.morphology import skeletonize

TILE = re.compile(r"^(\d+)-(\d+)-(\d+)-(\d+)-(\d+)\.png$")


@dataclass
class Annotated:
    name: str
    image: np.ndarray  # H×W×3 uint8
    boundary: np.ndarray  # H×W float32: 1-px trace of the hand strokes (0 where not annotated)
    weight: np.ndarray  # H×W float32: 1 where annotated
    mean_intercept_px: float  # of the annotated tiles (rows and columns)


def load_tbm(root: str) -> list[Annotated]:
    lab_dir = os.path.join(root, "labels_128")
    tiles: dict[str, list[tuple[int, int, str]]] = {}
    for f in sorted(os.listdir(lab_dir)):
        m = TILE.match(f)
        if not m:
            continue
        n, y, x, dy, dx = m.groups()
        tiles.setdefault(n, []).append((int(y) + int(dy), int(x) + int(dx), f))
    out = []
    for n in sorted(tiles):
        img = np.array(Image.open(os.path.join(root, f"{n}.png")).convert("RGB"))
        h, w = img.shape[:2]
        bnd = np.zeros((h, w), np.float32)
        wt = np.zeros((h, w), np.float32)
        length = crossings = 0
        for y, x, f in tiles[n]:
            t = np.array(Image.open(os.path.join(lab_dir, f)).convert("L")) < 128
            th, tw = t.shape
            th, tw = min(th, h - y), min(tw, w - x)
            if th <= 0 or tw <= 0:
                continue
            trace = skeletonize(t[:th, :tw])
            bnd[y : y + th, x : x + tw] = trace
            wt[y : y + th, x : x + tw] = 1
            # crossings of the trace along rows and columns (runs of trace pixels count once)
            for a in (trace, trace.T):
                starts = a[:, 1:] & ~a[:, :-1]
                crossings += int(starts.sum() + a[:, 0].sum())
                length += a.size
        out.append(Annotated(n, img, bnd, wt, length / max(crossings, 1)))
    return out


def folds(items: list[Annotated], k: int) -> list[list[str]]:
    """K groups of image names (by image: every tile of an image is in one fold)."""
    names = [a.name for a in items]
    return [names[i::k] for i in range(k)]
