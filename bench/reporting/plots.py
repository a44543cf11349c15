"""The PNGs: one function per plot, each drawing from a view in load.py (matplotlib, Agg backend).

A plot with nothing to show is still written, as a titled card that says why, so a results folder
always has the same files; the held-out plot is the exception, drawn only when sgemm.json has
held-out records (expected_plots says which files a view should produce).
"""

from .common import fmt_num, fmt_ratio, fmt_ratio_floor, shape_label
from .load import (REDUCE_REFERENCE, SGEMM_REFERENCE, SGEMM_REFERENCE_TF32, TOP2_BASELINE, TOP2_FUSED, text,
                   top2_is_plain)


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
VENDOR_TF32_COLOR = "#e67e22"  # cuBLAS with TF32 tensor-op math, beside cuBLAS FP32
SGEMM_VENDOR_LABELS = {SGEMM_REFERENCE: "cuBLAS", SGEMM_REFERENCE_TF32: "cuBLAS TF32"}
SGEMM_VENDOR_COLORS = {SGEMM_REFERENCE: VENDOR_COLOR, SGEMM_REFERENCE_TF32: VENDOR_TF32_COLOR}
SGEMM_VENDOR_LINES = {SGEMM_REFERENCE: "--", SGEMM_REFERENCE_TF32: ":"}
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
    title = "SGEMM TFLOP/s per rung at %s (FP32 in and out, higher is better)" % (
        "%d\u00b3" % shape[0] if shape else "4096\u00b3")
    if shape is None:
        return no_data(plt, path, title, s.header, "no square SGEMM shape in sgemm.json")
    rungs = list(s.rungs)
    vendors = [v for v in s.references() if s.rec(v, shape) is not None]
    algos = rungs + vendors
    labels = rungs + [SGEMM_VENDOR_LABELS[v] for v in vendors]
    heights = [s.tflops(a, shape) for a in algos]
    if not any(h is not None for h in heights):
        return no_data(plt, path, title, s.header, "no timed SGEMM record at this shape")
    fig, ax = plt.subplots(figsize=(max(9, 0.95 * len(labels) + 2.5), 5.6))
    colors = ladder_colors(plt, len(rungs)) + [SGEMM_VENDOR_COLORS[v] for v in vendors]
    xs = list(range(len(labels)))
    top = max([h for h in heights if h is not None] or [1.0])
    for x, h, c, algo in zip(xs, heights, colors, algos):
        vendor = algo in vendors
        if h is None:
            r = s.rec(algo, shape)
            why = "skipped" if r is not None and "skipped" in r else "not run"
            ax.text(x, top * 0.02, why, ha="center", va="bottom", rotation=90, fontsize=8, color="#888888")
            continue
        ax.bar(x, h, color=c, edgecolor="black" if vendor else "none", linewidth=0.8,
               hatch="//" if vendor else None, width=0.72)
        if algo == SGEMM_REFERENCE:
            note = "%s TFLOP/s\n(reference)" % fmt_num(h)
        else:
            ratio = s.ratio(algo, shape)
            note = "%s TFLOP/s\n%s cuBLAS" % (fmt_num(h), fmt_ratio(ratio)) if ratio is not None \
                else "%s TFLOP/s" % fmt_num(h)
        ax.annotate(note, (x, h), xytext=(0, 3), textcoords="offset points", ha="center", va="bottom",
                    fontsize=7.5, bbox=dict(boxstyle="round,pad=0.15", fc="white", ec="none", alpha=0.85))
    drawn_lines = False
    for v in vendors:
        h = s.tflops(v, shape)
        if h is not None:
            drawn_lines = True
            ax.axhline(h, color=SGEMM_VENDOR_COLORS[v], linestyle=SGEMM_VENDOR_LINES[v], linewidth=1.2, zorder=0,
                       label="%s: %s TFLOP/s" % (SGEMM_VENDOR_LABELS[v], fmt_num(h)))
    if drawn_lines:
        ax.legend(loc="upper left")
    ax.set_xticks(xs)
    ax.set_xticklabels(labels, rotation=30, ha="right")
    ax.set_xlim(-0.6, len(labels) - 0.4)
    ax.set_ylim(0, top * 1.25)
    ax.set_xlabel("SGEMM rung (ladder order)  \u2192  %s" % ", ".join(SGEMM_VENDOR_LABELS[v] for v in vendors))
    ax.set_ylabel("Throughput (TFLOP/s)")
    ax.grid(axis="x", visible=False)
    set_title(ax, title, s.header)
    footer(ax, s.header)
    save(plt, fig, path)


