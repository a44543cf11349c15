#!/usr/bin/env python3
"""Render libgpuprims benchmark JSON into PNG plots and a Markdown summary.

Reads DIR/reduce.json, DIR/sgemm.json and DIR/top2.json (each optional; written by the benchmark
binaries through bench/harness.cpp's Report) and writes into --out (default DIR):

    sgemm_4096.png    TFLOP/s per SGEMM rung at 4096^3, against cuBLAS
    sgemm_square.png  TFLOP/s per rung over the square sizes, against cuBLAS
    sgemm_shapes.png  tuned vs cuBLAS over every shape in the file
    reduce.png        GB/s per variant over n, against CUB and the device copy bandwidth
    top2.png          fused GEMM + top-2 argmin against the unfused paths
    summary.md        header (GPU, date, CUDA versions, timing method) and tables

Needs only Python 3 and matplotlib (Agg backend; no GPU, no network):

    python3 bench/report.py --input-dir results/nvidia-h200
    python3 bench/report.py --input-dir tests/fixtures/results --out /tmp/rep --check
    python3 bench/report.py --input-dir results/nvidia-h200 \\
        --readme README.md --readme-results-path results/nvidia-h200

Exit status: 0 on success; 1 when no input file is present, an input file is malformed, --check
finds a missing or broken output, or --readme cannot be updated; 2 on a command-line error.
"""

import argparse
import datetime
import json
import math
import os
import sys

BEGIN_MARKER = "<!-- results:begin -->"
END_MARKER = "<!-- results:end -->"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
DASH = "\u2014"  # shown for a missing or skipped value
TIMES = "\u00d7"

SGEMM_RUNGS = ["naive", "coalesced", "shared_tiled", "blocktile_1d", "blocktile_2d", "vectorized",
               "bank_conflict_free", "warptile", "double_buffered", "tuned"]
REDUCE_VARIANTS = ["baseline", "no_divergence", "no_bank_conflict", "add_during_load",
                   "unroll_last_warp", "shuffle"]
TOP2_PATHS = ["fused", "ours_sgemm+ours_top2", "cublas+cub_argmin_x2", "ours_sgemm_plain",
              "cublas_sgemm_plain"]
TOP2_LABELS = {
    "fused": "fused (ours)",
    "ours_sgemm+ours_top2": "ours SGEMM\n+ ours top-2",
    "cublas+cub_argmin_x2": "cuBLAS SGEMM\n+ CUB argmin \u00d72",
    "ours_sgemm_plain": "ours SGEMM only\n(no top-2)",
    "cublas_sgemm_plain": "cuBLAS SGEMM only\n(no top-2)",
}
TOP2_COLUMN = {
    "fused": "fused (ms)",
    "ours_sgemm+ours_top2": "ours SGEMM + ours top-2 (ms)",
    "cublas+cub_argmin_x2": "cuBLAS + CUB argmin\u00d72 (ms)",
    "ours_sgemm_plain": "ours SGEMM only (ms)",
    "cublas_sgemm_plain": "cuBLAS SGEMM only (ms)",
}
TOP2_BASELINE = "cublas+cub_argmin_x2"
LADDER_SHAPE = 4096

INPUTS = ("reduce", "sgemm", "top2")
PLOTS = {"reduce": ["reduce.png"], "sgemm": ["sgemm_4096.png", "sgemm_square.png", "sgemm_shapes.png"],
         "top2": ["top2.png"]}


class Malformed(Exception):
    pass


def log(msg):
    print("report: " + msg, file=sys.stderr)


# ----------------------------------------------------------------------------------------------
# Reading

def num(rec, key):
    """A finite number from rec[key], or None (missing, null, non-numeric, NaN/inf, bool)."""
    v = rec.get(key) if isinstance(rec, dict) else None
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return None
    v = float(v)
    return v if math.isfinite(v) else None


def integer(rec, key):
    v = num(rec, key)
    return int(v) if v is not None and v == int(v) else None


def text(rec, key, default=None):
    v = rec.get(key) if isinstance(rec, dict) else None
    if v is None or isinstance(v, (dict, list)):
        return default
    return str(v)


def load(path):
    """The parsed document, or raises Malformed with a one-line reason."""
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, UnicodeDecodeError) as e:
        raise Malformed("cannot read: %s" % e)
    except json.JSONDecodeError as e:
        raise Malformed("not valid JSON: %s" % e)
    if not isinstance(doc, dict):
        raise Malformed("top level is not a JSON object")
    results = doc.get("results", [])
    if not isinstance(results, list):
        raise Malformed('"results" is not a list')
    records = []
    for i, r in enumerate(results):
        if isinstance(r, dict):
            records.append(r)
        else:
            log("%s: results[%d] is not an object; ignored" % (path, i))
    doc["results"] = records
    return doc


class Header:
    """The run-level fields every benchmark file starts with."""

    def __init__(self, doc):
        self.doc = doc
        self.gpu = text(doc, "gpu", "unknown GPU")
        self.date_raw = text(doc, "date")
        self.date = format_date(self.date_raw)

    def subtitle(self):
        return "%s  \u00b7  %s" % (self.gpu, self.date)


