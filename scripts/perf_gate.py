#!/usr/bin/env python3
"""The performance gate: compares a fresh benchmark run with the committed results of the same GPU
model and fails when one of our variants got slower relative to CUB/cuBLAS.

What it compares: the ratios each benchmark JSON records against the vendor (every field named
ratio_* or speedup_*, higher is better: ratio_to_cub, ratio_to_cublas, speedup_vs_cublas_cub, ...).
Ours and the vendor are timed in the same process with the same timer, so clock, thermal and
machine-to-machine differences largely cancel in the ratio, and a ratio from a lent GPU can be held
against one committed from another GPU of the same model. A ratio that dropped by more than the
tolerance (default 5%) fails the gate; each failing row names the benchmark, the variant and the
shape. Records are matched by the benchmark file plus their identity fields (KEY_FIELDS: the
algorithm/impl/path, suite, class, inputs, variant, mode and shape fields present); a record found on
one side only is listed, not failed. The vendor's own rows (cub, cublas...) and skipped rows are not
gated.

    python3 scripts/perf_gate.py --fresh gpu-check-out [--fresh rerun-dir ...]
        [--reference results/<gpu-slug>] [--tolerance 0.05] [--short-ms 0.05 --short-tolerance 0.15]

--reference defaults to results/<slug of the fresh run's GPU name> (the folder run-benchmarks.sh
writes). Several --fresh folders (repeated runs of the same code) count a record's best ratio, so
noise must strike every run to fail the gate while a real slowdown shows in all of them. Records
whose committed median is under --short-ms are launch-latency bound and move more between identical
runs; they get --short-tolerance (--short-ms 0 holds every record to --tolerance).

Exit status: 0 no ratio dropped past its tolerance; 1 at least one did; 2 the inputs cannot be
compared (no reference for this GPU, another GPU model, unreadable or ambiguous records, nothing in
common).
"""
import argparse
import glob
import json
import math
import os
import re
import sys

# Fields that tell records of one benchmark file apart. Strings name a variant; numbers are shapes.
KEY_FIELDS = ["algorithm", "impl", "path", "form", "variant", "mode", "suite", "class", "inputs", "config",
              "config_name", "layout", "dtype", "m", "n", "k", "lda", "ldb", "ldc", "rows", "cols", "ld", "batch"]
# Rows of the vendor libraries themselves (cub, cublas, cublas+cub_argmin_x2, cublas_sgemm_plain).
VENDORS = ("cub", "cublas")
RATIO = re.compile(r"^(ratio|speedup)_")


class GateError(Exception):
    """The inputs cannot be compared (exit 2)."""


def slug(name):
    """results/<slug>/ as scripts/run-benchmarks.sh names it."""
    s = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    return s or "unknown-gpu"


def load(path):
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        raise GateError(f"cannot read {path}: {e}")
    if not isinstance(doc, dict) or not isinstance(doc.get("results"), list):
        raise GateError(f"{path}: not a benchmark JSON (no results list)")
    return doc


def benchmark_files(folder):
    """{file name: document} for the benchmark JSON files in a folder."""
    if not os.path.isdir(folder):
        raise GateError(f"no such folder: {folder}")
    docs = {}
    for path in sorted(glob.glob(os.path.join(folder, "*.json"))):
        try:
            doc = load(path)
        except GateError:
            continue  # not a benchmark file (e.g. a summary): not ours to compare
        # A file without ratios to a vendor (the autotuner's timings) has nothing to gate.
        if any(isinstance(r, dict) and any(RATIO.match(k) for k in r) for r in doc["results"]):
            docs[os.path.basename(path)] = doc
    return docs


def is_vendor(record):
    for field in ("impl", "path", "algorithm"):
        v = record.get(field)
        if isinstance(v, str) and any(v == p or v.startswith(p + "_") or v.startswith(p + "+") for p in VENDORS):
            return True
    return False


def is_skipped(record):
    """A row the benchmark did not time (its "skipped" field holds true or the reason)."""
    return record.get("skipped") not in (None, False, "")


def record_key(record, key_fields):
    return tuple((f, record[f]) for f in key_fields if f in record)


def describe(file_name, key):
    """'sgemm tuned (impl=ours, suite=heldout) m=4096 n=4096 k=4096': the variant, then the shape."""
    fields = dict(key)
    name = next((str(fields.pop(f)) for f in ("algorithm", "path", "variant") if f in fields), "?")
    strings = [f"{f}={v}" for f, v in fields.items() if isinstance(v, str)]
    numbers = [f"{f}={v}" for f, v in fields.items() if not isinstance(v, str)]
    text = f"{file_name.rsplit('.', 1)[0]} {name}"
    if strings:
        text += " (" + ", ".join(strings) + ")"
    return text + (" " + " ".join(numbers) if numbers else "")


def index(file_name, doc, key_fields, origin):
    records = {}
    for record in doc["results"]:
        if not isinstance(record, dict):
            continue
        key = record_key(record, key_fields)
        if key in records:
            raise GateError(f"{origin}/{file_name}: two records share the key {describe(file_name, key)}; "
                            f"pass --key-field with the field that tells them apart")
        records[key] = record
    return records


def ratio_value(record, field):
    v = record.get(field)
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v <= 0:
        return None
    return float(v)