def plot_sgemm_square(plt, s, path):
    sizes = s.square_sizes()
    title = "SGEMM TFLOP/s over square sizes m = n = k (FP32 in and out, higher is better)"
    if not sizes:
        return no_data(plt, path, title, s.header, "no square SGEMM shape in sgemm.json")
    fig, ax = plt.subplots(figsize=(11, 6))
    drawn = False
    colors = ladder_colors(plt, len(s.rungs))
    ours = s.headline()
    for i, rung in enumerate(s.rungs):
        pts = [(n, s.tflops(rung, (n, n, n))) for n in sizes]
        pts = [(x, y) for x, y in pts if y is not None]
        if not pts:
            continue
        drawn = True
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker=MARKERS[i % len(MARKERS)], markersize=5,
                color=colors[i], linewidth=2.4 if rung == ours else 1.5, label=rung)
    for v in s.references():
        pts = [(n, s.tflops(v, (n, n, n))) for n in sizes]
        pts = [(x, y) for x, y in pts if y is not None]
        if pts:
            drawn = True
            ax.plot([p[0] for p in pts], [p[1] for p in pts], color=SGEMM_VENDOR_COLORS[v],
                    linestyle=SGEMM_VENDOR_LINES[v], linewidth=3, marker="o", markersize=6,
                    label=SGEMM_VENDOR_LABELS[v])
    if not drawn:
        plt.close(fig)
        return no_data(plt, path, title, s.header, "no timed square SGEMM record")
    log2_axis(ax, sizes, str)
    ax.set_ylim(bottom=0)
    ax.set_xlabel("Matrix size m = n = k (log\u2082 scale)")
    ax.set_ylabel("Throughput (TFLOP/s)")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), title="rung")
    set_title(ax, title, s.header)
    footer(ax, s.header)
    save(plt, fig, path)


def plot_sgemm_shapes(plt, s, path):
    ours, ref = s.headline(), SGEMM_REFERENCE
    extra = s.beyond_headline()  # the tensor-core rungs, drawn beside the headline
    vendors = s.references()
    series = [ours] + extra + vendors
    title = "SGEMM: %s vs %s over the standard shapes (FP32 in and out, higher is better)" % (
        ", ".join([ours] + extra), " and ".join(SGEMM_VENDOR_LABELS[v] for v in vendors))
    shapes = [sh for sh in s.shapes if s.rec(ours, sh) is not None or s.rec(ref, sh) is not None]
    if not shapes:
        return no_data(plt, path, title, s.header, "no %s or cuBLAS record in sgemm.json" % ours)
    fig, ax = plt.subplots(figsize=(max(8, (0.55 * len(series) + 0.35) * len(shapes) + 3), 5.6))
    w = 0.8 / len(series)
    values = {a: [s.tflops(a, sh) for sh in shapes] for a in series}
    xs = list(range(len(shapes)))
    top = max([v for vals in values.values() for v in vals if v is not None] or [1.0])
    extra_shades = (0.98, 0.62, 0.35)  # viridis, away from the headline's 0.85
    ours_colors = ladder_colors(plt, 10)[-1:] + [plt.get_cmap("viridis")(extra_shades[i % len(extra_shades)])
                                                 for i in range(len(extra))]
    for i, a in enumerate(series):
        offset = (i - (len(series) - 1) / 2) * w
        vendor = a in vendors
        ax.bar([x + offset for x in xs], [v or 0 for v in values[a]], w,
               color=SGEMM_VENDOR_COLORS[a] if vendor else ours_colors[i],
               hatch="//" if vendor else None, edgecolor="black" if vendor else "none", linewidth=0.6,
               label=SGEMM_VENDOR_LABELS[a] if vendor else "ours (%s)" % a)
        for x, sh, v in zip(xs, shapes, values[a]):
            if v is None:
                ax.text(x + offset, top * 0.02, "skipped" if s.rec(a, sh) is not None else "not run", rotation=90,
                        ha="center", va="bottom", fontsize=7 if len(series) > 2 else 8, color="#888888")
    for x, sh in zip(xs, shapes):
        r = s.ratio(ours, sh)
        if r is not None:
            high = max(values[a][x] or 0 for a in series)
            ax.annotate(fmt_ratio(r), (x, high), xytext=(0, 4), textcoords="offset points",
                        ha="center", va="bottom", fontsize=8.5, fontweight="bold")
    ax.set_xticks(xs)
    ax.set_xticklabels([shape_label(*sh) for sh in shapes], rotation=30 if len(shapes) > 4 else 0,
                       ha="right" if len(shapes) > 4 else "center")
    ax.set_ylim(0, top * 1.18)
    ax.set_xlabel("Shape m\u00d7n\u00d7k   (bold: %s / cuBLAS)" % ours)
    ax.set_ylabel("Throughput (TFLOP/s)")
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
                color=colors[i], linewidth=2.4 if i == len(r.variants) - 1 else 1.5, label=v)
    pts = [(n, r.gbs(REDUCE_REFERENCE, n)) for n in sizes]
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


