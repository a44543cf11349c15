#!/usr/bin/env python3
"""Render libgpuprims benchmark JSON into PNG plots and a Markdown summary.

Reads DIR/reduce.json, DIR/sgemm.json, DIR/top2.json and DIR/dist.json (each optional; written by
the benchmark binaries through bench/harness.cpp's Report), and DIR/segmented.json when present (a
table in summary.md; not named when absent), and writes into --out (default DIR):

    sgemm_4096.png     TFLOP/s per SGEMM rung at 4096^3, against cuBLAS (FP32, and TF32 when timed)
    sgemm_square.png   TFLOP/s per rung over the square sizes, against cuBLAS
    sgemm_shapes.png   tuned (and the tensor-core rungs after it) vs cuBLAS over every standard-suite
                       shape in the file
    sgemm_heldout.png  tuned / cuBLAS against FLOPs over the held-out suite, by class (only when
                       sgemm.json has records with "suite": "heldout")
    reduce.png         GB/s per variant over n, against CUB and the device copy bandwidth
    top2.png           fused GEMM + top-2 argmin against the unfused paths
    dist.png           gpuprims::dist: speedup of all GPUs over one per workload, with the targets
    summary.md         header (GPU, date, CUDA versions, timing method) and tables, with the SGEMM
                       accuracy table when sgemm.json has records with "suite": "accuracy"

Needs only Python 3 and matplotlib (Agg backend; no GPU, no network):

    python3 bench/report.py --input-dir results/nvidia-h200
    python3 bench/report.py --input-dir tests/fixtures/results --out /tmp/rep --check
    python3 bench/report.py --input-dir results/nvidia-h200 \\
        --readme README.md --readme-results-path results/nvidia-h200

Exit status: 0 on success; 1 when no input file is present, an input file is malformed, --check
finds a missing or broken output, or --readme cannot be updated; 2 on a command-line error.

This file is the command line; reading, plots and Markdown are in the package bench/reporting/.
"""

import argparse
import os
import sys

sys.dont_write_bytecode = True  # run from a source tree (ctest): leave no __pycache__ in bench/reporting/
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from reporting.common import log  # noqa: E402
from reporting.dist import Dist  # noqa: E402
from reporting.load import Malformed, Reduce, Sgemm, Top2, load  # noqa: E402
from reporting.markdown import (ACCURACY_HEADING, BEGIN_MARKER, END_MARKER, HELDOUT_HEADING,  # noqa: E402
                                HELDOUT_SHAPES_HEADING, build_summary, update_readme)
from reporting.plots import HELDOUT_PNG, expected_plots, plotting  # noqa: E402
from reporting.segmented import Segmented  # noqa: E402

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
INPUTS = ("reduce", "sgemm", "top2", "dist")
# Rendered when present, never reported as missing (so a folder without them renders as before).
OPTIONAL_INPUTS = ("segmented",)
VIEWS = {"sgemm": Sgemm, "reduce": Reduce, "top2": Top2, "dist": Dist, "segmented": Segmented}


# ----------------------------------------------------------------------------------------------
# --check

def check_outputs(out_dir, models, gpus):
    problems = []
    for name, model in models.items():
        for png, _ in expected_plots(name, model):
            p = os.path.join(out_dir, png)
            if not os.path.isfile(p):
                problems.append("%s is missing" % png)
                continue
            with open(p, "rb") as f:
                head = f.read(len(PNG_MAGIC))
            if os.path.getsize(p) == 0:
                problems.append("%s is empty" % png)
            elif head != PNG_MAGIC:
                problems.append("%s is not a PNG" % png)
    summary = os.path.join(out_dir, "summary.md")
    try:
        with open(summary, encoding="utf-8") as f:
            body = f.read()
    except OSError as e:
        problems.append("summary.md cannot be read: %s" % e)
    else:
        for g in gpus:
            if g not in body:
                problems.append("summary.md does not name the GPU %r" % g)
        sgemm = models.get("sgemm")
        if sgemm is not None and sgemm.heldout is not None:
            for heading in (HELDOUT_HEADING, HELDOUT_SHAPES_HEADING):
                if heading not in body:
                    problems.append("sgemm.json has held-out records but summary.md has no %r section" % heading)
        if sgemm is not None and sgemm.accuracy is not None and ACCURACY_HEADING not in body:
            problems.append("sgemm.json has accuracy records but summary.md has no %r section" % ACCURACY_HEADING)
    return problems


