#!/usr/bin/env python3
"""The label check: reads a configured build's test list from ctest and fails when a label does not
mean what it says.

  - every test has exactly one of the labels cpu and gpu, and no label outside the vocabulary;
  - every test discovered from a test binary has exactly the labels its binary declares
    (tests/CMakeLists.txt writes them to gpuprims-test-binaries.json), and every declared binary has
    tests (a binary that was not built or whose discovery failed has none);
  - a gpu test holds a GPU resource group (two for multigpu, which also needs gpu); a cpu test none.

ctest runs it as the test test_labels_match_their_binaries. By hand:

    python3 tests/support/check_test_labels.py --build-dir build-test \\
        [--binaries build-test/gpuprims-test-binaries.json] [--ctest ctest]

Prints the number of tests per label; exits 1 listing every problem, 2 when ctest cannot be read.
"""
import argparse
import json
import os
import subprocess
import sys

KINDS = ("cpu", "gpu")
VOCABULARY = {"cpu", "gpu", "property", "multigpu", "example"}


def test_property(test, name):
    for prop in test.get("properties", []):
        if prop.get("name") == name:
            return prop.get("value")
    return None


def labels_of(test):
    return set(test_property(test, "LABELS") or [])


def gpu_groups_of(test):
    """How many resource groups of the test ask for the resource type "gpus"."""
    groups = test_property(test, "RESOURCE_GROUPS") or []
    return sum(1 for g in groups if any(r.get(".type") == "gpus" for r in g.get("requirements", [])))


def same_file(a, b):
    try:
        return os.path.realpath(a) == os.path.realpath(b)
    except (TypeError, ValueError):
        return False


def find_problems(listing, binaries):
    """listing: the JSON of `ctest --show-only=json-v1`; binaries: [{"name", "path", "labels"}].
    Returns the problems as sentences (empty when every label is right)."""
    problems = []
    tests_of = {b["name"]: 0 for b in binaries}
    for test in listing.get("tests", []):
        name = test.get("name", "?")
        labels = labels_of(test)
        kinds = sorted(labels & set(KINDS))
        if len(kinds) != 1:
            problems.append(f"{name}: needs exactly one of the labels cpu and gpu, has {sorted(labels) or 'none'}")
        unknown = sorted(labels - VOCABULARY)
        if unknown:
            problems.append(f"{name}: labels {unknown} are not in the vocabulary {sorted(VOCABULARY)}")
        if "multigpu" in labels and "gpu" not in labels:
            problems.append(f"{name}: multigpu without gpu")
        groups = gpu_groups_of(test)
        want_groups = 2 if "multigpu" in labels else 1 if "gpu" in labels else 0
        if groups != want_groups:
            problems.append(f"{name}: holds {groups} GPU resource group(s), a test labelled "
                            f"{sorted(labels) or 'none'} needs {want_groups}")
        command = test.get("command") or [""]
        for binary in binaries:
            if not same_file(command[0], binary["path"]):
                continue
            tests_of[binary["name"]] += 1
            declared = set(binary["labels"].split(","))
            if labels != declared:
                missing, extra = sorted(declared - labels), sorted(labels - declared)
                problems.append(f"{name}: from {binary['name']}, which declares {sorted(declared)}, but labelled "
                                f"{sorted(labels) or 'none'} (missing {missing or 'none'}, extra {extra or 'none'})")
    for binary, count in tests_of.items():
        if count == 0:
            problems.append(f"{binary}: no tests in ctest's list (not built, or its test discovery failed)")
    return problems


def label_counts(listing):
    counts = {}
    for test in listing.get("tests", []):
        for label in labels_of(test) or {"(none)"}:
            counts[label] = counts.get(label, 0) + 1
    return counts


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build-dir", required=True)
    parser.add_argument("--binaries", help="default: BUILD_DIR/gpuprims-test-binaries.json")
    parser.add_argument("--ctest", default="ctest")
    args = parser.parse_args()
    binaries_file = args.binaries or os.path.join(args.build_dir, "gpuprims-test-binaries.json")
    try:
        with open(binaries_file) as f:
            binaries = json.load(f)["binaries"]
        out = subprocess.run([args.ctest, "--show-only=json-v1", "--test-dir", args.build_dir],
                             check=True, capture_output=True, text=True).stdout
        listing = json.loads(out)
    except (OSError, ValueError, KeyError, subprocess.CalledProcessError) as e:
        print(f"check_test_labels: cannot read the test list: {e}", file=sys.stderr)
        return 2
    total = len(listing.get("tests", []))
    counts = label_counts(listing)
    print(f"check_test_labels: {total} tests; " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    problems = find_problems(listing, binaries)
    for p in problems:
        print(f"check_test_labels: {p}")
    if problems:
        print(f"check_test_labels: FAIL, {len(problems)} problem(s)")
        return 1
    print("check_test_labels: every test has one of cpu/gpu and its binary's labels")
    return 0


if __name__ == "__main__":
    sys.exit(main())
