#!/usr/bin/env python3
"""Train the multi-class segmentation networks of the layer, crack and dark-phase models (issue 22 item 3).

    python3 training/train_classes.py --task coating            # EBC: background / oxide layer / crack → coating-classes.onnx
    python3 training/train_classes.py --task phase              # superalloy: matrix / dark phase (γ′) → dark-phase.onnx
    python3 training/train_classes.py --task coating --cv 4     # cross-validation by image (no export)
    python3 training/train_classes.py --task phase --smoke      # a few steps on tiny data, exported to /tmp

One thread by default (the machine is shared). Fixed seeds (Python, NumPy, PyTorch), one data order. The
cross-validation trains on the other folds' images and measures every held-out image with the product's
measurements (lamella_train/classes.py): oxide-layer mean thickness error %, crack count error %, dark-phase area
fraction error in points; per image and mean, printed and written to training/cv-classes.json (one entry per
task). The export writes the ONNX file (input `image` 1×3×H×W normalised per image and channel as the grain network,
output `probability` 1×C×H×W softmax) and its model card beside it.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import os
import random
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F
from scipy import ndimage

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from lamella_train import classes as C  # noqa: E402
from lamella_train.export import export_onnx  # noqa: E402
from lamella_train.model import UNet, normalise  # noqa: E402

REPO = os.path.dirname(HERE)
DEFAULT_SHARED = os.path.join(os.path.dirname(REPO), "shared")
MODELS = os.path.join(REPO, "packages", "analysis", "models")
CV_FILE = os.path.join(HERE, "cv-classes.json")


def seed_all(seed: int):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


class Batches:
    """Random crops of the training images (scale 0.7–1.4×, rot90, flips, brightness/contrast/gamma, blur, noise),
    and a share of synthetic images. Coating crops are centred on the oxide layer 70 % of the time, on a crack 30 %
    of those."""

    def __init__(self, rng, task: str, items: list[C.Item], size: int, synth_share: float):
        self.rng, self.task, self.items, self.size, self.synth_share = rng, task, items, size, synth_share
        self.where = []
        for it in items:
            self.where.append({c: np.argwhere(it.labels[::4, ::4] == c) * 4 for c in (1, 2)})

    def real_item(self):
        rng, size = self.rng, self.size
        k = int(rng.integers(len(self.items)))
        it = self.items[k]
        scale = float(np.exp(rng.uniform(np.log(0.7), np.log(1.4))))
        src = int(np.ceil(size / scale))
        h, w = it.labels.shape
        c = None
        if self.task == "coating" and rng.random() < 0.7:
            c = 2 if rng.random() < 0.3 and len(self.where[k][2]) else 1
        if c is not None and len(self.where[k][c]):
            cy, cx = self.where[k][c][rng.integers(len(self.where[k][c]))]
            y0 = int(np.clip(cy - rng.integers(src // 4, 3 * src // 4 + 1), 0, max(h - src, 0)))
            x0 = int(np.clip(cx - rng.integers(src // 4, 3 * src // 4 + 1), 0, max(w - src, 0)))
        else:
            y0, x0 = int(rng.integers(0, max(h - src, 0) + 1)), int(rng.integers(0, max(w - src, 0) + 1))
        img = it.image[y0 : y0 + src, x0 : x0 + src].astype(np.float32)
        lab = it.labels[y0 : y0 + src, x0 : x0 + src]
        if img.shape[0] < src or img.shape[1] < src:
            pad = ((0, src - img.shape[0]), (0, src - img.shape[1]))
            img = np.pad(img, pad + ((0, 0),), mode="reflect")
            lab = np.pad(lab, pad, mode="reflect")
        z = size / src
        img = ndimage.zoom(img, (z, z, 1), order=1)[:size, :size]
        lab = ndimage.zoom(lab, z, order=0)[:size, :size]
        return self.tone(img), lab

    def tone(self, img):
        rng = self.rng
        img = img / 255.0
        img = np.clip(img, 0, 1) ** float(np.exp(rng.uniform(-0.4, 0.4)))
        img = (img - 0.5) * rng.uniform(0.7, 1.3) + 0.5 + rng.uniform(-0.12, 0.12)
        img = img * 255
        if rng.random() < 0.4:
            img = ndimage.gaussian_filter(img, (rng.uniform(0.3, 1.0), rng.uniform(0.3, 1.0), 0))
        img = img + rng.normal(0, rng.uniform(0, 6), img.shape[:2])[..., None]
        return np.clip(img, 0, 255)

    def __call__(self, n: int):
        xs, ys = [], []
        for _ in range(n):
            if self.rng.random() < self.synth_share:
                img, lab = C.SYNTH[self.task](self.rng, self.size)
            else:
                img, lab = self.real_item()
            k = int(self.rng.integers(4))
            img, lab = np.rot90(img, k), np.rot90(lab, k)
            if self.rng.random() < 0.5:
                img, lab = img[:, ::-1], lab[:, ::-1]
            xs.append(normalise(np.ascontiguousarray(img).astype(np.uint8))[0])
            ys.append(torch.from_numpy(np.ascontiguousarray(lab).astype(np.int64)))
        return torch.stack(xs), torch.stack(ys)


def class_weights(items: list[C.Item], n_classes: int) -> torch.Tensor:
    """1/√frequency over the training labels, scaled to a pixel-weighted mean of 1; rare classes weigh more."""
    counts = np.zeros(n_classes)
    for it in items:
        counts += np.bincount(it.labels.ravel(), minlength=n_classes)[:n_classes]
    f = np.maximum(counts / counts.sum(), 1e-4)
    w = 1 / np.sqrt(f)
    w = w / (w * f).sum()
    return torch.tensor(w, dtype=torch.float32)


def loss_fn(logits, target, weights):
    """Class-weighted cross-entropy plus the mean soft Dice over every class, background included: a Dice on the
    foreground classes alone pays more for a missed pixel than for a false one and biases the areas up (it read
    the γ′ fraction 3 points high in a first cross-validation)."""
    ce = F.cross_entropy(logits, target, weight=weights)
    p = torch.softmax(logits, 1)
    dice = 0.0
    for c in range(logits.shape[1]):
        t = (target == c).float()
        dice = dice + 1 - (2 * (p[:, c] * t).sum() + 1) / (p[:, c].sum() + t.sum() + 1)
    return ce + dice / logits.shape[1]


def train(args, items: list[C.Item], log) -> UNet:
    seed_all(args.seed)
    rng = np.random.default_rng(args.seed)
    n_classes = len(C.TASKS[args.task]["classes"])
    net = UNet(cout=n_classes, width=args.width)
    weights = class_weights(items, n_classes)
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=args.steps, pct_start=0.1)
    batches = Batches(rng, args.task, items, args.size, args.synth_share)
    t0, run = time.time(), 0.0
    net.train()
    for step in range(1, args.steps + 1):
        x, y = batches(args.batch)
        loss = loss_fn(net(x), y, weights)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        run = 0.95 * run + 0.05 * loss.item() if step > 1 else loss.item()
        if step % args.log_every == 0 or step == args.steps:
            el = time.time() - t0
            log(f"  step {step}/{args.steps} loss {run:.4f} elapsed {el:.0f}s eta {el / step * (args.steps - step):.0f}s")
    return net


@torch.no_grad()
def probabilities(net: UNet, it: C.Item) -> np.ndarray:
    """C×H0×W0 class probabilities at full resolution: the network at the working scale, resampled bilinearly."""
    net.eval()
    img = it.image
    h, w = img.shape[:2]
    H, W = (h + 7) // 8 * 8, (w + 7) // 8 * 8
    x = F.pad(normalise(img), (0, W - w, 0, H - h), mode="reflect")
    p = torch.softmax(net(x), 1)[:, :, :h, :w]
    if p.shape[2:] != tuple(it.full_shape):
        p = F.interpolate(p, size=tuple(it.full_shape), mode="bilinear", align_corners=False)
    return p[0].numpy()


def predict_full(net: UNet, it: C.Item, threshold: float | None = None) -> np.ndarray:
    """Class map at full resolution: argmax, or (two classes) class 1 where its probability exceeds `threshold`."""
    p = probabilities(net, it)
    if threshold is not None and p.shape[0] == 2:
        return (p[1] > threshold).astype(np.uint8)
    return p.argmax(0).astype(np.uint8)


def calibrate(net: UNet, items: list[C.Item]) -> float:
    """The dark-phase decision threshold that gives the training images' labelled area in total (0.2–0.8): the
    network's area bias, measured on the images it trained on only, is taken out."""
    probs = np.concatenate([probabilities(net, it)[1].ravel() for it in items])
    target = sum(int((it.full_labels == 1).sum()) for it in items)
    t = float(np.sort(probs)[::-1][min(max(target, 1), probs.size) - 1])
    return float(np.clip(t, 0.2, 0.8))