def format_date(raw):
    if not raw:
        return "date unknown"
    for fmt in ("%Y-%m-%dT%H:%M:%SZ", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d"):
        try:
            d = datetime.datetime.strptime(raw, fmt)
        except ValueError:
            continue
        return d.strftime("%Y-%m-%d %H:%M UTC") if fmt != "%Y-%m-%d" else d.strftime("%Y-%m-%d")
    return raw


def cuda_version(v):
    if v is None:
        return DASH
    v = int(v)
    return "%d.%d" % (v // 1000, (v % 1000) // 10)


# ----------------------------------------------------------------------------------------------
# Formatting helpers

def fmt_num(v, digits=3):
    """Three significant figures, no exponent for the usual ranges."""
    if v is None:
        return DASH
    a = abs(v)
    if a >= 100:
        return "%.0f" % v
    if a >= 10:
        return "%.1f" % v
    if a >= 1:
        return "%.2f" % v
    if a == 0:
        return "0"
    return "%.*f" % (max(digits - 1 - int(math.floor(math.log10(a))), 0), v)


def fmt_ratio(v):
    if v is None:
        return DASH
    if v >= 10:
        return "%.1f" % v + TIMES
    if v >= 0.1 or v <= 0:
        return "%.2f" % v + TIMES
    return fmt_num(v, 2) + TIMES  # two significant figures: 0.0075x, not 0.01x


def shape_label(m, n, k):
    return "%s%s%s%s%s" % (m, TIMES, n, TIMES, k)


def pow2_label(n):
    if n > 0 and n & (n - 1) == 0:
        return "2^%d" % (n.bit_length() - 1)
    return str(n)


def human_bytes(b):
    if b is None:
        return None
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if b >= scale:
            v = b / scale
            return ("%d %s" % (v, unit)) if v == int(v) else ("%.1f %s" % (v, unit))
    return "%d B" % b


def geomean(values):
    values = [v for v in values if v is not None and v > 0]
    if not values:
        return None
    return math.exp(sum(math.log(v) for v in values) / len(values))


def md_table(header, rows, align=None):
    align = align or (["l"] + ["r"] * (len(header) - 1))
    sep = ["---:" if a == "r" else ":---" for a in align]
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join(sep) + " |"]
    for r in rows:
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in r) + " |")
    return "\n".join(lines)


class Notes:
    """Footnotes under one table: skipped records' reasons and mismatch flags."""

    SUPERSCRIPTS = "\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079"

    def __init__(self):
        self.items = []

    def mark(self, reason):
        if reason not in self.items:
            self.items.append(reason)
        i = self.items.index(reason)
        return self.SUPERSCRIPTS[i] if i < len(self.SUPERSCRIPTS) else "[%d]" % (i + 1)

    def render(self):
        out = []
        for i, reason in enumerate(self.items):
            m = self.SUPERSCRIPTS[i] if i < len(self.SUPERSCRIPTS) else "[%d]" % (i + 1)
            out.append("%s %s" % (m, reason))
        return "\n".join(out)


def skipped_reason(rec):
    if rec is None or "skipped" not in rec:
        return None
    reason = text(rec, "skipped", "")
    return "skipped: " + (reason if reason and reason.lower() not in ("true", "skipped") else "not run")


MISMATCH_NOTE = "\u26a0 the result did not match the reference on this run; the timing is shown but suspect"


# ----------------------------------------------------------------------------------------------
# Data models

class Sgemm:
    def __init__(self, doc):
        self.header = Header(doc)
        self.records = {}  # (algorithm, m, n, k) -> record
        self.shapes = []
        self.rungs = []  # ours, in ladder order, then unknown names in file order
        extra = []
        for r in doc["results"]:
            algo = text(r, "algorithm")
            m, n, k = integer(r, "m"), integer(r, "n"), integer(r, "k")
            if algo is None or None in (m, n, k):
                continue
            self.records[(algo, m, n, k)] = r
            if (m, n, k) not in self.shapes:
                self.shapes.append((m, n, k))
            if algo != "cublas" and algo not in SGEMM_RUNGS and algo not in extra:
                extra.append(algo)
        present = {a for (a, _, _, _) in self.records}
        self.rungs = [a for a in SGEMM_RUNGS if a in present] + extra

    def rec(self, algo, shape):
        return self.records.get((algo,) + tuple(shape))

    def tflops(self, algo, shape):
        r = self.rec(algo, shape)
        if r is None or "skipped" in r:
            return None
        t = num(r, "tflops")
        if t is None:
            ms = num(r, "time_ms")
            if ms and ms > 0:
                m, n, k = shape
                t = 2.0 * m * n * k / (ms * 1e-3) / 1e12
        return t

    def ratio(self, algo, shape):
        r = self.rec(algo, shape)
        if r is None or "skipped" in r:
            return None
        if algo == "cublas":
            return 1.0
        v = num(r, "ratio_to_cublas")
        if v is None:
            a, b = self.tflops(algo, shape), self.tflops("cublas", shape)
            v = a / b if a is not None and b else None
        return v

    def square_sizes(self):
        return sorted({m for (m, n, k) in self.shapes if m == n == k})

    def ladder_shape(self):
        """4096^3 when present, else the largest square size with any data."""
        sq = self.square_sizes()
        if LADDER_SHAPE in sq:
            return (LADDER_SHAPE,) * 3
        return (sq[-1],) * 3 if sq else None


