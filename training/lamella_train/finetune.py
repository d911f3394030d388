"""Fine-tuning the grain-boundary network on corrected segmentations (issue 25).

    /usr/bin/python3 training/train.py --finetune manifest.json [--device auto|cpu] [--threads N]

The manifest (JSON):

    {
      "base": "/abs/path/base.onnx",            # the shipped network or another trained version's file
      "images": [{"id": "a", "image": "/abs/a.png", "mask": "/abs/a.mask.png", "holdout": false}, ...],
      "steps": 300, "seed": 1, "out": "/abs/out/dir",
      # optional: "baseVersion", "candidateVersion", "batch" (8), "size" (128), "lr" (1e-3),
      # "userShare" (0.5: share of a batch from the user's images), "realShare" (0.3: share of the base part from
      # the annotated TBM tiles), "shared" (the shared/ folder; null: synthetic base data only)
    }

A mask is a binary label image of the whole image: 255 (any value above 0 in its first channel, as the engine
reads it) grain interior, 0 boundary or outside. Its grains are its
4-connected components of interior; the boundary target is where the components meet when each is grown into the
0 pixels around it (a zero-width partition, as the engine draws it), widened like the synthetic targets. The twin
channel is not taught by these images (weight 0).

The base network's weights are read from its ONNX file: the export folds each BatchNorm into the convolution
before it, so a folded convolution is loaded as the convolution plus an identity BatchNorm whose shift is the
folded bias (rm 0, rv 1, γ √(1+eps)); BatchNorm layers stay in eval mode during the fine-tune (their statistics are
frozen, γ and β still learn), so step 0 is exactly the base network. Initialisers that keep their PyTorch names
(`m.<state_dict key>`, as an export with do_constant_folding=False keeps them) are loaded by name.

Batches mix the user's training images (share `userShare`) with the base training data (synthetic samples and the
annotated TBM tiles, as in train.py), so the network does not forget what it learned. Held-out images are never
seen here: the Node orchestrator validates on them.

stdout carries one JSON object per line: {"type":"started"}, {"type":"log","message"},
{"type":"progress","step","steps","loss","elapsedS","etaS"}, then {"type":"done","network","card"} or
{"type":"error","code","message"} (exit status 2).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import time

import numpy as np
import onnx
import torch
from onnx import numpy_helper
from scipy import ndimage

from . import synth
from .batches import assemble, crop_zoom
from .export import input_scale_of
from .images import read_image_rgb
from .masks import read_mask
from .model import UNet

TARGET_INTERCEPT_PX = 32.0  # the engine's working scale puts the mean intercept here (learned/tunables.ts)


class FineTuneError(Exception):
    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


def emit(obj: dict) -> None:
    print(json.dumps(obj), flush=True)


# ---------------------------------------------------------------- base network from ONNX


def load_onnx_weights(path: str) -> UNet:
    """A UNet holding the weights of an exported boundary network (folded or named initialisers)."""
    try:
        m = onnx.load(path)
    except Exception as e:  # noqa: BLE001
        raise FineTuneError("BAD_BASE_NETWORK", f"base network {path} is not an ONNX file: {e}") from e
    inits = {i.name: numpy_helper.to_array(i) for i in m.graph.initializer}
    first_conv = next((n for n in m.graph.node if n.op_type == "Conv"), None)
    if first_conv is None or first_conv.input[1] not in inits:
        raise FineTuneError("BAD_BASE_NETWORK", f"base network {path} has no convolution weights")
    width = int(inits[first_conv.input[1]].shape[0])
    net = UNet(width=width)
    sd = net.state_dict()
    named = {k: inits["m." + k] for k in sd if "m." + k in inits}
    if len(named) == len([k for k in sd if not k.endswith("num_batches_tracked")]):
        new = {k: torch.from_numpy(np.array(v)) for k, v in named.items()}
    else:
        # folded export: the Conv nodes in graph order are the UNet's Conv2d modules in forward order
        convs = [(name, mod) for name, mod in net.named_modules() if isinstance(mod, torch.nn.Conv2d)]
        nodes = [n for n in m.graph.node if n.op_type == "Conv"]
        if len(nodes) != len(convs):
            raise FineTuneError("BAD_BASE_NETWORK", f"base network has {len(nodes)} convolutions, the U-Net {len(convs)}")
        new = {}
        for (name, mod), node in zip(convs, nodes):
            w = inits.get(node.input[1])
            b = inits.get(node.input[2]) if len(node.input) > 2 else None
            if w is None or tuple(w.shape) != tuple(mod.weight.shape):
                raise FineTuneError("BAD_BASE_NETWORK", f"convolution {name}: weights of shape {None if w is None else w.shape}, expected {tuple(mod.weight.shape)}")
            new[f"{name}.weight"] = torch.from_numpy(np.array(w))
            if mod.bias is not None:
                new[f"{name}.bias"] = torch.from_numpy(np.array(b if b is not None else np.zeros(w.shape[0], np.float32)))
            else:
                # Conv(bias=False) + BatchNorm: the BatchNorm carries the folded bias
                prefix, idx = name.rsplit(".", 1)
                bn = f"{prefix}.{int(idx) + 1}"
                eps = dict(net.named_modules())[bn].eps
                c = w.shape[0]
                new[f"{bn}.weight"] = torch.full((c,), float(np.sqrt(1 + eps)))
                new[f"{bn}.bias"] = torch.from_numpy(np.array(b if b is not None else np.zeros(c, np.float32)))
                new[f"{bn}.running_mean"] = torch.zeros(c)
                new[f"{bn}.running_var"] = torch.ones(c)
        for k in ("u3", "u2", "u1"):
            for p in ("weight", "bias"):
                key = f"m.{k}.{p}"
                if key not in inits:
                    raise FineTuneError("BAD_BASE_NETWORK", f"base network has no initialiser {key}")
                new[f"{k}.{p}"] = torch.from_numpy(np.array(inits[key]))
    for k, v in sd.items():
        if k.endswith("num_batches_tracked"):
            new[k] = v
        elif k not in new or tuple(new[k].shape) != tuple(v.shape):
            raise FineTuneError("BAD_BASE_NETWORK", f"base network does not fit the U-Net at {k}")
    net.load_state_dict({k: v.float() if v.is_floating_point() else v for k, v in new.items()})
    return net


def freeze_batchnorm(net: torch.nn.Module) -> None:
    for mod in net.modules():
        if isinstance(mod, torch.nn.BatchNorm2d):
            mod.eval()


# ---------------------------------------------------------------- the user's corrected images


class Corrected:
    """An image with its corrected mask: the 1-px boundary trace between the mask's grains and its mean intercept."""

    def __init__(self, id_: str, image_path: str, mask_path: str):
        self.id = id_
        try:
            self.image = read_image_rgb(image_path)  # a 16-bit micrograph stretched as the engine does, not clipped
        except Exception as e:  # noqa: BLE001
            raise FineTuneError("BAD_IMAGE", f"image {id_}: {image_path} cannot be read: {e}") from e
        try:
            # as the engine reads a mask (image.ts decodeMask): the first channel at its own depth (a 16-bit TIFF
            # is not reduced to 8 bits), any value above 0 is grain interior
            mask = read_mask(mask_path)
        except Exception as e:  # noqa: BLE001
            raise FineTuneError("BAD_MASK", f"mask of image {id_}: {mask_path} cannot be read: {e}") from e
        if mask.shape != self.image.shape[:2]:
            raise FineTuneError(
                "MASK_SIZE_MISMATCH",
                f"mask of image {id_} is {mask.shape[1]}×{mask.shape[0]} px, the image {self.image.shape[1]}×{self.image.shape[0]}",
            )
        self.boundary = mask_boundary(mask)
        self.weight = np.ones(mask.shape, np.float32)
        self.intercept = trace_intercept(self.boundary)