def evaluate(task: str, net: UNet, items: list[C.Item], threshold: float | None = None) -> dict:
    out = {}
    for it in items:
        ref = C.measure(task, it.full_labels)
        pred = C.measure(task, predict_full(net, it))
        out[it.name] = {"reference": ref, "network": pred, "network_error": C.errors(task, pred, ref)}
        if threshold is not None:
            cal = C.measure(task, predict_full(net, it, threshold))
            out[it.name].update({"calibrated": cal, "calibrated_error": C.errors(task, cal, ref), "threshold": round(threshold, 4)})
    return out


def summarise(task: str, per: dict, key: str) -> dict:
    names = ["thicknessErrorPercent", "crackCountErrorPercent"] if task == "coating" else ["darkPhaseErrorPoints"]
    s = {}
    for n in names:
        v = [p[key][n] for p in per.values() if p.get(key) and p[key].get(n) is not None]
        missing = sum(1 for p in per.values() if not p.get(key) or p[key].get(n) is None)
        s[n] = {"mean": round(float(np.mean(v)), 2) if v else None, "max": round(float(np.max(v)), 2) if v else None, "failed": missing}
    return s


def score_default(task: str, items: list[C.Item], path: str, log):
    """The product's default segmentation (measured by bench/analysis/classes-default.ts at 1 µm/px) against the
    hand labels, per image; a model that refuses the image (NO_LAYER_FOUND, NOT_CRACK_LIKE) counts as failed."""
    raw = json.load(open(path))[task]
    per = {}
    for it in items:
        r = raw["images"].get(it.name, {})
        ref = C.measure(task, it.full_labels)
        if task == "coating":
            pred = {"thicknessPx": r.get("meanThicknessUm"), "crackCount": r.get("crackCount")}
        else:
            pred = {"darkPhasePercent": r.get("areaFractionPercent")}
        pred = {k: (round(v, 2) if isinstance(v, float) else v) for k, v in pred.items()}
        errs = {k: v for k, v in r.items() if k.endswith("Error")}
        per[it.name] = {"reference": ref, "default": pred, "default_error": C.errors(task, pred, ref), **({"refused": errs} if errs else {})}
        log(f"  {it.name}: {json.dumps(per[it.name], ensure_ascii=False)}")
    allcv = json.load(open(CV_FILE)) if os.path.exists(CV_FILE) else {}
    entry = allcv.setdefault(task, {"task": task})
    entry["defaultMeasuredWith"] = f"bench/analysis/classes-default.ts, model version {raw.get('version')}, no recipe, no mask, 1 µm/px"
    entry["default"] = {"images": per, "summary": summarise(task, per, "default_error")}
    with open(CV_FILE, "w") as f:
        json.dump(allcv, f, indent=2, ensure_ascii=False)
        f.write("\n")
    log("default segmentation: " + json.dumps(entry["default"]["summary"]))