class Reduce:
    def __init__(self, doc):
        self.header = Header(doc)
        self.copy_gbs = num(doc, "copy_gbs")
        self.records = {}
        self.sizes = []
        extra = []
        for r in doc["results"]:
            algo = text(r, "algorithm")
            n = integer(r, "n")
            if algo is None or n is None:
                continue
            self.records[(algo, n)] = r
            if n not in self.sizes:
                self.sizes.append(n)
            if algo != "cub" and algo not in REDUCE_VARIANTS and algo not in extra:
                extra.append(algo)
        self.sizes.sort()
        present = {a for (a, _) in self.records}
        self.variants = [a for a in REDUCE_VARIANTS if a in present] + extra

    def rec(self, algo, n):
        return self.records.get((algo, n))

    def gbs(self, algo, n):
        r = self.rec(algo, n)
        if r is None or "skipped" in r:
            return None
        v = num(r, "gbs")
        if v is None:
            b, ms = num(r, "bytes"), num(r, "time_ms")
            if b is None:
                b = 4.0 * n
            v = b / (ms * 1e-3) / 1e9 if ms else None
        return v

    def ratio(self, algo, n):
        r = self.rec(algo, n)
        if r is None or "skipped" in r:
            return None
        if algo == "cub":
            return 1.0
        v = num(r, "ratio_to_cub")
        if v is None:
            a, b = self.gbs(algo, n), self.gbs("cub", n)
            v = a / b if a is not None and b else None
        return v


class Top2:
    def __init__(self, doc):
        self.header = Header(doc)
        self.records = {}
        self.shapes = []
        extra = []
        for r in doc["results"]:
            path = text(r, "path")
            m, n, k = integer(r, "m"), integer(r, "n"), integer(r, "k")
            if path is None or None in (m, n, k):
                continue
            self.records[(path, m, n, k)] = r
            if (m, n, k) not in self.shapes:
                self.shapes.append((m, n, k))
            if path not in TOP2_PATHS and path not in extra:
                extra.append(path)
        present = {p for (p, _, _, _) in self.records}
        self.paths = [p for p in TOP2_PATHS if p in present] + extra

    def rec(self, path, shape):
        return self.records.get((path,) + tuple(shape))

    def ms(self, path, shape):
        r = self.rec(path, shape)
        if r is None or "skipped" in r:
            return None
        return num(r, "time_ms")

    def speedup(self, shape):
        """Fused over cuBLAS + CUB (time of cuBLAS+CUB / time of fused)."""
        r = self.rec("fused", shape)
        v = num(r, "speedup_vs_cublas_cub") if r is not None and "skipped" not in r else None
        if v is None:
            f, b = self.ms("fused", shape), self.ms(TOP2_BASELINE, shape)
            v = b / f if f and b is not None else None
        return v

    def fused_over_plain(self, shape):
        f, p = self.ms("fused", shape), self.ms("ours_sgemm_plain", shape)
        return f / p if f is not None and p else None


# ----------------------------------------------------------------------------------------------
# Plots

def plotting():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    plt.rcParams.update({
        "figure.dpi": 110,
        "savefig.dpi": 110,
        "axes.grid": True,
        "grid.alpha": 0.3,
        "axes.spines.top": False,
        "axes.spines.right": False,
        "font.size": 10,
        "axes.titlesize": 12,
        "legend.fontsize": 9,
        "legend.framealpha": 0.9,
    })
    return plt


def ladder_colors(plt, count):
    cmap = plt.get_cmap("viridis")
    if count <= 1:
        return [cmap(0.45)]
    return [cmap(0.05 + 0.8 * i / (count - 1)) for i in range(count)]


MARKERS = ["o", "s", "^", "v", "D", "P", "X", "<", ">", "h", "*", "p"]
VENDOR_COLOR = "#c0392b"
COPY_COLOR = "#555555"


def set_title(ax, title, header):
    ax.set_title("%s\n%s" % (title, header.subtitle()), loc="left")


def footer(ax, header, below=None):
    """The timing method in small print under `below` (default: the x-axis label), left-aligned with ax."""
    timing = text(header.doc, "timing")
    if timing:
        anchor = below if below is not None else ax.xaxis.label
        ax.annotate("Timing: " + timing, xy=(0, 0), xycoords=("axes fraction", anchor), xytext=(0, -4),
                    textcoords="offset points", ha="left", va="top", fontsize=7, color="#666666",
                    annotation_clip=False)


def save(plt, fig, path):
    fig.savefig(path, bbox_inches="tight", pad_inches=0.15, facecolor="white")
    plt.close(fig)