# Pretty names and colours for the top-2 paths the benchmark writes today; a path not listed here
# is drawn under its own name in grey.
TOP2_LABELS = {
    TOP2_FUSED: "fused (ours)",
    "fused_no_store": "fused (ours),\nC not stored",
    "fused_no_store_tf32x3": "fused tf32x3 (ours),\nC not stored",
    "ours_sgemm+ours_top2": "ours SGEMM\n+ ours top-2",
    TOP2_BASELINE: "cuBLAS SGEMM\n+ CUB argmin \u00d72",
    "ours_sgemm_plain": "ours SGEMM only\n(no top-2)",
    "cublas_sgemm_plain": "cuBLAS SGEMM only\n(no top-2)",
}
TOP2_COLORS = {TOP2_FUSED: "#1a9850", "fused_no_store": "#91cf60", "fused_no_store_tf32x3": "#006837",
               "ours_sgemm+ours_top2": "#4575b4", TOP2_BASELINE: VENDOR_COLOR, "ours_sgemm_plain": "#bdbdbd",
               "cublas_sgemm_plain": "#f4a582"}


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
            plain = top2_is_plain(p)
            ax.bar(x, v, 0.7, color=TOP2_COLORS.get(p, "#999999"), hatch=".." if plain else None,
                   edgecolor="#444444" if plain else "none", linewidth=0.5)
            ax.annotate(fmt_num(v), (x, v), xytext=(0, 2), textcoords="offset points", ha="center",
                        va="bottom", fontsize=8)
        sp = t.speedup(sh)
        sub = shape_label(*sh)
        if sp is not None:
            sub += "\nfused: %s vs cuBLAS + CUB" % fmt_ratio(sp)
            fi = paths.index(TOP2_FUSED) if TOP2_FUSED in paths else None
            if fi is not None and vals[fi] is not None:
                ax.annotate("%s faster" % fmt_ratio(sp) if sp >= 1 else "%s slower" % fmt_ratio(1 / sp),
                            (fi, vals[fi]), xytext=(0, 14), textcoords="offset points", ha="center",
                            va="bottom", fontsize=8.5, fontweight="bold", color=TOP2_COLORS[TOP2_FUSED])
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



HELDOUT_COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22",
                  "#7f7f7f"]
HELDOUT_MARKERS = ["o", "s", "^", "D", "v", "P", "X", "h", "<"]
HELDOUT_PNG = "sgemm_heldout.png"
RATIO_TICKS = [0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0, 20.0]


def ratio_axis(ax, lo, hi):
    """A log y axis for ratios lo..hi labelled 0.5x, 1x, 2x (no exponents, no minor labels)."""
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator
    lo, hi = min(lo, 1.0), max(hi, 1.0)
    pad = (hi / lo) ** 0.08 if hi > lo else 1.5
    ax.set_yscale("log")
    ax.set_ylim(lo / pad, hi * pad)
    ticks = [t for t in RATIO_TICKS if lo / pad <= t <= hi * pad]
    ax.yaxis.set_major_locator(FixedLocator(ticks))
    ax.yaxis.set_minor_locator(NullLocator())
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: ("%g" % v) + "\u00d7"))


