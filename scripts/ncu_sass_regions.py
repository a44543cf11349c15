#!/usr/bin/env python3
"""Where a kernel's time goes by region of its SASS: splits each kernel of an ncu source-page export
into the instructions its warps run many times (the main loop) and those they run about once (the
prologue and epilogue), and sums the warp-stall samples and executed instructions of each part. Two
exports of kernels that share a main loop (a plain GEMM and its fused top-2 twin) then show whether
the extra time is in the loop or around it, and which stall reasons carry it.

    ncu --section SourceCounters -o REPORT BINARY ARGS...
    ncu -i REPORT.ncu-rep --page source --csv --print-source sass > KERNEL-sass.csv
    python3 scripts/ncu_sass_regions.py [--top N] [--runs WARPS] KERNEL-sass.csv [MORE-sass.csv ...]

An instruction is "loop" when it ran more than a fifth as often as the kernel's most executed
instruction, "once" when it ran at all but less often, "never" otherwise. The per-warp columns divide
the executed instructions by the most executed "once" instruction's count (about one per warp).
--runs WARPS lists the straight runs of the code: consecutive instructions executed equally often (those
executed at least a fiftieth as often as the most executed one), each with its length, how often a warp
ran it (its count over the kernel's WARPS: the grid's blocks times warps a block),
its share of the kernel's stall samples, its two largest stall reasons and its commonest opcodes. A
persistent kernel's main loop and its per-tile epilogue then read apart, piece by piece.
--top N also lists the N "once" instructions with the most stall samples (address, samples, its two
largest stall reasons, the instruction), which says which part of the code run once holds the time:
the ranking's compares, a barrier, an atomic's round trip.
"""
import argparse
import collections
import csv

STALLS = ["stall_no_inst", "stall_not_selected", "stall_selected", "stall_wait", "stall_dispatch",
          "stall_short_sb", "stall_long_sb", "stall_math", "stall_barrier", "stall_branch_resolving",
          "stall_membar", "stall_imc"]


def kernels(path):
    """Each kernel of the export: its name and its rows (one per SASS instruction)."""
    found, current, header = [], None, None
    with open(path, newline="") as f:
        for row in csv.reader(f):
            if not row:
                continue
            if row[0] == "Kernel Name":
                current = {"name": row[1], "rows": []}
                found.append(current)
                header = None
            elif row[0] == "Address":
                header = row
            elif header and current is not None:
                r = dict(zip(header, row))
                r["executed"] = number(r["Instructions Executed"])  # parsed once, used by every sum
                current["rows"].append(r)
    return found


def number(text):
    try:
        return float(text.replace(",", ""))
    except (AttributeError, ValueError):
        return 0.0


def samples(row):
    """An instruction's warp-stall samples, all reasons together."""
    return number(row["Warp Stall Sampling (All Samples)"])


def opcode(source):
    words = source.split()
    if words and words[0].startswith("@"):  # predicate guard
        words = words[1:]
    return words[0].split(".")[0] if words else "?"


def largest_stalls(rows, n=2):
    """The n stall reasons with the most samples over `rows`, as "reason=samples" words."""
    reasons = sorted(((sum(number(r.get(s, "0")) for r in rows), s[6:]) for s in STALLS), reverse=True)[:n]
    return " ".join("%s=%d" % (name, v) for v, name in reasons if v > 0)


def top_once(rows, n):
    """The n instructions of `rows` with the most stall samples, a line each."""
    for r in sorted(rows, key=samples, reverse=True)[:n]:
        print("    %s %6d  %-28s %s" % (r.get("Address", "?"), samples(r), largest_stalls([r]),
                                      " ".join(r["Source"].split())[:70]))


def straight_runs(rows, warps):
    """The kernel's straight runs (see --runs), a line each, in address order."""
    most = max(r["executed"] for r in rows)
    total = sum(samples(r) for r in rows) or 1.0
    runs = []
    for r in rows:
        if runs and runs[-1][0]["executed"] == r["executed"]:
            runs[-1].append(r)
        else:
            runs.append([r])
    print("  straight runs (executed at least 1/50 as often as the most executed instruction):")
    print("    %-8s %5s %9s %7s %6s  %-30s %s" % ("address", "instr", "per warp", "samples", "share", "stalls", "opcodes"))
    for run in runs:
        if run[0]["executed"] < most / 50:
            continue
        sampled = sum(samples(r) for r in run)
        ops = collections.Counter(opcode(r["Source"]) for r in run)
        print("    %-8s %5d %9.1f %7d %5.1f%%  %-30s %s" % (
            run[0].get("Address", "?")[-8:], len(run), run[0]["executed"] / warps, sampled, 100.0 * sampled / total,
            largest_stalls(run), " ".join("%s:%d" % (o, n) for o, n in ops.most_common(6))))


def report(path, top=0, warps=0):
    for k in kernels(path):
        rows = k["rows"]
        if not rows:
            continue
        most = max(r["executed"] for r in rows)
        parts = collections.OrderedDict((c, []) for c in ("loop", "once", "never"))
        for r in rows:
            e = r["executed"]
            parts["loop" if e > most / 5 else ("once" if e > 0 else "never")].append(r)
        once_most = max([r["executed"] for r in parts["once"]] or [0.0])
        print("%s: %s" % (path.split("/")[-1], k["name"][:160]))
        for name, part in parts.items():
            if not part:
                continue
            sampled = sum(samples(r) for r in part)
            executed = sum(r["executed"] for r in part)
            stalls = " ".join("%s=%d" % (s[6:], sum(number(r.get(s, "0")) for r in part)) for s in STALLS)
            per_warp = "%7.0f" % (executed / once_most) if once_most else "      -"
            print("  %-5s static %5d  samples %6d  executed %11d  per warp %s  %s"
                  % (name, len(part), sampled, executed, per_warp, stalls))
        ops = collections.Counter()
        for r in parts["once"]:
            ops[opcode(r["Source"])] += r["executed"]
        if once_most:
            print("  once, per warp by opcode: " + ", ".join("%s %d" % (o, n / once_most) for o, n in ops.most_common(12)))
        if top > 0 and parts["once"]:
            print("  once, the %d instructions with the most samples:" % top)
            top_once(parts["once"], top)
        if warps > 0:
            straight_runs(rows, warps)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--top", type=int, default=0, metavar="N")
    parser.add_argument("--runs", type=int, default=0, metavar="WARPS")
    parser.add_argument("exports", nargs="+", metavar="KERNEL-sass.csv")
    args = parser.parse_args()
    for p in args.exports:
        report(p, args.top, args.runs)
