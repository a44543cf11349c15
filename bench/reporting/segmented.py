"""segmented.json (bench/segmented_bench): the row-wise reductions (reduce_rows.hpp) beside
cub::DeviceSegmentedReduce. Its view and its Markdown table (no plot). Optional: report.py renders it
when the file is present and says nothing of it otherwise."""

from .common import fmt_num, fmt_ratio, pow2_label
from .load import Header, integer, num, skipped, text

CUB = "cub"
OURS = "ours"


class Segmented:
    """(algorithm, dtype, cols) -> {impl: record}, cases in file order. The field names are the ones
    scripts/perf_gate.py keys records by."""

    def __init__(self, doc):
        self.header = Header(doc)
        self.copy_gbs = num(doc, "copy_gbs")
        self.total = integer(doc, "total_elements")
        self.records = {}
        self.cases = []
        for r in doc["results"]:
            op, typ, cols, impl = text(r, "algorithm"), text(r, "dtype"), integer(r, "cols"), text(r, "impl")
            if op is None or typ is None or cols is None or impl not in (CUB, OURS):
                continue
            key = (op, typ, cols)
            self.records.setdefault(key, {})[impl] = r
            if key not in self.cases:
                self.cases.append(key)

    def rec(self, key, impl):
        r = self.records.get(key, {}).get(impl)
        return None if skipped(r) else r

    def gbs(self, key, impl):
        return num(self.rec(key, impl) or {}, "gbs")

    def ratio(self, key):
        r = self.rec(key, OURS)
        v = num(r or {}, "ratio_to_cub")
        if v is None:
            a, b = self.gbs(key, OURS), self.gbs(key, CUB)
            v = a / b if a is not None and b else None
        return v


def segmented_section(s, h):
    from .markdown import MISMATCH_NOTE, Notes, md_table
    out = ["%s Row-wise reductions vs cub::DeviceSegmentedReduce\n" % h]
    if not s.cases:
        out.append("No record in segmented.json.")
        return "\n".join(out)
    notes = Notes()
    rows = []
    for key in s.cases:
        op, typ, cols = key
        ours = s.rec(key, OURS)
        cell = fmt_num(s.gbs(key, OURS))
        if ours is not None and ours.get("mismatch") is True:
            cell += " " + notes.mark(MISMATCH_NOTE)
        rows.append([op, typ, pow2_label(cols), str(integer(ours or s.rec(key, CUB) or {}, "rows") or "\u2014"), cell,
                     fmt_num(s.gbs(key, CUB)), fmt_ratio(s.ratio(key)) if s.rec(key, CUB) else "\u2014"])
    out.append(md_table(["op", "type", "row length", "rows", "ours (GB/s)", "CUB (GB/s)", "ours / CUB"], rows))
    extra = []
    if s.total:
        extra.append("%s elements per case" % pow2_label(s.total))
    if s.copy_gbs:
        extra.append("device-to-device copy %s GB/s" % fmt_num(s.copy_gbs))
    out.append("\nGB/s counts the input read once; %s. The top-2 has no CUB baseline." % "; ".join(extra)
               if extra else "\nGB/s counts the input read once. The top-2 has no CUB baseline.")
    if notes.items:
        out.append("\n" + notes.render())
    return "\n".join(out)
