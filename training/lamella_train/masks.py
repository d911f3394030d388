"""Reading a corrected mask as the engine does (packages/analysis/src/image.ts decodeMask): the first channel at
its own bit depth, any value above 0 is grain interior.

Pillow keeps a 16-bit grey image at 16 bits, but reduces a 16-bit TIFF with more than one sample per pixel (RGB,
grey + alpha) to 8 bits by keeping the high byte: a label of 1–255 would read as 0 (boundary). TIFFs are therefore
read with tifffile (full depth, every compression it knows, the first page); other formats with Pillow. A 16-bit
colour PNG, which Pillow also reduces and tifffile cannot read, is refused rather than read wrong.
"""

from __future__ import annotations

import numpy as np
from PIL import Image

TIFF_MAGIC = (b"II*\x00", b"MM\x00*", b"II+\x00", b"MM\x00+")
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


class MaskError(ValueError):
    """A mask that cannot be read exactly."""


def first_channel(a: np.ndarray, planar: bool = False) -> np.ndarray:
    """The first channel of H×W, H×W×C or (planar) C×H×W pixels."""
    if a.ndim == 2:
        return a
    if a.ndim == 3:
        return a[0] if planar else a[..., 0]
    raise MaskError(f"a mask has 2 dimensions (and channels), not shape {a.shape}")


def read_tiff(path: str) -> np.ndarray:
    try:
        import tifffile

        with tifffile.TiffFile(path) as tif:
            page = tif.pages[0]
            a = page.asarray()
            planar = getattr(page, "planarconfig", 1) == 2 and a.ndim == 3 and a.shape[0] == page.samplesperpixel
        return first_channel(np.asarray(a), planar)
    except Exception as e:  # noqa: BLE001 - tifffile missing, or a compression it needs imagecodecs for (LZW, PackBits)
        why = e
    # Pillow (libtiff) reads every compression, exactly unless 16-bit samples come more than one to a pixel
    with Image.open(path) as im:
        bits = im.tag_v2.get(258, (8,))
        bits = bits if isinstance(bits, tuple) else (bits,)
        if len(bits) > 1 and max(bits) > 8:
            raise MaskError(f"a {max(bits)}-bit TIFF mask with {len(bits)} samples a pixel cannot be read exactly here ({why})")
        return first_channel(np.array(im))


def png_depth(head: bytes) -> tuple[int, int]:
    """Bit depth and colour type of a PNG from its IHDR (the first chunk)."""
    return head[24], head[25]


def read_mask_values(path: str) -> np.ndarray:
    """The first channel of the mask at its own depth (uint8, uint16, …), H×W."""
    with open(path, "rb") as f:
        head = f.read(32)
    if head[:4] in TIFF_MAGIC:
        return read_tiff(path)
    if head[:8] == PNG_MAGIC and len(head) >= 26:
        depth, colour = png_depth(head)
        if depth == 16 and colour in (2, 4, 6):
            raise MaskError("a 16-bit colour PNG mask cannot be read exactly here: save it as grey PNG or as TIFF")
    with Image.open(path) as im:
        return first_channel(np.array(im))


def read_mask(path: str) -> np.ndarray:
    """H×W bool: True where the mask's first channel is above 0 (grain interior)."""
    return read_mask_values(path) > 0
