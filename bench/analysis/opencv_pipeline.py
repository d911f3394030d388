#!/usr/bin/env python3
"""Native OpenCV (python3-opencv) version of each Lamella analysis pipeline, for speed comparison.

usage: opencv_pipeline.py <model> <image> [repeats]   -> prints {"model", "medianMs", "times"} as JSON
Runs on one core (cv2.setNumThreads(1)). Mirrors packages/analysis step by step: decode, data-strip and
bar search, segmentation, the measurement loops, and the overlay image the model returns (blend + PNG
encode at compression 1, as the Node side does). OCR of the scale-bar label is not included (tesseract is
not available natively here); speed.ts reports the Node side's OCR time separately.
Also reports the CPU time (time.process_time) of each run next to the wall time.
"""
import json, sys, time
import numpy as np
import cv2

cv2.setNumThreads(1)


def overlay_png(g, layers):
    """Grey -> RGB with colour layers alpha-blended where each mask is set, PNG-encoded (compression 1)."""
    out = cv2.cvtColor(g, cv2.COLOR_GRAY2BGR)
    for mask, (r, gg, b), a in layers:
        sel = mask.astype(bool)
        for ch, c in ((2, r), (1, gg), (0, b)):
            lut = np.round(np.arange(256) * (1 - a) + c * a).astype(np.uint8)
            plane = out[:, :, ch]
            plane[sel] = lut[plane[sel]]
    ok, buf = cv2.imencode(".png", out, [cv2.IMWRITE_PNG_COMPRESSION, 1])
    return len(buf)


def otsu_mid(vals):
    t0, _ = cv2.threshold(vals, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    lo = np.median(vals[vals <= t0]) if (vals <= t0).any() else 0
    hi = np.median(vals[vals > t0]) if (vals > t0).any() else 255
    return t0, (lo + hi) / 2


def porosity(g0):
    g = cv2.medianBlur(g0, 3)
    h, w = g.shape
    s = max(1, round(max(w, h) / 64))
    small = cv2.resize(g, (max(1, round(w / s)), max(1, round(h / s))), interpolation=cv2.INTER_AREA)
    bg = cv2.resize(cv2.GaussianBlur(small, (0, 0), 3), (w, h), interpolation=cv2.INTER_LINEAR)
    flat = np.clip(g.astype(np.float32) * bg.mean() / np.maximum(bg, 1), 0, 255).astype(np.uint8)
    _, t = otsu_mid(flat)
    m = (flat <= t).astype(np.uint8)
    n, lab, stats, _ = cv2.connectedComponentsWithStats(m, connectivity=8)
    keep = stats[1:, 4] >= 3
    clean = np.concatenate([[False], keep])[lab]
    eqd = 2 * np.sqrt(stats[1:, 4][keep] / np.pi)
    png = overlay_png(g0, [(clean, (0, 204, 255), 0.6)])
    return {"poreCount": int(keep.sum()), "areaFraction": float(stats[1:, 4][keep].sum() / m.size), "maxEqd": float(eqd.max()) if len(eqd) else 0, "png": png}


def grain(g0):
    g = cv2.GaussianBlur(g0, (0, 0), 1.2)
    resp = cv2.morphologyEx(g, cv2.MORPH_BLACKHAT, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (11, 11)), borderType=cv2.BORDER_REPLICATE)
    _, t = otsu_mid(resp)
    interior = np.where(resp > max(3, t), 0, 255).astype(np.uint8)
    dist = cv2.distanceTransform(interior, cv2.DIST_L2, 5)
    levels = []
    l = 2
    while l <= dist.max():
        levels.append(l)
        l = l + 1 if l < 6 else round(l * 1.25)
    n, S = cv2.connectedComponents((dist >= levels[0]).astype(np.uint8), connectivity=8)
    nxt = n
    for L in levels[1:]:
        c, lab, st, _ = cv2.connectedComponentsWithStats((dist >= L).astype(np.uint8), connectivity=8)
        if c < 2:
            break
        # parent of each child component, count children per parent
        idx = np.flatnonzero(lab.ravel())
        first = np.full(c, -1)
        first[lab.ravel()[idx][::-1]] = idx[::-1]
        parent = S.ravel()[first[1:]]
        good = st[1:, 4] >= 6
        cnt = np.bincount(parent[good], minlength=S.max() + 1)
        split = np.flatnonzero(cnt >= 2)
        if not len(split):
            continue
        newl = np.zeros(c, np.int32)
        sel = np.flatnonzero(np.isin(parent, split) & good) + 1
        newl[sel] = np.arange(nxt, nxt + len(sel))
        nxt += len(sel)
        msk = np.isin(S, split)
        S[msk] = newl[lab[msk]]
    markers = S.astype(np.int32)
    ws = cv2.watershed(cv2.cvtColor(resp, cv2.COLOR_GRAY2BGR), markers)
    # Jeffries + intercepts
    labels = np.unique(ws)
    hits = 0
    for row in ws[::8]:
        r = row[row > 0]
        hits += int((np.diff(r) != 0).sum())
    for col in ws.T[::8]:
        c = col[col > 0]
        hits += int((np.diff(c) != 0).sum())
    border = np.unique(np.concatenate([ws[:3].ravel(), ws[-3:].ravel(), ws[:, :3].ravel(), ws[:, -3:].ravel()]))
    area = np.bincount(np.maximum(ws, 0).ravel())
    # overlay: watershed lines and label changes to the right / below
    lines = ws <= 0
    lines[:, :-1] |= (ws[:, 1:] != ws[:, :-1]) & (ws[:, 1:] > 0)
    lines[:-1, :] |= (ws[1:, :] != ws[:-1, :]) & (ws[1:, :] > 0)
    png = overlay_png(g0, [(lines, (255, 26, 26), 0.9)])
    return {"grains": int((labels > 0).sum()), "border": int((border > 0).sum()), "hits": hits, "maxArea": int(area[1:].max()), "png": png}