# ----------------------------------------------------------------------------------------------

def main(argv=None):
    ap = argparse.ArgumentParser(
        description="Render libgpuprims benchmark JSON (reduce.json, sgemm.json, top2.json, dist.json) into PNG plots "
                    "and summary.md. Needs matplotlib, not a GPU.")
    ap.add_argument("--input-dir", required=True, help="folder holding reduce.json, sgemm.json, top2.json, dist.json")
    ap.add_argument("--out", help="folder for the PNGs and summary.md (default: the input folder)")
    ap.add_argument("--check", action="store_true",
                    help="verify every expected PNG is a non-empty PNG and summary.md names the GPU")
    ap.add_argument("--readme", metavar="FILE",
                    help="replace the text between %s and %s in FILE with the summary" % (BEGIN_MARKER,
                                                                                           END_MARKER))
    ap.add_argument("--readme-results-path", metavar="PATH",
                    help="the results folder as seen from FILE's folder, prefixed to the image links "
                         "(default: computed from --out)")
    args = ap.parse_args(argv)

    in_dir = args.input_dir
    out_dir = args.out or in_dir
    if not os.path.isdir(in_dir):
        log("input folder %s does not exist" % in_dir)
        return 1

    failed = False
    docs, present, missing, malformed = {}, [], [], []
    for name in INPUTS + OPTIONAL_INPUTS:
        p = os.path.join(in_dir, name + ".json")
        if not os.path.exists(p):
            if name in INPUTS:
                missing.append(name)
            continue
        try:
            docs[name] = load(p)
            present.append(name)
        except Malformed as e:
            log("%s is malformed: %s" % (p, e))
            malformed.append(name)
            failed = True
    if not docs:
        log("no usable input in %s: need at least one of reduce.json, sgemm.json, top2.json, dist.json" % in_dir)
        return 1
    if missing:
        log("not present in %s: %s (rendering the rest)" % (in_dir, ", ".join(m + ".json" for m in missing)))

    try:
        plt = plotting()
    except ImportError as e:
        log("matplotlib is needed to draw the plots (%s); on Debian/Ubuntu: apt-get install python3-matplotlib"
            % e)
        return 1

    os.makedirs(out_dir, exist_ok=True)
    models = {}
    written = []
    for name in present:
        models[name] = VIEWS[name](docs[name])
        for png, fn in expected_plots(name, models[name]):
            written.append(png)
            try:
                fn(plt, models[name], os.path.join(out_dir, png))
            except Exception as e:  # a plot must not take the others (or the summary) down with it
                log("could not draw %s: %s: %s" % (png, type(e).__name__, e))
                plt.close("all")
                failed = True
    if "sgemm" in models and models["sgemm"].heldout is None and os.path.exists(os.path.join(out_dir, HELDOUT_PNG)):
        log("%s in %s is not from this sgemm.json (it has no held-out records); left as it is"
            % (HELDOUT_PNG, out_dir))

    headers = [(n, models[n].header) for n in present]
    summary = "# libgpuprims benchmark results\n\n" + build_summary(models, headers, present, missing + malformed, "", 2,
                                                                       malformed)
    with open(os.path.join(out_dir, "summary.md"), "w", encoding="utf-8") as f:
        f.write(summary)
    written.append("summary.md")
    log("wrote %s into %s" % (", ".join(written), out_dir))

    if args.check:
        problems = check_outputs(out_dir, models, sorted({h.gpu for _, h in headers}))
        for p in problems:
            log("check failed: " + p)
        if problems:
            failed = True
        else:
            log("check passed: %d PNGs and summary.md" % (len(written) - 1))

    if args.readme:
        prefix = args.readme_results_path
        if prefix is None:
            prefix = os.path.relpath(out_dir, os.path.dirname(os.path.abspath(args.readme)))
        prefix = prefix.replace(os.sep, "/")
        link = (prefix.rstrip("/") + "/" if prefix.strip("/") else "") + "summary.md"
        block = build_summary(models, headers, present, missing + malformed, prefix, 4, malformed,
                              summary_link=link)
        try:
            changed = update_readme(args.readme, block)
            log("%s %s" % ("updated the results block in" if changed else "results block already current in",
                           args.readme))
        except (Malformed, OSError) as e:
            log(str(e))
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
