"""Writing a trained network as the ONNX file the product's engine reads (packages/analysis/src/learned/): input
`image` (N×3×H×W, any size), output `probability` (the logits through `head`: sigmoid for the boundary network,
softmax over the classes for the class networks), opset 13, written to a temporary file and moved into place."""

from __future__ import annotations

import os

import torch


class WithHead(torch.nn.Module):
    def __init__(self, m: torch.nn.Module, head: str):
        super().__init__()
        self.m = m
        self.head = head

    def forward(self, x):
        y = self.m(x)
        return torch.softmax(y, 1) if self.head == "softmax" else torch.sigmoid(y)


def export_onnx(net: torch.nn.Module, path: str, head: str = "sigmoid") -> None:
    if head not in ("sigmoid", "softmax"):
        raise ValueError(f"head is sigmoid or softmax, not {head}")
    net.eval().cpu()
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    tmp = path + ".tmp"
    torch.onnx.export(
        WithHead(net, head),
        torch.zeros(1, 3, 64, 64),
        tmp,
        input_names=["image"],
        output_names=["probability"],
        dynamic_axes={"image": {0: "n", 2: "h", 3: "w"}, "probability": {0: "n", 2: "h", 3: "w"}},
        opset_version=13,
    )
    os.replace(tmp, path)