def no_data(plt, path, title, header, why):
    fig, ax = plt.subplots(figsize=(8, 3))
    ax.axis("off")
    set_title(ax, title, header)
    ax.text(0.5, 0.45, why, ha="center", va="center", fontsize=12, color="#666666", transform=ax.transAxes)
    save(plt, fig, path)


def log2_axis(ax, values, label_fn):
    ax.set_xscale("log", base=2)
    ax.set_xticks(values)
    ax.set_xticklabels([label_fn(v) for v in values])
    ax.minorticks_off()
    if len(values) == 1:
        ax.set_xlim(values[0] / 2, values[0] * 2)


def plot_sgemm_ladder(plt, s, path):
    shape = s.ladder_shape()
    title = "SGEMM TFLOP/s per rung at %s (FP32, higher is better)" % (
        "%d\u00b3" % shape[0] if shape else "4096\u00b3")
    if shape is None:
        return no_data(plt, path, title, s.header, "no square SGEMM shape in sgemm.json")
    rungs = list(s.rungs)
    values = [s.tflops(r, shape) for r in rungs]
    cublas = s.tflops("cublas", shape)
    labels = rungs + (["cuBLAS"] if s.rec("cublas", shape) is not None else [])
    if not any(v is not None for v in values) and cublas is None:
        return no_data(plt, path, title, s.header, "no timed SGEMM record at this shape")
    fig, ax = plt.subplots(figsize=(max(9, 0.95 * len(labels) + 2.5), 5.6))
    colors = ladder_colors(plt, len(rungs)) + [VENDOR_COLOR]
    xs = list(range(len(labels)))
    heights = values + ([cublas] if len(labels) > len(rungs) else [])
    top = max([h for h in heights if h is not None] or [1.0])
    for x, h, c, name in zip(xs, heights, colors, labels):
        if h is None:
            r = s.rec(name if name != "cuBLAS" else "cublas", shape)
            why = "skipped" if r is not None and "skipped" in r else "not run"
            ax.text(x, top * 0.02, why, ha="center", va="bottom", rotation=90, fontsize=8, color="#888888")
            continue
        ax.bar(x, h, color=c, edgecolor="black" if name == "cuBLAS" else "none", linewidth=0.8,
               hatch="//" if name == "cuBLAS" else None, width=0.72)
        if name == "cuBLAS":
            note = "%s TFLOP/s\n(reference)" % fmt_num(h)
        else:
            ratio = s.ratio(name, shape)
            note = "%s TFLOP/s\n%s cuBLAS" % (fmt_num(h), fmt_ratio(ratio)) if ratio is not None \
                else "%s TFLOP/s" % fmt_num(h)
        ax.annotate(note, (x, h), xytext=(0, 3), textcoords="offset points", ha="center", va="bottom",
                    fontsize=7.5, bbox=dict(boxstyle="round,pad=0.15", fc="white", ec="none", alpha=0.85))
    if cublas is not None:
        ax.axhline(cublas, color=VENDOR_COLOR, linestyle="--", linewidth=1.2, zorder=0,
                   label="cuBLAS: %s TFLOP/s" % fmt_num(cublas))
        ax.legend(loc="upper left")
    ax.set_xticks(xs)
    ax.set_xticklabels(labels, rotation=30, ha="right")
    ax.set_xlim(-0.6, len(labels) - 0.4)
    ax.set_ylim(0, top * 1.25)
    ax.set_xlabel("SGEMM rung (ladder order)  \u2192  cuBLAS")
    ax.set_ylabel("Throughput (TFLOP/s, FP32)")
    ax.grid(axis="x", visible=False)
    set_title(ax, title, s.header)
    footer(ax, s.header)
    save(plt, fig, path)


def plot_sgemm_square(plt, s, path):
    sizes = s.square_sizes()
    title = "SGEMM TFLOP/s over square sizes m = n = k (FP32, higher is better)"
    if not sizes:
        return no_data(plt, path, title, s.header, "no square SGEMM shape in sgemm.json")
    fig, ax = plt.subplots(figsize=(11, 6))
    drawn = False
    colors = ladder_colors(plt, len(s.rungs))
    for i, rung in enumerate(s.rungs):
        pts = [(n, s.tflops(rung, (n, n, n))) for n in sizes]
        pts = [(x, y) for x, y in pts if y is not None]
        if not pts:
            continue
        drawn = True
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker=MARKERS[i % len(MARKERS)], markersize=5,
                color=colors[i], linewidth=2.4 if rung == "tuned" else 1.5, label=rung)
    pts = [(n, s.tflops("cublas", (n, n, n))) for n in sizes]
    pts = [(x, y) for x, y in pts if y is not None]
    if pts:
        drawn = True
        ax.plot([p[0] for p in pts], [p[1] for p in pts], color=VENDOR_COLOR, linestyle="--", linewidth=3,
                marker="o", markersize=6, label="cuBLAS")
    if not drawn:
        plt.close(fig)
        return no_data(plt, path, title, s.header, "no timed square SGEMM record")
    log2_axis(ax, sizes, str)
    ax.set_ylim(bottom=0)
    ax.set_xlabel("Matrix size m = n = k (log\u2082 scale)")
    ax.set_ylabel("Throughput (TFLOP/s, FP32)")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), title="rung")
    set_title(ax, title, s.header)
    footer(ax, s.header)
    save(plt, fig, path)


