"""Writing a trained network as the ONNX file the product's engine reads (packages/analysis/src/learned/): input
`image` (N×3×H×W, any size), output `probability` (the logits through `head`: sigmoid for the boundary network,
softmax over the classes for the class networks), opset 13, written to a temporary file and moved into place.

A network trained with a fixed input scale (train.py `--input-scale`; none is shipped) takes the image
centred only, `x/255 − mean` per channel, as input `image_centred`: the division by the scale is the graph's first
step, and the scale is in the file's metadata (`lamella.inputScale`) for a fine-tune to train with. The engine reads
the input's name to know which normalisation a file wants (network.ts)."""

from __future__ import annotations

import os

import torch


INPUT_SCALE_KEY = "lamella.inputScale"


class WithHead(torch.nn.Module):
    def __init__(self, m: torch.nn.Module, head: str, input_scale: float | None = None):
        super().__init__()
        self.m = m
        self.head = head
        self.input_scale = input_scale

    def forward(self, x):
        y = self.m(x if self.input_scale is None else x / self.input_scale)
        return torch.softmax(y, 1) if self.head == "softmax" else torch.sigmoid(y)


def export_onnx(net: torch.nn.Module, path: str, head: str = "sigmoid", input_scale: float | None = None) -> None:
    if head not in ("sigmoid", "softmax"):
        raise ValueError(f"head is sigmoid or softmax, not {head}")
    net.eval().cpu()
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    tmp = path + ".tmp"
    name = "image" if input_scale is None else "image_centred"
    torch.onnx.export(
        WithHead(net, head, input_scale),
        torch.zeros(1, 3, 64, 64),
        tmp,
        input_names=[name],
        output_names=["probability"],
        dynamic_axes={name: {0: "n", 2: "h", 3: "w"}, "probability": {0: "n", 2: "h", 3: "w"}},
        opset_version=13,
    )
    if input_scale is not None:
        import onnx

        m = onnx.load(tmp)
        entry = m.metadata_props.add()
        entry.key, entry.value = INPUT_SCALE_KEY, repr(float(input_scale))
        onnx.save(m, tmp)
    os.replace(tmp, path)


def input_scale_of(model) -> float | None:
    """The fixed input scale an exported network (an `onnx.ModelProto`) was trained with, None for one normalised
    per image."""
    for p in model.metadata_props:
        if p.key == INPUT_SCALE_KEY:
            return float(p.value)
    return None