def mask_boundary(mask: np.ndarray) -> np.ndarray:
    """1-px trace where the mask's grains (4-connected interiors) meet when grown into the 0 pixels between them."""
    labels, n = ndimage.label(mask, structure=[[0, 1, 0], [1, 1, 1], [0, 1, 0]])
    if n == 0:
        return np.zeros(mask.shape, np.float32)
    _, (iy, ix) = ndimage.distance_transform_edt(labels == 0, return_indices=True)
    grown = labels[iy, ix]
    return synth.label_changes(grown).astype(np.float32)


def trace_intercept(trace: np.ndarray) -> float:
    """Mean lineal intercept (px) of a boundary trace along all rows and columns."""
    t = trace > 0.5
    crossings = length = 0
    for a in (t, t.T):
        crossings += int((a[:, 1:] & ~a[:, :-1]).sum() + a[:, 0].sum())
        length += a.size
    return length / max(crossings, 1)


# ---------------------------------------------------------------- batches


def user_item(rng: np.random.Generator, items: list[Corrected], size: int):
    """A crop of a corrected image at about the engine's working scale (its intercept near 32 px, jittered)."""
    a = items[rng.integers(len(items))]
    z = float(np.clip(TARGET_INTERCEPT_PX / max(a.intercept, 1.0), 0.25, 2.0)) * float(np.exp(rng.uniform(np.log(0.8), np.log(1.25))))
    src = int(np.ceil(size / z))
    h, w = a.boundary.shape
    y0 = int(rng.integers(0, max(h - src, 0) + 1))
    x0 = int(rng.integers(0, max(w - src, 0) + 1))
    img, tr, wt = crop_zoom(a.image, a.boundary, a.weight, y0, x0, src, size)
    # mild photometric jitter only: the user's material keeps its look
    img = (img - 128) * rng.uniform(0.9, 1.1) + 128 + rng.uniform(-8, 8)
    img = img + rng.normal(0, rng.uniform(0, 3), img.shape)
    return np.clip(img, 0, 255).astype(np.uint8), tr, np.zeros_like(tr), wt, 0.0