def plot_sgemm_heldout(plt, s, path):
    h = s.heldout
    title = "SGEMM held-out shapes: %s / cuBLAS against FLOPs (FP32, above 1\u00d7 = faster than cuBLAS)" % (
        h.algorithm if h is not None else "tuned")
    points = [(sh, sh.ratio()) for sh in (h.shapes if h is not None else [])]
    points = [(sh, r) for sh, r in points if r is not None and r > 0]
    if not points:
        return no_data(plt, path, title, s.header, "no held-out shape with both a %s and a cuBLAS time"
                       % (h.algorithm if h is not None else "tuned"))
    fig, ax = plt.subplots(figsize=(11, 6.2))
    for i, cls in enumerate(h.classes):
        pts = [(sh.flops, r) for sh, r in points if sh.cls == cls]
        if not pts:
            continue
        st = h.stats(cls)
        ax.scatter([p[0] for p in pts], [p[1] for p in pts], s=34, marker=HELDOUT_MARKERS[i % len(HELDOUT_MARKERS)],
                   color=HELDOUT_COLORS[i % len(HELDOUT_COLORS)], edgecolors="black", linewidths=0.4, alpha=0.85,
                   zorder=3, label="%s: %d, geomean %s" % (cls, st.count, fmt_ratio_floor(st.geomean)))
    bad = [(sh.flops, r) for sh, r in points if sh.mismatch()]
    if bad:
        ax.scatter([p[0] for p in bad], [p[1] for p in bad], s=120, marker="o", facecolors="none",
                   edgecolors=VENDOR_COLOR, linewidths=1.6, zorder=4,
                   label="\u26a0 result did not match cuBLAS")
    ax.axhline(1.0, color=VENDOR_COLOR, linestyle="--", linewidth=1.6, zorder=2, label="cuBLAS (1\u00d7)")
    every = h.stats()
    if every.geomean is not None:
        ax.axhline(every.geomean, color="#333333", linestyle=":", linewidth=1.2, zorder=2,
                   label="all %d shapes: geomean %s" % (every.count, fmt_ratio_floor(every.geomean)))
    if every.worst_shape is not None:
        w = every.worst_shape
        ax.annotate("worst: %s\n%s" % (shape_label(*w.shape), fmt_ratio_floor(every.worst)), (w.flops, every.worst),
                    xytext=(10, -4), textcoords="offset points", ha="left", va="top", fontsize=8,
                    arrowprops=dict(arrowstyle="-", color="#666666", linewidth=0.6),
                    bbox=dict(boxstyle="round,pad=0.2", fc="white", ec="none", alpha=0.85))
    ratios = [r for _, r in points]
    ratio_axis(ax, min(ratios), max(ratios))
    ax.set_xscale("log")
    flops = [sh.flops for sh, _ in points]
    ax.set_xlim(min(flops) / 2.5, max(flops) * 2.5)
    ax.set_xlabel("FLOPs per call, 2\u00b7m\u00b7n\u00b7k (log scale)")
    ax.set_ylabel("%s / cuBLAS  (cuBLAS time / %s time, log scale)" % (h.algorithm, h.algorithm))
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), title="class: shapes, geomean")
    set_title(ax, title, s.header)
    footer(ax, s.header)
    save(plt, fig, path)


# ----------------------------------------------------------------------------------------------
# Which files each view draws

def expected_plots(name, model):
    """[(png file name, draw function)] that the view `model` of NAME.json produces."""
    if name == "sgemm":
        out = [("sgemm_4096.png", plot_sgemm_ladder), ("sgemm_square.png", plot_sgemm_square),
               ("sgemm_shapes.png", plot_sgemm_shapes)]
        if model.heldout is not None:
            out.append((HELDOUT_PNG, plot_sgemm_heldout))
        return out
    if name == "reduce":
        return [("reduce.png", plot_reduce)]
    if name == "top2":
        return [("top2.png", plot_top2)]
    if name == "dist":
        from .dist import plot_dist
        return [("dist.png", plot_dist)]
    return []