def export(net: UNet, path: str):
    export_onnx(net, path, "softmax")


def add_cv(card: dict, task: str):
    """The cross-validation by image (training/cv-classes.json) into a model card: the network's figures per
    held-out image and their summary, and the product's default segmentation on the same images."""
    if not os.path.exists(CV_FILE):
        return
    cv = json.load(open(CV_FILE)).get(task)
    if not cv or "network" not in cv:
        return
    out = {k: cv[k] for k in ("folds", "foldsHeldOut", "parameters", "network", "calibrated") if k in cv}
    out["images"] = {
        k: {kk: v[kk] for kk in ("reference", "network", "network_error", "calibrated", "calibrated_error", "threshold") if kk in v}
        for k, v in cv["images"].items()
    }
    if "default" in cv:
        out["defaultSegmentation"] = {"measuredWith": cv.get("defaultMeasuredWith"), "summary": cv["default"]["summary"]}
    card["metrics"]["crossValidationByImage"] = out


def write_card(card: dict, path: str):
    with open(path, "w") as f:
        json.dump(card, f, indent=2, ensure_ascii=False)
        f.write("\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--task", choices=sorted(C.TASKS), required=True)
    ap.add_argument("--shared", default=os.environ.get("LAMELLA_SHARED", DEFAULT_SHARED), help="the shared/ folder")
    ap.add_argument("--out", default=None, help="ONNX file to write (default packages/analysis/models/<task file>)")
    ap.add_argument("--steps", type=int, default=400)
    ap.add_argument("--batch", type=int, default=6)
    ap.add_argument("--size", type=int, default=128, help="training crop size (px, multiple of 8)")
    ap.add_argument("--width", type=int, default=8, help="channels of the first U-Net level")
    ap.add_argument("--lr", type=float, default=4e-3)
    ap.add_argument("--synth-share", type=float, default=0.2, help="share of a batch from synthetic images")
    ap.add_argument("--seed", type=int, default=20261202)
    ap.add_argument("--threads", type=int, default=1, help="CPU threads (the machine is shared: 1 by default)")
    ap.add_argument("--cv", type=int, default=0, help="K-fold cross-validation by image (no export)")
    ap.add_argument("--scale", type=float, default=0, help="working scale other than the task's (an experiment: the figures are printed, not written)")
    ap.add_argument("--fold", type=int, default=0, help="with --cv: run only this fold (1-based; printed, not written)")
    ap.add_argument("--smoke", action="store_true", help="a few steps on tiny data, export to a temporary file")
    ap.add_argument("--log-every", type=int, default=50)
    ap.add_argument("--default-from", metavar="JSON", help="score the product's default segmentation (bench/analysis/classes-default.ts output) against the labels into cv-classes.json, then exit")
    ap.add_argument("--refresh-card", action="store_true", help="put the current cv-classes.json figures into the model card of --out (the network is unchanged), then exit")
    args = ap.parse_args()
    torch.set_num_threads(max(1, args.threads))
    spec = C.TASKS[args.task]
    if args.scale:
        spec["scale"] = args.scale
    if args.out is None:
        args.out = os.path.join(MODELS, spec["file"])
    if args.smoke:
        args.steps, args.batch, args.size, args.width, args.log_every = 3, 2, 64, 4, 1
        args.out = os.path.join("/tmp", f"lamella-smoke-{args.task}-{os.getpid()}.onnx")
    log = lambda s: print(s, flush=True)  # noqa: E731
    if args.refresh_card:
        card_path = os.path.splitext(args.out)[0] + ".card.json"
        card = json.load(open(card_path))
        if card["sha256"] != hashlib.sha256(open(args.out, "rb").read()).hexdigest():
            sys.exit(f"{args.out} is not the network of {card_path}")
        add_cv(card, args.task)
        write_card(card, card_path)
        log(f"updated {card_path}")
        return
    items = C.load(args.shared, args.task)
    if args.smoke:
        items = items[:3]
        for it in items:  # tiny data: a 128-px corner of each image
            s = int(round(128 * spec["scale"]))
            it.image, it.labels = it.image[:s, :s], it.labels[:s, :s]
            it.full_labels = it.full_labels[:128, :128]
            it.full_shape = it.full_labels.shape
    log(f"{args.task}: {len(items)} annotated images; torch {torch.__version__}, {torch.get_num_threads()} thread(s)")

    if args.default_from:
        score_default(args.task, items, args.default_from, log)
        return

    if args.cv:
        per = {}
        t0 = time.time()
        for i, held in enumerate(C.folds(items, args.cv)):
            if args.fold and i + 1 != args.fold:
                continue
            log(f"fold {i + 1}/{args.cv}: held out {held}")
            trained = [a for a in items if a.name not in held]
            net = train(args, trained, log)
            threshold = calibrate(net, trained) if args.task == "phase" else None
            ev = evaluate(args.task, net, [a for a in items if a.name in held], threshold)
            for k, v in ev.items():
                log(f"  {k}: {json.dumps(v)}")
            per.update(ev)
        result = {
            "task": args.task,
            "classes": spec["classes"],
            "folds": args.cv,
            "foldsHeldOut": C.folds(items, args.cv),
            "parameters": {k: getattr(args, k) for k in ("steps", "batch", "size", "width", "lr", "synth_share", "seed")},
            "trainingSeconds": round(time.time() - t0),
            "images": per,
            "network": summarise(args.task, per, "network_error"),
        }
        if args.task == "phase":
            result["calibrated"] = summarise(args.task, per, "calibrated_error")
        log("cross-validation: " + json.dumps({k: result[k] for k in ("network", "calibrated") if k in result}))
        if not (args.smoke or args.fold or args.scale):
            allcv = json.load(open(CV_FILE)) if os.path.exists(CV_FILE) else {}
            # keep the default-segmentation figures measured by bench (cv-baseline) when present
            old = allcv.get(args.task, {})
            for k in ("default", "defaultMeasuredWith"):
                if k in old:
                    result[k] = old[k]
            allcv[args.task] = result
            with open(CV_FILE, "w") as f:
                json.dump(allcv, f, indent=2, ensure_ascii=False)
                f.write("\n")
        return

    started = dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")
    t0 = time.time()
    net = train(args, items, log)
    seconds = time.time() - t0
    threshold = calibrate(net, items) if args.task == "phase" else None
    train_eval = evaluate(args.task, net, items, threshold)
    export(net, args.out)
    digest = hashlib.sha256(open(args.out, "rb").read()).hexdigest()
    params = sum(p.numel() for p in net.parameters())
    card = {
        "name": os.path.splitext(os.path.basename(spec["file"]))[0],
        "file": os.path.basename(args.out),
        "sha256": digest,
        "trained": started,
        "trainingSeconds": round(seconds),
        "device": f"cpu ({torch.get_num_threads()} thread(s))",
        "torch": torch.__version__,
        "architecture": f"U-Net, 4 levels, width {args.width}, {params} parameters, BatchNorm, softmax outputs",
        "input": "1×3×H×W float32, RGB normalised per image and channel: (x/255 − mean) / max(std, 0.02); H, W multiples of 8",
        "outputs": spec["classes"],
        "workingScale": spec["scale"],
        "decision": "argmax of the class probabilities"
        if threshold is None
        else "dark phase where its probability exceeds decisionThreshold (calibrated on the training images: their labelled area in total)",
        **({} if threshold is None else {"decisionThreshold": round(threshold, 4)}),
        "trainedFor": (
            "SEM cross-sections of a coating with a grown oxide layer and cracks across it; the network runs at half the "
            "resolution of the 1024² training images (oxide 40–150 px thick, cracks 1–3 px wide there)"
            if args.task == "coating"
            else "SEM images of a two-phase structure with a darker precipitate phase (γ′ in Ni superalloys), precipitates 3–150 px across"
        ),
        "parameters": {k: getattr(args, k) for k in ("steps", "batch", "size", "width", "lr", "synth_share", "seed")},
        "data": [
            {
                "source": f"{spec['source']}: ../shared/training/{spec['folder']} ({len(items)} images: " + ", ".join(a.name for a in items) + ")",
                "origin": "nasa/pretrained-microscopy-models@f50b568",
                "licence": "MIT (\"All data contained in this repository are licensed under the MIT license\")",
                "labels": "hand annotations of the source"
                + ("" if args.task == "coating" else "; secondary and tertiary γ′ merged into one dark-phase class"),
            },
            {"source": "synthetic images with exact labels (training/lamella_train/classes.py)", "licence": "ours", "share": args.synth_share},
        ],
        "split": "all annotated images of the task are trained on; cross-validation by image (train_classes.py --cv) holds out whole images; ../shared/real and ../shared/samples are never trained on",
        "metrics": {"trainingImages": summarise(args.task, train_eval, "network_error" if threshold is None else "calibrated_error")},
    }
    add_cv(card, args.task)
    card_path = os.path.splitext(args.out)[0] + ".card.json"
    write_card(card, card_path)
    log(f"wrote {args.out} ({os.path.getsize(args.out)} bytes, sha256 {digest[:12]}) and {card_path}")
    log("metrics: " + json.dumps(card["metrics"], ensure_ascii=False))


if __name__ == "__main__":
    main()
