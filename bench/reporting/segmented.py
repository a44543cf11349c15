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


def plan_label(rec):
    """The plan a record ran (segmented_bench's row_plan / lanes / block_threads / splits), e.g. "block
    of 128"."""
    path = text(rec, "row_plan")
    if path == "lane_group":
        lanes = integer(rec, "lanes")
        return "%s %s a row" % (lanes, "lane" if str(lanes) == "1" else "lanes")
    if path == "block_per_row":
        return "block of %s" % integer(rec, "block_threads")
    if path == "split_row":
        return "%s splits of %s" % (integer(rec, "splits"), integer(rec, "block_threads"))
    return "\u2014"


def segmented_section(s, h):
    """One row per row length: ours / CUB for each (op, type) with a CUB baseline, floored to three
    decimals (a ratio shown as 1.000x is at least 1.0), then our GB/s of each, and the top-2's GB/s."""
    from .common import fmt_ratio_floor
    from .markdown import MISMATCH_NOTE, Notes, md_table
    out = ["%s Row-wise reductions vs cub::DeviceSegmentedReduce\n" % h]
    if not s.cases:
        out.append("No record in segmented.json.")
        return "\n".join(out)
    notes = Notes()
    lengths, ops, plain = [], [], []
    for op, typ, cols in s.cases:
        if cols not in lengths:
            lengths.append(cols)
        if (op, typ) not in ops:
            ops.append((op, typ))
    vs_cub = [o for o in ops if any(s.rec((o[0], o[1], c), CUB) for c in lengths)]
    plain = [o for o in ops if o not in vs_cub]
    header = ["row length", "rows", "plan"] + ["%s %s" % o for o in vs_cub] + ["%s %s (GB/s)" % o for o in vs_cub + plain]
    rows = []
    worst = None
    for cols in sorted(lengths):
        any_rec = next((s.rec((o[0], o[1], cols), OURS) for o in ops if s.rec((o[0], o[1], cols), OURS)), None)
        row = [pow2_label(cols), str(integer(any_rec or {}, "rows") or "\u2014"), plan_label(any_rec or {})]
        for o in vs_cub:
            key = (o[0], o[1], cols)
            r = s.ratio(key) if s.rec(key, CUB) else None
            cell = fmt_ratio_floor(r)
            ours = s.rec(key, OURS)
            if ours is not None and ours.get("mismatch") is True:
                cell += " " + notes.mark(MISMATCH_NOTE)
            if r is not None and (worst is None or r < worst[0]):
                worst = (r, "%s %s" % o, cols)
            row.append(cell)
        for o in vs_cub + plain:
            cell = fmt_num(s.gbs((o[0], o[1], cols), OURS))
            ours = s.rec((o[0], o[1], cols), OURS)
            if ours is not None and plan_label(ours) != row[2]:
                cell += " (%s)" % plan_label(ours)  # this operator's own plan (e.g. the top-2's blocks)
            row.append(cell)
        rows.append(row)
    out.append(md_table(header, rows))
    extra = []
    if s.total:
        extra.append("%s elements per case (the rows that fit)" % pow2_label(s.total))
    if s.copy_gbs:
        extra.append("device-to-device copy %s GB/s" % fmt_num(s.copy_gbs))
    text = "\nRatios are ours / CUB in GB/s (input read once), floored to three decimals"
    if worst is not None:
        text += "; the lowest is %s for %s at row length %s" % (fmt_ratio_floor(worst[0]), worst[1],
                                                                   pow2_label(worst[2]))
    text += ". " + ("; ".join(extra) + ". " if extra else "") + "The top-2 has no CUB baseline."
    out.append(text)
    if notes.items:
        out.append("\n" + notes.render())
    return "\n".join(out)
