"""Reading a micrograph as the engine does (packages/analysis/src/image.ts decodeImage): 8-bit images as they are;
16-bit ones (12-bit detectors, ImageJ exports) and 32-bit ones as grey, stretched between their 0.01 % and 99.99 %
points to 8 bits. Pillow's convert("RGB") clips a 16-bit grey image at 255 instead (nearly all white), so a network
fine-tuned on it would learn from a blank picture.
"""

from __future__ import annotations

import numpy as np
from PIL import Image

from .masks import TIFF_MAGIC

TAIL = 0.0001  # the share of pixels beyond each end of the stretch (0.01 %), as the engine's


def stretch(values: np.ndarray) -> np.ndarray:
    """H×W uint8 from grey values of any depth: lo/hi are the first values with more than 0.01 % of the pixels
    below/above them (the engine's histogram walk); NaN and ±inf count as the darkest."""
    v = np.asarray(values, np.float64)
    bad = ~np.isfinite(v)
    if bad.any():
        finite = v[~bad]
        v = np.where(bad, finite.min() if finite.size else 0.0, v)
    flat = np.sort(v, axis=None)
    n = flat.size
    k = int(np.floor(n * TAIL))  # the (k+1)-th smallest value is the first whose cumulative count exceeds n·0.01 %
    lo, hi = flat[min(k, n - 1)], flat[max(n - 1 - k, 0)]
    if hi <= lo:
        hi = lo + 1
    return np.clip(np.rint((v - lo) * (255.0 / (hi - lo))), 0, 255).astype(np.uint8)


def grey_of(a: np.ndarray) -> np.ndarray:
    """The grey of H×W or H×W×C samples (Rec. 601 weights on the first three channels)."""
    if a.ndim == 2:
        return a
    if a.shape[-1] >= 3:
        return a[..., 0] * 0.299 + a[..., 1] * 0.587 + a[..., 2] * 0.114
    return a[..., 0]


def read_image_rgb(path: str) -> np.ndarray:
    """H×W×3 uint8: 8-bit images as RGB; deeper ones as their stretched grey in three channels."""
    with open(path, "rb") as f:
        head = f.read(4)
    if head in TIFF_MAGIC:
        try:
            import tifffile

            a = np.asarray(tifffile.imread(path, key=0))
            if a.dtype != np.uint8:
                g = stretch(grey_of(a.astype(np.float64)))
                return np.repeat(g[..., None], 3, axis=2)
        except Exception:  # noqa: BLE001 - tifffile missing or a compression it cannot decode: Pillow below
            pass
    with Image.open(path) as im:
        if im.mode in ("I;16", "I;16B", "I;16L", "I", "F"):
            g = stretch(np.array(im).astype(np.float64))
            return np.repeat(g[..., None], 3, axis=2)
        return np.array(im.convert("RGB"))