def mixed_batches(base_batches, rng: np.random.Generator, items: list[Corrected], size: int, user_share: float):
    """A batch function: each item from the user's images with probability user_share, else from the base data
    (train.py's `Batches.draw`); turned, mirrored and assembled as the base training's batches (batches.assemble)."""

    def draw():
        return user_item(rng, items, size) if rng.random() < user_share else base_batches.draw()

    return lambda n: assemble(rng, n, draw, base_batches.input_scale)


# ---------------------------------------------------------------- the run


def read_manifest(path: str) -> dict:
    try:
        with open(path) as f:
            m = json.load(f)
    except Exception as e:  # noqa: BLE001
        raise FineTuneError("BAD_MANIFEST", f"manifest {path} cannot be read: {e}") from e
    for k in ("base", "images", "steps", "seed", "out"):
        if k not in m:
            raise FineTuneError("BAD_MANIFEST", f"manifest has no {k}")
    if not isinstance(m["steps"], int) or m["steps"] < 1:
        raise FineTuneError("BAD_MANIFEST", "steps must be a positive integer")
    if not os.path.isfile(m["base"]):
        raise FineTuneError("BAD_BASE_NETWORK", f"base network {m['base']} does not exist")
    train_imgs = [i for i in m["images"] if not i.get("holdout")]
    if not train_imgs:
        raise FineTuneError("NO_TRAINING_IMAGES", "no image to train on (every image is held out)")
    return m


