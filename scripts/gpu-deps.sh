#!/usr/bin/env bash
# Copies RapidCheck (headers, static library, CMake package) from this machine into .deps/rapidcheck,
# so a GPU machine without it (nothing can be installed there) can build the property tests. .deps/ is
# git-ignored; hand it to the GPU machine with the working tree (the device tool's `carry`).
set -euo pipefail
cd "$(dirname "$0")/.."
cfg=$(dpkg -L librapidcheck-dev 2>/dev/null | grep -m1 'cmake/rapidcheck$' || true)
if [ -z "$cfg" ]; then
  echo "gpu-deps: librapidcheck-dev is not installed here (apt-get install librapidcheck-dev)" >&2
  exit 1
fi
libdir=$(dirname "$(dirname "$cfg")")           # .../lib/x86_64-linux-gnu
prefix=$(dirname "$(dirname "$libdir")")         # /usr
rel=${libdir#"$prefix"/}                         # lib/x86_64-linux-gnu
rm -rf .deps/rapidcheck
mkdir -p ".deps/rapidcheck/include" ".deps/rapidcheck/$rel/cmake"
cp -r "$prefix/include/rapidcheck" "$prefix/include/rapidcheck.h" .deps/rapidcheck/include/
cp "$libdir/librapidcheck.a" ".deps/rapidcheck/$rel/"
cp -r "$cfg" ".deps/rapidcheck/$rel/cmake/"
echo "gpu-deps: RapidCheck copied to .deps/rapidcheck ($(du -sh .deps/rapidcheck | cut -f1))"
