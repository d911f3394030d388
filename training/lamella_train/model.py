"""A small U-Net for grain-boundary probability (2 output channels: boundary, twin line).

The input is an RGB image normalised per image and channel ((x − mean) / std over the whole image, done by the
caller: the launcher normalises over the whole image before cutting tiles, so tiles agree). Three 2× poolings:
inputs must be multiples of 8 in height and width.
"""

from __future__ import annotations

import torch
from torch import nn


def block(cin: int, cout: int) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, padding=1, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
        nn.Conv2d(cout, cout, 3, padding=1, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class UNet(nn.Module):
    def __init__(self, cin: int = 3, cout: int = 2, width: int = 16):
        super().__init__()
        c1, c2, c3, c4 = width, 2 * width, 4 * width, 6 * width
        self.e1, self.e2, self.e3, self.e4 = block(cin, c1), block(c1, c2), block(c2, c3), block(c3, c4)
        self.pool = nn.MaxPool2d(2)
        self.u3 = nn.ConvTranspose2d(c4, c3, 2, stride=2)
        self.d3 = block(2 * c3, c3)
        self.u2 = nn.ConvTranspose2d(c3, c2, 2, stride=2)
        self.d2 = block(2 * c2, c2)
        self.u1 = nn.ConvTranspose2d(c2, c1, 2, stride=2)
        self.d1 = block(2 * c1, c1)
        self.head = nn.Conv2d(c1, cout, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x1 = self.e1(x)
        x2 = self.e2(self.pool(x1))
        x3 = self.e3(self.pool(x2))
        x4 = self.e4(self.pool(x3))
        y = self.d3(torch.cat([self.u3(x4), x3], 1))
        y = self.d2(torch.cat([self.u2(y), x2], 1))
        y = self.d1(torch.cat([self.u1(y), x1], 1))
        return self.head(y)


def normalise(img_u8, scale: float | None = None) -> "torch.Tensor":
    """H×W×3 uint8 (numpy) → 1×3×H×W float, per-channel (x − mean)/std over the image (std floored), or, with a fixed
    `scale`, (x − mean)/scale: the spread is then the image's own, so a crop of it gives the network the same values
    where they overlap (only the mean, a shift, depends on what the field holds)."""
    import numpy as np

    x = img_u8.astype(np.float32) / 255.0
    m = x.reshape(-1, 3).mean(axis=0)
    s = np.maximum(x.reshape(-1, 3).std(axis=0), 0.02) if scale is None else np.float32(scale)
    x = (x - m) / s
    return torch.from_numpy(np.ascontiguousarray(x.transpose(2, 0, 1)))[None]