def layer(g0):
    g = cv2.GaussianBlur(g0, (0, 0), 2)
    t1, _ = cv2.threshold(g, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    up = g[g > t1]
    t2, _ = cv2.threshold(up.reshape(-1, 1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    sub = np.median(g[(g > t1) & (g <= t2)]); coat = np.median(g[g > t2])
    m = (g > (sub + coat) / 2).astype(np.uint8)
    k7 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7)); k5 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    m = cv2.morphologyEx(cv2.morphologyEx(m, cv2.MORPH_CLOSE, k7), cv2.MORPH_OPEN, k5)
    n, lab, st, _ = cv2.connectedComponentsWithStats(m, connectivity=8)
    best = 1 + int(np.argmax(st[1:, 4]))
    c = lab == best
    has = c.any(axis=0)
    top = np.argmax(c, axis=0); bot = c.shape[0] - 1 - np.argmax(c[::-1], axis=0)
    t = (bot - top + 1)[has]
    resin = (~c) & (g < (np.median(g[g <= t1]) + sub) / 2)
    edges = np.zeros_like(m)
    xs = np.flatnonzero(has)
    edges[top[has], xs] = 1
    edges[bot[has], xs] = 1
    edges = cv2.dilate(edges, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3)))
    png = overlay_png(g0, [(resin, (255, 191, 0), 0.35), (c, (0, 204, 255), 0.35), (edges, (255, 0, 0), 1)])
    return {"mean": float(t.mean()), "min": float(t.min()), "max": float(t.max()), "png": png}


def cracks(g0):
    g = cv2.GaussianBlur(g0, (0, 0), 0.8)
    resp = cv2.morphologyEx(g, cv2.MORPH_BLACKHAT, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (15, 15)), borderType=cv2.BORDER_REPLICATE)
    p50, p90 = np.percentile(resp, [50, 90])
    _, mid = otsu_mid(resp)
    t = max(p90 + 2 * (p90 - p50 + 1), mid)
    m = (resp > t).astype(np.uint8)
    m = cv2.morphologyEx(m, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3)))
    n, lab, st, _ = cv2.connectedComponentsWithStats(m, connectivity=8)
    strong = max(t, p90 + 4 * (p90 - p50 + 1))
    keep = np.zeros(n, bool)
    keep[np.unique(lab[(m > 0) & (resp > strong)])] = True  # hysteresis: networks holding a strong pixel
    keep &= np.hypot(st[:, 2], st[:, 3]) >= max(12, round(min(g.shape) * 0.01))
    keep[0] = False
    m = keep[lab].astype(np.uint8) * 255
    sk = cv2.ximgproc.thinning(m, thinningType=cv2.ximgproc.THINNING_ZHANGSUEN) > 0
    right = np.zeros_like(sk); right[:, :-1] = sk[:, :-1] & sk[:, 1:]
    down = np.zeros_like(sk); down[:-1, :] = sk[:-1, :] & sk[1:, :]
    dr = np.zeros_like(sk); dr[:-1, :-1] = sk[:-1, :-1] & sk[1:, 1:]
    dl = np.zeros_like(sk); dl[:-1, 1:] = sk[:-1, 1:] & sk[1:, :-1]
    per = 0.948 * (right.astype(np.float32) + down) + 1.343 * (dr.astype(np.float32) + dl)
    length = np.bincount(lab.ravel(), weights=per.ravel(), minlength=n)
    area = np.bincount(lab.ravel(), weights=(m > 0).ravel(), minlength=n)
    skd = cv2.dilate(sk.astype(np.uint8), cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2, 2)))
    png = overlay_png(g0, [(m, (255, 0, 0), 0.45), (skd, (255, 255, 0), 1)])
    return {"count": int(keep.sum()), "length": float(length[keep].sum()), "area": float(area[keep].sum()), "png": png}


def strip_scale_bar(g):
    # bottom data strip + bar search (the OCR step has no native equivalent here)
    h, w = g.shape
    dark = (g < 50).mean(axis=1)
    y = h - 1
    while y > 0 and dark[y] > 0.35:
        y -= 1
    strip = g[y + 1:]
    bright = strip >= 190
    return g[: y + 1], int(bright.sum())


PIPE = {"porosity": porosity, "grain-size": grain, "layer-thickness": layer, "cracks": cracks}

if __name__ == "__main__":
    model, path = sys.argv[1], sys.argv[2]
    reps = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    data = np.fromfile(path, np.uint8)
    times, cpus = [], []
    out = None
    for _ in range(reps):
        t0, c0 = time.perf_counter(), time.process_time()
        g = cv2.imdecode(data, cv2.IMREAD_GRAYSCALE)
        g, _ = strip_scale_bar(g)
        out = PIPE[model](g)
        times.append((time.perf_counter() - t0) * 1000)
        cpus.append((time.process_time() - c0) * 1000)
    times.sort(); cpus.sort()
    print(json.dumps({"model": model, "medianMs": times[len(times) // 2], "medianCpuMs": cpus[len(cpus) // 2], "times": times, "result": out}))
