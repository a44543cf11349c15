"""dist.json (bench/dist_bench): one GPU against all GPUs through gpuprims::dist. Its view, its plot
(dist.png: speedup per workload against the targets) and its Markdown section."""

from .common import fmt_num, fmt_ratio, human_bytes, pow2_label, shape_label
from .load import Header, integer, num, skipped, text

ONE_GPU = "one_gpu"
DIST = "dist"
# Workloads in the order of the issue, with how each is named in the plot and the tables.
WORKLOAD_LABELS = {
    "sgemm": "SGEMM (B broadcast)",
    "top2": "fused top-2 (C not stored)",
    "top2_b_broadcast": "fused top-2, B broadcast",
    "sum": "sum",
}


class Dist:
    """The pairs (one GPU, all GPUs) of dist.json, per workload, in file order."""

    def __init__(self, doc):
        self.header = Header(doc)
        self.gpus = integer(doc, "gpus")
        self.records = {}  # (workload, impl) -> record
        self.workloads = []
        for r in doc["results"]:
            w, impl = text(r, "workload"), text(r, "impl")
            if w is None or impl not in (ONE_GPU, DIST):
                continue
            self.records[(w, impl)] = r
            if w not in self.workloads:
                self.workloads.append(w)

    def rec(self, workload, impl):
        r = self.records.get((workload, impl))
        return None if skipped(r) else r

    def ms(self, workload, impl):
        return num(self.rec(workload, impl) or {}, "time_ms")

    def one_gpu_ms(self, workload):
        """The one-GPU time a workload is compared with (top2_b_broadcast shares top2's)."""
        v = self.ms(workload, ONE_GPU)
        if v is None and workload.startswith("top2"):
            v = self.ms("top2", ONE_GPU)
        return v

    def speedup(self, workload):
        r = self.rec(workload, DIST)
        v = num(r or {}, "speedup")
        if v is None:
            one, many = self.one_gpu_ms(workload), self.ms(workload, DIST)
            v = one / many if one and many else None
        return v

    def target(self, workload):
        return num(self.rec(workload, DIST) or {}, "target_speedup")

    def shape(self, workload):
        r = self.rec(workload, DIST) or self.rec(workload, ONE_GPU) or {}
        m, n, k = integer(r, "m"), integer(r, "n"), integer(r, "k")
        if None not in (m, n, k):
            return shape_label(m, n, k)
        n = integer(r, "n")
        if n is not None:
            per = integer(r, "n_per_gpu")
            return "%s floats (%s)%s" % (pow2_label(n), human_bytes(4 * n), ", %s per GPU" % pow2_label(per) if per else "")
        return ""

    def gpus_of(self, workload):
        return integer(self.rec(workload, DIST) or {}, "gpus") or self.gpus


def plot_dist(plt, d, path):
    from .plots import footer, no_data, save, set_title
    gpus = d.gpus or "all"
    title = "gpuprims::dist: speedup of %s GPUs over one (higher is better)" % gpus
    workloads = [w for w in d.workloads if d.speedup(w) is not None]
    if not workloads:
        return no_data(plt, path, title, d.header, "no workload with both a one-GPU and a multi-GPU time in dist.json")
    fig, ax = plt.subplots(figsize=(max(7.5, 2.2 * len(workloads) + 2.5), 5.2))
    xs = list(range(len(workloads)))
    top = max([d.speedup(w) for w in workloads] + [d.target(w) or 0 for w in workloads] + [float(d.gpus or 2)])
    drew_target = False
    for x, w in zip(xs, workloads):
        sp, target = d.speedup(w), d.target(w)
        met = target is None or sp >= target
        ax.bar(x, sp, 0.6, color="#1a9850" if met else "#d73027", alpha=0.9 if target is not None else 0.45)
        if target is not None:
            ax.hlines(target, x - 0.42, x + 0.42, colors="#222222", linestyles="--", linewidth=1.8,
                      label=None if drew_target else "target")
            drew_target = True
        note = "%s%s\n%s ms \u2192 %s ms" % (fmt_ratio(sp), " (target %s)" % fmt_ratio(target) if target else "",
                                          fmt_num(d.one_gpu_ms(w)), fmt_num(d.ms(w, DIST)))
        ax.annotate(note, (x, max(sp, target or 0)), xytext=(0, 4), textcoords="offset points", ha="center",
                    va="bottom", fontsize=8, bbox=dict(boxstyle="round,pad=0.15", fc="white", ec="none", alpha=0.85))
    if d.gpus:
        ax.axhline(d.gpus, color="#999999", linestyle=":", linewidth=1.0, label="ideal (%d\u00d7)" % d.gpus)
    if d.gpus or drew_target:
        ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax.set_xticks(xs)
    ax.set_xticklabels(["%s\n%s" % (WORKLOAD_LABELS.get(w, w), d.shape(w)) for w in workloads], fontsize=8)
    ax.set_xlim(-0.6, len(workloads) - 0.4)
    ax.set_ylim(0, top * 1.25)
    ax.set_ylabel("one-GPU time / multi-GPU time")
    ax.set_xlabel("workload (multi-GPU time includes every collective, e.g. the broadcast of B)")
    set_title(ax, title, d.header)
    footer(ax, d.header)
    save(plt, fig, path)


def dist_section(d, h, img):
    from .markdown import MISMATCH_NOTE, Notes, md_table
    out = ["%s Multi-GPU (gpuprims::dist): one GPU vs %s GPUs\n" % (h, d.gpus or "all")]
    if not d.workloads:
        out.append("No record in dist.json.")
    else:
        notes = Notes()
        rows = []
        for w in d.workloads:
            target = d.target(w)
            sp = d.speedup(w)
            verdict = "" if target is None or sp is None else (" \u2713" if sp >= target else " \u2717")
            cell = fmt_num(d.ms(w, DIST))
            rec = d.rec(w, DIST)
            if rec is not None and rec.get("mismatch") is True:
                cell += " " + notes.mark(MISMATCH_NOTE)
            rows.append([WORKLOAD_LABELS.get(w, w), d.shape(w), fmt_num(d.one_gpu_ms(w)), cell,
                         fmt_ratio(sp) + verdict, fmt_ratio(target) if target is not None else "\u2014"])
        out.append(md_table(["workload", "shape", "one GPU (ms)", "%s GPUs (ms)" % (d.gpus or "all"), "speedup",
                             "target"], rows))
        out.append("\nThe multi-GPU time runs from a common start on every GPU to the last GPU's end and includes "
                   "the collectives (the broadcast of B, the gathers).")
        if notes.items:
            out.append("\n" + notes.render())
    out.append("\n![gpuprims::dist speedup per workload](%s)" % img("dist.png"))
    return "\n".join(out)
