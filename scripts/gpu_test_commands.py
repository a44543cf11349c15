#!/usr/bin/env python3
"""Lists how to run every GPU test of a configured build (every ctest test labelled gpu), for
gpu-check.sh's sanitize stage, which runs them under compute-sanitizer: one line per executable,
tab-separated, so no test can be missed and no list of tests is kept by hand.

    gtest   <tests> <binary name> <working dir> <binary>   a GoogleTest binary: run it whole, sharded
                                                           by GTEST_TOTAL_SHARDS / GTEST_SHARD_INDEX
    command 1       <test name>   <working dir> <command>  any other GPU test: its command, quoted

    python3 scripts/gpu_test_commands.py --build-dir build-gpu [--ctest ctest] [--exclude-label multigpu]

--exclude-label leaves out the tests with that label (ctest -LE): gpu-check.sh's sanitize stage
leaves out the multigpu tests, which its dist stage sanitizes on its own.
"""
import argparse
import json
import os
import shlex
import subprocess
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build-dir", required=True)
    parser.add_argument("--ctest", default="ctest")
    parser.add_argument("--exclude-label", default="", help="leave out tests with this label (ctest -LE)")
    args = parser.parse_args()
    command = [args.ctest, "--show-only=json-v1", "--test-dir", args.build_dir, "-L", "gpu"]
    if args.exclude_label:
        command += ["-LE", args.exclude_label]
    try:
        out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
        tests = json.loads(out).get("tests", [])
    except (OSError, ValueError, subprocess.CalledProcessError) as e:
        print(f"gpu_test_commands: cannot read the test list of {args.build_dir}: {e}", file=sys.stderr)
        return 2
    binaries = {}  # path -> [test count, working dir], in ctest's order
    others = []
    for test in tests:
        command = test.get("command") or []
        workdir = next((p.get("value") for p in test.get("properties", []) if p.get("name") == "WORKING_DIRECTORY"),
                       args.build_dir)
        if command and any(a.startswith("--gtest_filter=") for a in command[1:]):
            entry = binaries.setdefault(command[0], [0, workdir])
            entry[0] += 1
        elif command:
            others.append((test.get("name", "?"), workdir, shlex.join(command)))
    for path, (count, workdir) in binaries.items():
        print(f"gtest\t{count}\t{os.path.basename(path)}\t{workdir}\t{shlex.quote(path)}")
    for name, workdir, command in others:
        print(f"command\t1\t{name}\t{workdir}\t{command}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
