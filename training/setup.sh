#!/usr/bin/env bash
# Installs what the training pipeline needs, from Debian's packages only (no PyPI): PyTorch, ONNX, NumPy, SciPy,
# scikit-image, Pillow. Not part of `npm ci`: the product runs the exported ONNX file with onnxruntime-node.
set -euo pipefail
PY=/usr/bin/python3
if "$PY" -c 'import torch, onnx, numpy, scipy, skimage, PIL' 2>/dev/null; then
  echo "training: Python packages present"
  exit 0
fi
echo "training: installing Debian's python3-torch, python3-onnx, python3-numpy, python3-scipy, python3-skimage, python3-pil"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-torch python3-onnx python3-numpy python3-scipy python3-skimage python3-pil >/dev/null
"$PY" -c 'import torch, onnx, numpy, scipy, skimage, PIL; print("training: torch", torch.__version__)'
