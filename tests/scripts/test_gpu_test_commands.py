#!/usr/bin/env python3
"""scripts/gpu_test_commands.py on this build: the executables it lists for the sanitize stage cover
every test labelled gpu (their counts add up to `ctest -N -L gpu`), and every binary the build
declares with the gpu label is among them. Run by ctest as sanitize_stage_lists_every_gpu_test:

    python3 tests/scripts/test_gpu_test_commands.py --build-dir BUILD --binaries BUILD/gpuprims-test-binaries.json
        [--ctest ctest]
"""
import argparse
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
LISTER = os.path.join(HERE, "..", "..", "scripts", "gpu_test_commands.py")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build-dir", required=True)
    parser.add_argument("--binaries", required=True)
    parser.add_argument("--ctest", default="ctest")
    args = parser.parse_args()
    listed = subprocess.run([sys.executable, LISTER, "--build-dir", args.build_dir, "--ctest", args.ctest],
                            check=True, capture_output=True, text=True).stdout.splitlines()
    rows = [line.split("\t") for line in listed]
    covered = sum(int(r[1]) for r in rows)
    out = subprocess.run([args.ctest, "-N", "-L", "gpu", "--test-dir", args.build_dir],
                         check=True, capture_output=True, text=True).stdout
    total = int(re.search(r"Total Tests: (\d+)", out).group(1))
    with open(args.binaries) as f:
        gpu_binaries = [b["name"] for b in json.load(f)["binaries"] if "gpu" in b["labels"].split(",")]
    names = {r[2] for r in rows if r[0] == "gtest"}
    problems = []
    if covered != total:
        problems.append(f"the listed executables cover {covered} tests, ctest -L gpu has {total}")
    problems += [f"GPU test binary {b} is not listed" for b in gpu_binaries if b not in names]
    for line in listed:
        print(line)
    for p in problems:
        print(f"FAIL: {p}")
    if not problems:
        print(f"ok: {len(rows)} executables cover all {total} GPU tests")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
