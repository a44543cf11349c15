#!/usr/bin/env bash
# Writes a CTest resource specification (format 1.0) with one "gpus" resource per GPU this machine's
# processes can see, for `ctest -j N --resource-spec-file FILE`: every GPU test holds
# RESOURCE_GROUPS "gpus:1", so ctest spreads them over the GPUs and never runs more than SLOTS at
# once on one GPU (SLOTS 1: one test per GPU at a time). Each test process then sees only its GPU
# (tests/support/test_main.cpp and run_on_assigned_gpus.cmake read the assignment).
#
#   scripts/gpu-resource-spec.sh [--slots N] [--out FILE]      (the JSON goes to stdout without --out)
#   ctest --test-dir build -L gpu -j 8 --resource-spec-file FILE
#
# The ids are the device numbers CUDA will give the tests: 0..n-1 over the entries of
# CUDA_VISIBLE_DEVICES when it is set (a runner that hands the job some of its GPUs), else over every
# GPU `nvidia-smi -L` lists. MIG: set CUDA_VISIBLE_DEVICES to the MIG device UUIDs to use.
set -euo pipefail
slots=1
out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --slots) slots="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    -h | --help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "gpu-resource-spec: unknown option $1" >&2; exit 64 ;;
  esac
done
[[ "$slots" =~ ^[1-9][0-9]*$ ]] || { echo "gpu-resource-spec: --slots takes a positive integer" >&2; exit 64; }

if [ -n "${CUDA_VISIBLE_DEVICES+set}" ]; then
  # CUDA stops at the first entry that names no device; "-1" (or "") hides them all.
  IFS=, read -r -a visible <<<"${CUDA_VISIBLE_DEVICES}"
  count=0
  for v in "${visible[@]}"; do
    [[ -z "$v" || "$v" == -* ]] && break
    count=$((count + 1))
  done
else
  count=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ' || true)
fi
if [ "${count:-0}" -eq 0 ]; then
  echo "gpu-resource-spec: no GPU visible (nvidia-smi -L lists none, or CUDA_VISIBLE_DEVICES hides them)" >&2
  exit 2
fi

gpus=""
for ((i = 0; i < count; i++)); do
  gpus+="${gpus:+,}"$'\n'"        {\"id\": \"$i\", \"slots\": $slots}"
done
spec=$(printf '{\n  "version": {"major": 1, "minor": 0},\n  "local": [\n    {\n      "gpus": [%s\n      ]\n    }\n  ]\n}\n' "$gpus")
if [ -n "$out" ]; then
  printf '%s\n' "$spec" >"$out"
  echo "gpu-resource-spec: $count GPU(s), $slots slot(s) each -> $out" >&2
else
  printf '%s\n' "$spec"
fi