def compare(fresh_dirs, reference_dir, tolerance, short_ms, short_tolerance, key_fields, allow_other_gpu, out):
    """Prints the comparison; returns the number of ratios that dropped past their tolerance."""
    fresh_runs = [benchmark_files(d) for d in fresh_dirs]
    reference = benchmark_files(reference_dir)
    fresh_names = sorted(set().union(*[set(r) for r in fresh_runs]))
    common = [n for n in fresh_names if n in reference]
    if not common:
        raise GateError(f"no benchmark file in common between {', '.join(fresh_dirs)} ({fresh_names or 'none'}) "
                        f"and {reference_dir} ({sorted(reference) or 'none'})")
    for name in common:
        ref_gpu = reference[name].get("gpu")
        for run, d in zip(fresh_runs, fresh_dirs):
            if name in run and run[name].get("gpu") != ref_gpu and not allow_other_gpu:
                raise GateError(f"{d}/{name} was measured on {run[name].get('gpu')!r}, the reference on {ref_gpu!r}: "
                                f"ratios are only comparable on the same GPU model")
    print(f"perf_gate: tolerance {tolerance:.1%} ({short_tolerance:.1%} for records under {short_ms:g} ms)", file=out)
    failures = 0
    only_reference, only_fresh = [], []
    for name in fresh_names:
        if name not in reference:
            print(f"perf_gate: {name}: no committed reference, not compared", file=out)
            continue
        ref = index(name, reference[name], key_fields, reference_dir)
        fresh = {}  # key -> [records from each run that has it]
        for run, d in zip(fresh_runs, fresh_dirs):
            if name in run:
                for key, record in index(name, run[name], key_fields, d).items():
                    fresh.setdefault(key, []).append(record)
        compared = dropped = improved = vendor = skipped = 0
        for key, ref_record in ref.items():
            if key not in fresh:
                only_reference.append(describe(name, key))
                continue
            runs = fresh[key]
            if is_vendor(ref_record):
                vendor += 1
                continue
            if is_skipped(ref_record) or any(is_skipped(r) for r in runs):
                skipped += 1
                continue
            time_ms = ref_record.get("time_ms")
            short = isinstance(time_ms, (int, float)) and time_ms < short_ms
            tol = short_tolerance if short else tolerance
            for field in sorted(f for f in ref_record if RATIO.match(f)):
                committed = ratio_value(ref_record, field)
                values = [v for v in (ratio_value(r, field) for r in runs) if v is not None]
                if committed is None or not values:
                    continue
                best = max(values)
                compared += 1
                change = best / committed - 1.0
                if change < -tol:
                    dropped += 1
                    runs_note = f", best of {len(values)} runs" if len(values) > 1 else ""
                    print(f"FAIL  {describe(name, key)}: {field} {committed:.4g} -> {best:.4g} "
                          f"({change:+.1%}, tolerance {tol:.0%}{runs_note})", file=out)
                elif change > tol:
                    improved += 1
        only_fresh += [describe(name, key) for key in fresh if key not in ref]
        failures += dropped
        print(f"perf_gate: {name}: {compared} ratios compared, {dropped} dropped past the tolerance, "
              f"{improved} improved past it; not gated: {vendor} vendor rows, {skipped} skipped rows", file=out)
    for name in sorted(set(reference) - set(fresh_names)):
        print(f"perf_gate: {name}: in the reference only (benchmark not run now)", file=out)
    for what, rows in (("in the reference only (not measured now)", only_reference),
                       ("in the fresh run only (no committed value)", only_fresh)):
        if rows:
            print(f"perf_gate: {len(rows)} record(s) {what}, not gated:", file=out)
            for row in rows:
                print(f"  {row}", file=out)
    return failures


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--fresh", action="append", required=True, metavar="DIR",
                        help="folder of a fresh run's JSON (repeat for several runs of the same code)")
    parser.add_argument("--reference", metavar="DIR",
                        help="committed results (default: RESULTS_ROOT/<slug of the fresh run's GPU>)")
    parser.add_argument("--results-root", metavar="DIR",
                        default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "results"))
    parser.add_argument("--tolerance", type=float, default=0.05, help="largest allowed drop of a ratio (0.05: 5%%)")
    parser.add_argument("--short-ms", type=float, default=0.05,
                        help="records whose committed median time is below this (ms) get --short-tolerance")
    parser.add_argument("--short-tolerance", type=float, default=0.15)
    parser.add_argument("--key-field", action="append", default=[], metavar="NAME",
                        help="one more field that identifies a record (repeatable)")
    parser.add_argument("--allow-other-gpu", action="store_true",
                        help="compare even when the reference was measured on another GPU model")
    args = parser.parse_args(argv)
    try:
        if not 0 <= args.tolerance < 1 or not 0 <= args.short_tolerance < 1:
            raise GateError("tolerances are fractions in [0, 1)")
        reference = args.reference
        if reference is None:
            gpus = {doc.get("gpu") for d in args.fresh for doc in benchmark_files(d).values()}
            gpus.discard(None)
            if len(gpus) != 1:
                raise GateError(f"cannot tell the GPU of the fresh run(s) (found {sorted(gpus) or 'none'}); "
                                f"pass --reference")
            gpu = gpus.pop()
            reference = os.path.join(args.results_root, slug(gpu))
            if not os.path.isdir(reference):
                raise GateError(f"no committed results for {gpu} ({os.path.normpath(reference)}); commit a run of "
                                f"scripts/run-benchmarks.sh on this GPU model first")
        print(f"perf_gate: fresh: {', '.join(args.fresh)}; reference: {os.path.normpath(reference)}")
        failures = compare(args.fresh, reference, args.tolerance, args.short_ms, args.short_tolerance,
                           KEY_FIELDS + args.key_field, args.allow_other_gpu, sys.stdout)
    except GateError as e:
        print(f"perf_gate: ERROR: {e}")
        return 2
    if failures:
        print(f"perf_gate: FAIL: {failures} ratio(s) dropped past the tolerance")
        return 1
    print("perf_gate: PASS: no ratio dropped past the tolerance")
    return 0


if __name__ == "__main__":
    sys.exit(main())