def plot_sgemm_shapes(plt, s, path):
    title = "SGEMM: tuned vs cuBLAS over every benchmarked shape (FP32, higher is better)"
    shapes = [sh for sh in s.shapes if s.rec("tuned", sh) is not None or s.rec("cublas", sh) is not None]
    if not shapes:
        return no_data(plt, path, title, s.header, "no tuned or cuBLAS record in sgemm.json")
    fig, ax = plt.subplots(figsize=(max(8, 1.1 * len(shapes) + 3), 5.6))
    w = 0.38
    tuned = [s.tflops("tuned", sh) for sh in shapes]
    cub = [s.tflops("cublas", sh) for sh in shapes]
    xs = list(range(len(shapes)))
    top = max([v for v in tuned + cub if v is not None] or [1.0])
    ax.bar([x - w / 2 for x in xs], [v or 0 for v in tuned], w, color=ladder_colors(plt, 10)[-1],
           label="ours (tuned)")
    ax.bar([x + w / 2 for x in xs], [v or 0 for v in cub], w, color=VENDOR_COLOR, hatch="//",
           edgecolor="black", linewidth=0.6, label="cuBLAS")
    for x, sh, t, c in zip(xs, shapes, tuned, cub):
        for dx, v in ((-w / 2, t), (w / 2, c)):
            if v is None:
                ax.text(x + dx, top * 0.02, "skipped" if s.rec("tuned" if dx < 0 else "cublas", sh) is not None
                        else "not run", rotation=90, ha="center", va="bottom", fontsize=8, color="#888888")
        r = s.ratio("tuned", sh)
        if r is not None:
            ax.annotate(fmt_ratio(r), (x, max(t or 0, c or 0)), xytext=(0, 4), textcoords="offset points",
                        ha="center", va="bottom", fontsize=8.5, fontweight="bold")
    ax.set_xticks(xs)
    ax.set_xticklabels([shape_label(*sh) for sh in shapes], rotation=30 if len(shapes) > 4 else 0,
                       ha="right" if len(shapes) > 4 else "center")
    ax.set_ylim(0, top * 1.18)
    ax.set_xlabel("Shape m\u00d7n\u00d7k   (bold: tuned / cuBLAS)")
    ax.set_ylabel("Throughput (TFLOP/s, FP32)")
    ax.grid(axis="x", visible=False)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0))
    set_title(ax, title, s.header)
    footer(ax, s.header)
    save(plt, fig, path)


def plot_reduce(plt, r, path):
    title = "Sum reduction GB/s over n (FP32 input, higher is better)"
    sizes = r.sizes
    if not sizes:
        return no_data(plt, path, title, r.header, "no reduce record in reduce.json")
    fig, ax = plt.subplots(figsize=(11, 6))
    colors = ladder_colors(plt, len(r.variants))
    drawn = False
    for i, v in enumerate(r.variants):
        pts = [(n, r.gbs(v, n)) for n in sizes]
        pts = [(x, y) for x, y in pts if y is not None]
        if not pts:
            continue
        drawn = True
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker=MARKERS[i % len(MARKERS)], markersize=5,
                color=colors[i], linewidth=2.4 if v == "shuffle" else 1.5, label=v)
    pts = [(n, r.gbs("cub", n)) for n in sizes]
    pts = [(x, y) for x, y in pts if y is not None]
    if pts:
        drawn = True
        ax.plot([p[0] for p in pts], [p[1] for p in pts], color=VENDOR_COLOR, linestyle="--", linewidth=3,
                marker="o", markersize=6, label="CUB DeviceReduce::Sum")
    if r.copy_gbs is not None:
        drawn = True
        ax.axhline(r.copy_gbs, color=COPY_COLOR, linestyle=":", linewidth=2,
                   label="device copy (read + write): %s GB/s" % fmt_num(r.copy_gbs))
    if not drawn:
        plt.close(fig)
        return no_data(plt, path, title, r.header, "no timed reduce record")

    def label(n):
        return "$2^{%d}$" % (n.bit_length() - 1) if n > 0 and n & (n - 1) == 0 else str(n)

    log2_axis(ax, sizes, label)
    ax.set_ylim(bottom=0)
    ymax = ax.get_ylim()[1]
    ax.set_ylim(0, ymax * 1.05)
    ax.set_xlabel("n, number of floats summed (log\u2082 scale; 4 bytes each)")
    ax.set_ylabel("Effective bandwidth (GB/s, input bytes read / time)")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), title="variant")
    set_title(ax, title, r.header)
    footer(ax, r.header)
    save(plt, fig, path)


TOP2_COLORS = {"fused": "#1a9850", "ours_sgemm+ours_top2": "#4575b4", "cublas+cub_argmin_x2": VENDOR_COLOR,
               "ours_sgemm_plain": "#bdbdbd", "cublas_sgemm_plain": "#f4a582"}


