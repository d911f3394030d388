"""Training batches of the grain-boundary network, shared by the base training (train.py `Batches`) and the
fine-tune on corrected masks (finetune.py `mixed_batches`): the crop of an annotated image zoomed to the network's
input size, and the assembly of a batch (a random quarter turn and mirror of each item, the normalised image, the
targets as 1-px-radius bands, the weights).

An item is `(image H×W×3 uint8, boundary trace, twin trace, weight, twin weight)`: the traces 1 px wide (float32
0/1), the weight 1 where the pixel is annotated, the twin weight 1 where twin boundaries are labelled (synthetic
data) and 0 where they are not (real and corrected images).
"""

from __future__ import annotations

from typing import Callable

import numpy as np
import torch
from scipy import ndimage
from skimage.morphology import skeletonize

from .model import normalise

Item = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, float]


def band(trace: np.ndarray, radius: float) -> np.ndarray:
    """The target: pixels within `radius` of the 1-px trace."""
    if not trace.any():
        return np.zeros(trace.shape, np.float32)
    return (ndimage.distance_transform_edt(trace < 0.5) <= radius).astype(np.float32)


def crop_zoom(
    image: np.ndarray, boundary: np.ndarray, weight: np.ndarray, y0: int, x0: int, src: int, size: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The `src`×`src` crop at (y0, x0), padded where it passes the edge (the image mirrored, the padding not
    annotated: weight 0), zoomed to `size`×`size`: the image (float32, 0–255, not yet rounded: the caller's
    photometric jitter comes first), the trace thinned back to 1 px after zooming its band, the weight."""
    img = image[y0 : y0 + src, x0 : x0 + src]
    tr = boundary[y0 : y0 + src, x0 : x0 + src]
    wt = weight[y0 : y0 + src, x0 : x0 + src]
    if img.shape[0] < src or img.shape[1] < src:
        pad = ((0, src - img.shape[0]), (0, src - img.shape[1]))
        img = np.pad(img, pad + ((0, 0),), mode="reflect")
        tr, wt = np.pad(tr, pad), np.pad(wt, pad)
    z = size / src
    img = np.clip(ndimage.zoom(img.astype(np.float32), (z, z, 1), order=1), 0, 255)[:size, :size]
    tr = skeletonize(ndimage.zoom(band(tr, 1.0), z, order=1)[:size, :size] > 0.5).astype(np.float32)
    wt = (ndimage.zoom(wt, z, order=0)[:size, :size] > 0.5).astype(np.float32)
    return img, tr, wt


def assemble(rng: np.random.Generator, n: int, draw: Callable[[], Item], scale: float | None = None):
    """A batch of `n` items from `draw`, each turned by a random quarter and mirrored half the time (the draws of
    `rng` in this order: the item's own, then the turn, then the mirror), normalised as `model.normalise` with
    `scale` (None: by each item's own spread). Answers the tensors the loss takes:
    images N×3×H×W, boundary band, twin band, weight, twin weight (N×H×W)."""
    xs, tb, tt, ws, wtw = [], [], [], [], []
    for _ in range(n):
        img, trace, twin, weight, twin_w = draw()
        k = int(rng.integers(4))
        flip = rng.random() < 0.5
        arrs = [np.rot90(a, k) for a in (img, trace, twin, weight)]
        if flip:
            arrs = [a[:, ::-1] for a in arrs]
        img, trace, twin, weight = arrs
        xs.append(normalise(np.ascontiguousarray(img), scale)[0])
        tb.append(band(trace, 1.0))
        tt.append(band(twin, 1.0))
        ws.append(np.ascontiguousarray(weight))
        wtw.append(np.full(weight.shape, twin_w, np.float32) * weight)
    t = lambda a: torch.from_numpy(np.stack(a).astype(np.float32))  # noqa: E731
    return torch.stack(xs), t(tb), t(tt), t(ws), t(wtw)