def run(manifest_path: str, device_arg: str, threads: int, pipeline) -> None:
    """`pipeline`: train.py's pieces (Batches, export, loss_fn, seed_all), the same as the base training uses."""
    from .data import load_tbm

    Batches, export, loss_fn, seed_all = pipeline.Batches, pipeline.export, pipeline.loss_fn, pipeline.seed_all

    t_start = time.time()
    started = dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")
    m = read_manifest(manifest_path)
    emit({"type": "started"})
    # every core this process may use unless told (PyTorch may start with one thread)
    torch.set_num_threads(threads or len(os.sched_getaffinity(0)))
    device = torch.device("cuda" if device_arg == "auto" and torch.cuda.is_available() else "cpu")
    steps, seed = int(m["steps"]), int(m["seed"])
    batch, size = int(m.get("batch", 8)), int(m.get("size", 128))
    lr = float(m.get("lr", 1e-3))
    user_share, real_share = float(m.get("userShare", 0.5)), float(m.get("realShare", 0.3))
    seed_all(seed)
    rng = np.random.default_rng(seed)

    train_items = [Corrected(i["id"], i["image"], i["mask"]) for i in m["images"] if not i.get("holdout")]
    holdout_ids = [i["id"] for i in m["images"] if i.get("holdout")]
    shared = m.get("shared")
    tbm_dir = os.path.join(shared, "training", "tbm") if shared else None
    real = load_tbm(tbm_dir) if tbm_dir and os.path.isdir(tbm_dir) else []
    emit({"type": "log", "message": f"{len(train_items)} corrected images, {len(holdout_ids)} held out; base data: synthetic + {len(real)} annotated TBM images; device {device}"})

    base_sha = hashlib.sha256(open(m["base"], "rb").read()).hexdigest()
    net = load_onnx_weights(m["base"]).to(device)
    net.train()
    freeze_batchnorm(net)
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.1)
    # a base trained with a fixed input scale is fine-tuned as it was trained (its contrast and shift jitter too)
    scale = input_scale_of(onnx.load(m["base"]))
    base = Batches(rng, size, real, real_share, input_scale=scale)
    batches = mixed_batches(base, rng, train_items, size, user_share)

    t0 = time.time()
    run_loss = 0.0
    every = max(1, int(m.get("progressEvery", 1)))
    for step in range(1, steps + 1):
        x, tb, tt, wb, wt = (t.to(device) for t in batches(batch))
        loss = loss_fn(net(x), tb, tt, wb, wt)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        run_loss = 0.9 * run_loss + 0.1 * loss.item() if step > 1 else loss.item()
        if step % every == 0 or step == steps:
            el = time.time() - t0
            emit({"type": "progress", "step": step, "steps": steps, "loss": round(run_loss, 5), "elapsedS": round(el, 2), "etaS": round(el / step * (steps - step), 2)})

    out_dir = m["out"]
    os.makedirs(out_dir, exist_ok=True)
    net_path = os.path.join(out_dir, "network.onnx")
    export(net, net_path, scale)
    digest = hashlib.sha256(open(net_path, "rb").read()).hexdigest()
    card = {
        "name": "grain-boundaries",
        "file": "network.onnx",
        "sha256": digest,
        "kind": "fine-tune",
        "baseVersion": m.get("baseVersion"),
        "candidateVersion": m.get("candidateVersion"),
        "baseNetworkSha256": base_sha,
        "trained": started,
        "trainingSeconds": round(time.time() - t_start, 1),
        # CPU time of every thread: on a shared, loaded machine the wall time says little about the effort
        "cpuSeconds": round(time.process_time(), 1),
        "device": "cuda" if device.type == "cuda" else f"cpu ({torch.get_num_threads()} threads)",
        "torch": torch.__version__,
        "architecture": f"U-Net, 4 levels, width {net.e1[0].out_channels}, {sum(p.numel() for p in net.parameters())} parameters, BatchNorm (frozen statistics in the fine-tune), sigmoid outputs",
        "inputScale": scale,
        "parameters": {"steps": steps, "seed": seed, "batch": batch, "size": size, "lr": lr, "userShare": user_share, "realShare": real_share},
        "images": {"trainedOn": [a.id for a in train_items], "count": len(train_items), "heldOut": holdout_ids},
        "data": [
            {"source": "the corrected segmentations of the images above (grain interiors 255, boundaries 0): the boundary where their grains meet", "share": user_share},
            {"source": "base data: synthetic, domain-randomised micrographs (training/lamella_train/synth.py)" + (f" and the annotated TBM tiles ({len(real)} images)" if real else ""), "share": round(1 - user_share, 3)},
        ],
        "finalLoss": round(run_loss, 5),
    }
    with open(os.path.join(out_dir, "card.json"), "w") as f:
        json.dump(card, f, indent=2, ensure_ascii=False)
        f.write("\n")
    emit({"type": "done", "network": net_path, "card": card})


def main(manifest_path: str, device_arg: str, threads: int, pipeline) -> int:
    try:
        run(manifest_path, device_arg, threads, pipeline)
        return 0
    except FineTuneError as e:
        emit({"type": "error", "code": e.code, "message": str(e)})
        return 2