def plot_top2(plt, t, path):
    title = "SGEMM + top-2 argmin: fused epilogue vs unfused paths (time, lower is better)"
    shapes = [sh for sh in t.shapes if any(t.ms(p, sh) is not None for p in t.paths)]
    if not shapes:
        return no_data(plt, path, title, t.header, "no timed record in top2.json")
    cols = len(shapes) if len(shapes) <= 3 else (2 if len(shapes) == 4 else 3)
    rows = (len(shapes) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(4.6 * cols + 0.6, 4.6 * rows + 0.9), squeeze=False)
    paths = t.paths
    for idx, sh in enumerate(shapes):
        ax = axes[idx // cols][idx % cols]
        vals = [t.ms(p, sh) for p in paths]
        top = max(v for v in vals if v is not None)
        xs = list(range(len(paths)))
        for x, p, v in zip(xs, paths, vals):
            if v is None:
                ax.text(x, top * 0.02, "not run", rotation=90, ha="center", va="bottom", fontsize=8,
                        color="#888888")
                continue
            plain = p.endswith("_plain")
            ax.bar(x, v, 0.7, color=TOP2_COLORS.get(p, "#999999"), hatch=".." if plain else None,
                   edgecolor="#444444" if plain else "none", linewidth=0.5)
            ax.annotate(fmt_num(v), (x, v), xytext=(0, 2), textcoords="offset points", ha="center",
                        va="bottom", fontsize=8)
        sp = t.speedup(sh)
        sub = shape_label(*sh)
        if sp is not None:
            sub += "\nfused: %s vs cuBLAS + CUB" % fmt_ratio(sp)
            fi = paths.index("fused") if "fused" in paths else None
            if fi is not None and vals[fi] is not None:
                ax.annotate("%s faster" % fmt_ratio(sp) if sp >= 1 else "%s slower" % fmt_ratio(1 / sp),
                            (fi, vals[fi]), xytext=(0, 14), textcoords="offset points", ha="center",
                            va="bottom", fontsize=8.5, fontweight="bold", color=TOP2_COLORS["fused"])
        ax.set_title(sub, fontsize=10)
        ax.set_xticks(xs)
        ax.set_xticklabels([TOP2_LABELS.get(p, p) for p in paths], rotation=35, ha="right", fontsize=8)
        ax.set_xlim(-0.6, len(paths) - 0.4)
        ax.set_ylim(0, top * 1.3)
        ax.set_ylabel("Time (ms, median)")
        ax.grid(axis="x", visible=False)
    for idx in range(len(shapes), rows * cols):
        axes[idx // cols][idx % cols].axis("off")
    fig.suptitle("%s\n%s" % (title, t.header.subtitle()), x=0.01, ha="left", fontsize=12)
    xlabel = fig.supxlabel("Path (hatched: SGEMM alone, no top-2, for reference)", fontsize=9)
    fig.tight_layout(rect=(0, 0.02, 1, 1))
    footer(axes[0][0], t.header, below=xlabel)
    save(plt, fig, path)


# ----------------------------------------------------------------------------------------------
# Summary

def header_block(headers, present, missing, malformed=()):
    """Run-level description from the files' headers (one line per distinct GPU)."""
    lines = []
    by_gpu = {}
    for name, h in headers:
        by_gpu.setdefault(h.gpu, []).append((name, h))
    for gpu, items in by_gpu.items():
        h = items[0][1]
        d = h.doc
        extras = []
        if integer(d, "sm_count"):
            extras.append("%d SMs" % integer(d, "sm_count"))
        if text(d, "compute_capability"):
            extras.append("compute capability %s" % text(d, "compute_capability"))
        if integer(d, "l2_bytes"):
            extras.append("%s L2" % human_bytes(integer(d, "l2_bytes")))
        if integer(d, "sm_clock_mhz"):
            extras.append("SM clock %d MHz" % integer(d, "sm_clock_mhz"))
        dates = sorted({x.date for _, x in items})
        line = "**GPU:** %s%s  \n**Run:** %s  \n**CUDA:** runtime %s, driver %s  \n**Timing:** %s" % (
            gpu, (" (" + ", ".join(extras) + ")") if extras else "", ", ".join(dates),
            cuda_version(num(d, "cuda_runtime")), cuda_version(num(d, "cuda_driver")),
            text(d, "timing", DASH))
        if len(by_gpu) > 1:
            line += "  \n**Files:** " + ", ".join(n + ".json" for n, _ in items)
        lines.append(line)
    out = "\n\n".join(lines)
    if len(by_gpu) > 1:
        out = ("\u26a0 These files come from different GPUs (%s); compare within one GPU only.\n\n"
               % ", ".join(by_gpu)) + out
    src = "Generated by `bench/report.py` from %s" % ", ".join("`%s.json`" % p for p in present)
    absent = [m for m in missing if m not in malformed]
    if absent:
        src += "; not present: %s" % ", ".join("`%s.json`" % m for m in absent)
    if malformed:
        src += "; malformed, not shown: %s" % ", ".join("`%s.json`" % m for m in malformed)
    return out + "\n\n" + src + "."


def sgemm_sections(s, h, img):
    out = []
    notes = Notes()
    rows = []
    ratios = []
    for sh in s.shapes:
        if s.rec("tuned", sh) is None and s.rec("cublas", sh) is None:
            continue
        cells = [shape_label(*sh)]
        for algo in ("tuned", "cublas"):
            r = s.rec(algo, sh)
            v = s.tflops(algo, sh)
            why = skipped_reason(r)
            cell = fmt_num(v) if v is not None else DASH + (notes.mark(why) if why else "")
            if r is not None and r.get("mismatch") is True:
                cell += " " + notes.mark(MISMATCH_NOTE)
            cells.append(cell)
        ratio = s.ratio("tuned", sh)
        ratios.append(ratio)
        cells.append(fmt_ratio(ratio))
        rows.append(cells)
    out.append("%s SGEMM: tuned vs cuBLAS at every shape\n" % h)
    if rows:
        out.append(md_table(["shape m\u00d7n\u00d7k", "tuned (TFLOP/s)", "cuBLAS (TFLOP/s)", "tuned / cuBLAS"],
                            rows))
        gm = geomean(ratios)
        counted = len([r for r in ratios if r is not None and r > 0])
        if counted:
            out.append("\nGeometric mean of tuned / cuBLAS over %d shape%s: **%s**" % (
                counted, "" if counted == 1 else "s", fmt_ratio(gm)))
        if notes.items:
            out.append("\n" + notes.render())
    else:
        out.append("No tuned or cuBLAS record in sgemm.json.")

    shape = s.ladder_shape()
    out.append("\n%s SGEMM rung ladder at %s\n" % (h, "%d\u00b3" % shape[0] if shape else "4096\u00b3"))
    if shape is None:
        out.append("No square shape in sgemm.json.")
    else:
        notes = Notes()
        rows = []
        prev = None
        for algo in s.rungs + ["cublas"]:
            r = s.rec(algo, shape)
            if r is None:
                continue
            v = s.tflops(algo, shape)
            why = skipped_reason(r)
            cell = fmt_num(v) if v is not None else DASH + (notes.mark(why) if why else "")
            if r.get("mismatch") is True:
                cell += " " + notes.mark(MISMATCH_NOTE)
            step = DASH
            if algo != "cublas":
                step = fmt_ratio(v / prev) if v is not None and prev else DASH
                if v is not None:
                    prev = v
            name = "cuBLAS (reference)" if algo == "cublas" else "`%s`" % algo
            rows.append([name, cell, fmt_ratio(s.ratio(algo, shape)), step])
        out.append(md_table(["rung", "TFLOP/s", "vs cuBLAS", "vs previous rung"], rows))
        if notes.items:
            out.append("\n" + notes.render())
    out.append("\n" + "\n".join("![%s](%s)" % (alt, img(name)) for name, alt in (
        ("sgemm_4096.png", "SGEMM TFLOP/s per rung vs cuBLAS"),
        ("sgemm_square.png", "SGEMM TFLOP/s over square sizes"),
        ("sgemm_shapes.png", "SGEMM tuned vs cuBLAS over shapes"))))
    return "\n".join(out)


def reduce_section(r, h, img):
    out = ["%s Sum reduction: GB/s (ratio to CUB)\n" % h]
    if not r.sizes:
        out.append("No reduce record in reduce.json.")
    else:
        notes = Notes()
        header = ["variant"] + ["n = %s%s" % (pow2_label(n), " (%s)" % human_bytes(4 * n)) for n in r.sizes]
        rows = []
        for algo in r.variants + ["cub"]:
            if not any(r.rec(algo, n) is not None for n in r.sizes):
                continue
            cells = ["CUB (reference)" if algo == "cub" else "`%s`" % algo]
            for n in r.sizes:
                rec = r.rec(algo, n)
                v = r.gbs(algo, n)
                if v is None:
                    why = skipped_reason(rec)
                    cell = DASH + (notes.mark(why) if why else "")
                elif algo == "cub":
                    cell = fmt_num(v)
                else:
                    cell = "%s (%s)" % (fmt_num(v), fmt_ratio(r.ratio(algo, n)))
                if rec is not None and rec.get("mismatch") is True:
                    cell += " " + notes.mark(MISMATCH_NOTE)
                cells.append(cell)
            rows.append(cells)
        out.append(md_table(header, rows))
        if notes.items:
            out.append("\n" + notes.render())
    if r.copy_gbs is not None:
        out.append("\nDevice-to-device copy bandwidth (read + write), the memory ceiling: **%s GB/s**."
                   % fmt_num(r.copy_gbs))
    else:
        out.append("\nDevice-to-device copy bandwidth: %s (not in reduce.json)." % DASH)
    out.append("\n![Sum reduction GB/s vs CUB and copy bandwidth](%s)" % img("reduce.png"))
    return "\n".join(out)


def top2_section(t, h, img):
    out = ["%s SGEMM + top-2 argmin: fused vs unfused (median ms, lower is better)\n" % h]
    if not t.shapes:
        out.append("No record in top2.json.")
    else:
        notes = Notes()
        header = ["shape m\u00d7n\u00d7k"] + [TOP2_COLUMN.get(p, p + " (ms)") for p in t.paths] + [
            "fused speedup vs cuBLAS + CUB", "fused / ours SGEMM only"]
        rows = []
        for sh in t.shapes:
            cells = [shape_label(*sh)]
            for p in t.paths:
                rec = t.rec(p, sh)
                v = t.ms(p, sh)
                why = skipped_reason(rec)
                cell = fmt_num(v) if v is not None else DASH + (notes.mark(why) if why else "")
                if rec is not None and rec.get("mismatch") is True:
                    cell += " " + notes.mark(MISMATCH_NOTE)
                cells.append(cell)
            cells += [fmt_ratio(t.speedup(sh)), fmt_ratio(t.fused_over_plain(sh))]
            rows.append(cells)
        out.append(md_table(header, rows))
        out.append("\n`fused` finds the two smallest entries in the SGEMM epilogue; `cuBLAS + CUB argmin\u00d72` "
                   "stores C with cuBLAS and then searches it with CUB; the \"only\" columns are the SGEMM "
                   "alone (no top-2) for reference.")
        if notes.items:
            out.append("\n" + notes.render())
    out.append("\n![SGEMM + top-2: fused vs unfused](%s)" % img("top2.png"))
    return "\n".join(out)


def build_summary(models, headers, present, missing, image_prefix, level, malformed=()):
    h = "#" * level

    def img(name):
        return (image_prefix.rstrip("/") + "/" + name) if image_prefix else name

    parts = [header_block(headers, present, missing, malformed)]
    if "sgemm" in models:
        parts.append(sgemm_sections(models["sgemm"], h, img))
    if "reduce" in models:
        parts.append(reduce_section(models["reduce"], h, img))
    if "top2" in models:
        parts.append(top2_section(models["top2"], h, img))
    return "\n\n".join(parts) + "\n"


# ----------------------------------------------------------------------------------------------
# --check and --readme

def check_outputs(out_dir, present, gpus):
    problems = []
    for name in present:
        for png in PLOTS[name]:
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
    return problems


def update_readme(path, block):
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise Malformed("cannot read %s: %s" % (path, e))
    begin, end = BEGIN_MARKER.encode(), END_MARKER.encode()
    if data.count(begin) != 1 or data.count(end) != 1:
        raise Malformed("%s must contain %s and %s exactly once each" % (path, BEGIN_MARKER, END_MARKER))
    b = data.index(begin) + len(begin)
    e = data.index(end)
    if e < b:
        raise Malformed("%s: %s comes before %s" % (path, END_MARKER, BEGIN_MARKER))
    nl = b"\r\n" if b"\r\n" in data else b"\n"
    body = block.rstrip("\n").replace("\n", nl.decode()).encode("utf-8")
    new = (data[:b] + nl + b"<!-- Generated by bench/report.py --readme; edits here are overwritten. -->" + nl
           + nl + body + nl + nl + data[e:])
    if new != data:
        tmp = path + ".tmp"
        with open(tmp, "wb") as f:
            f.write(new)
        os.replace(tmp, path)
    return new != data


# ----------------------------------------------------------------------------------------------

def main(argv=None):
    ap = argparse.ArgumentParser(
        description="Render libgpuprims benchmark JSON (reduce.json, sgemm.json, top2.json) into PNG plots "
                    "and summary.md. Needs matplotlib, not a GPU.")
    ap.add_argument("--input-dir", required=True, help="folder holding reduce.json, sgemm.json, top2.json")
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
    for name in INPUTS:
        p = os.path.join(in_dir, name + ".json")
        if not os.path.exists(p):
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
        log("no usable input in %s: need at least one of reduce.json, sgemm.json, top2.json" % in_dir)
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
    builders = {"sgemm": (Sgemm, [plot_sgemm_ladder, plot_sgemm_square, plot_sgemm_shapes]),
                "reduce": (Reduce, [plot_reduce]), "top2": (Top2, [plot_top2])}
    for name in present:
        cls, plots = builders[name]
        models[name] = cls(docs[name])
        for fn, png in zip(plots, PLOTS[name]):
            try:
                fn(plt, models[name], os.path.join(out_dir, png))
            except Exception as e:  # a plot must not take the others (or the summary) down with it
                log("could not draw %s: %s: %s" % (png, type(e).__name__, e))
                plt.close("all")
                failed = True

    headers = [(n, models[n].header) for n in present]
    summary = "# libgpuprims benchmark results\n\n" + build_summary(models, headers, present, missing + malformed, "", 2,
                                                                       malformed)
    with open(os.path.join(out_dir, "summary.md"), "w", encoding="utf-8") as f:
        f.write(summary)
    written = [p for n in present for p in PLOTS[n]] + ["summary.md"]
    log("wrote %s into %s" % (", ".join(written), out_dir))

    if args.check:
        problems = check_outputs(out_dir, present, sorted({h.gpu for _, h in headers}))
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
        block = build_summary(models, headers, present, missing + malformed, prefix, 4, malformed)
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
