"""Reading the benchmark JSON (bench/harness.cpp's Report) and the per-benchmark views of it.

Every file is an object of run-level fields (gpu, date, timing, ...) and a flat "results" list.
The names of the things compared (SGEMM rungs, reduce variants, top-2 paths) are taken from the
records in file order; only the references the ratios are defined against are named here.
"""

import json
import math

from .common import format_date, log

SGEMM_REFERENCE = "cublas"  # ratio_to_cublas is against this algorithm (cuBLAS in pedantic FP32)
SGEMM_REFERENCE_TF32 = "cublas_tf32"  # ratio_to_cublas_tf32 is against this one (cuBLAS, TF32 tensor-op math)
SGEMM_REFERENCES = (SGEMM_REFERENCE, SGEMM_REFERENCE_TF32)
REDUCE_REFERENCE = "cub"  # ratio_to_cub is against this algorithm
TOP2_FUSED = "fused"  # the path the speedup columns are about
TOP2_BASELINE = "cublas+cub_argmin_x2"  # speedup_vs_cublas_cub is against this path
TOP2_PLAIN_OURS = "ours_sgemm_plain"  # our SGEMM alone, no top-2
TOP2_PER_ROW_FORM = "per_row"  # top2.json records with "form": "per_row" (sgemm_row_top2_argmin)
ROW_TOP2_FUSED = "row_fused_no_store"  # the per-row path the ratio columns are about
ROW_TOP2_BASELINE = "cublas+row_top2_pass"  # speedup_vs_cublas_row_pass is against this path
LADDER_SHAPE = 4096

HELDOUT_SUITE = "heldout"  # sgemm.json records with "suite": "heldout"; the standard ones have no "suite"
ACCURACY_SUITE = "accuracy"  # sgemm.json records with "suite": "accuracy" (errors, no times)
STANDARD_SUITE = "standard"


class Malformed(Exception):
    pass


def num(rec, key):
    """A finite number from rec[key], or None (missing, null, non-numeric, NaN/inf, bool)."""
    v = rec.get(key) if isinstance(rec, dict) else None
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return None
    v = float(v)
    return v if math.isfinite(v) else None


def measured(rec, key):
    """A measured number from rec[key] that may be non-finite: the benchmark writes NaN and inf as the
    strings "nan", "inf", "-inf" (JSON has no such numbers). A float (NaN and inf included), or None
    when missing or not a number."""
    v = rec.get(key) if isinstance(rec, dict) else None
    if isinstance(v, str) and v.strip().lower() in ("nan", "inf", "+inf", "-inf", "infinity", "-infinity"):
        return float(v.strip().lower().replace("infinity", "inf"))
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return None
    return float(v)


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


def skipped(rec):
    return rec is None or "skipped" in rec


def ours_then_reference(names, reference):
    """names (first-appearance order) with the reference moved last."""
    return [n for n in names if n != reference] + ([reference] if reference in names else [])


# ----------------------------------------------------------------------------------------------
# SGEMM

class Sgemm:
    """The standard suite (records without "suite") and, when present, the held-out and accuracy suites.

    Standard-suite records of SGEMM_REFERENCES are the vendor's (cuBLAS FP32, cuBLAS TF32); every other
    algorithm is a rung of ours, in file (ladder) order."""

    def __init__(self, doc):
        self.header = Header(doc)
        self.records = {}  # (algorithm, m, n, k) -> record, standard suite only
        self.shapes = []
        names = []
        heldout = []
        accuracy = []
        other = {}
        for r in doc["results"]:
            suite = text(r, "suite")
            if suite == HELDOUT_SUITE:
                heldout.append(r)
                continue
            if suite == ACCURACY_SUITE:
                accuracy.append(r)
                continue
            if suite not in (None, STANDARD_SUITE):
                other[suite] = other.get(suite, 0) + 1
                continue
            algo = text(r, "algorithm")
            m, n, k = integer(r, "m"), integer(r, "n"), integer(r, "k")
            if algo is None or None in (m, n, k):
                continue
            self.records[(algo, m, n, k)] = r
            if (m, n, k) not in self.shapes:
                self.shapes.append((m, n, k))
            if algo not in names:
                names.append(algo)
        for suite, count in other.items():
            log('sgemm.json: %d record%s of suite "%s" not shown (known: none for the standard suite, "%s", "%s")'
                % (count, "" if count == 1 else "s", suite, HELDOUT_SUITE, ACCURACY_SUITE))
        self.rungs = [a for a in names if a not in SGEMM_REFERENCES]  # ours, in file (ladder) order
        self.heldout = Heldout(heldout, self.header) if heldout else None
        self.accuracy = Accuracy(accuracy) if accuracy else None

    def has(self, algo):
        """Whether any standard-suite record is of algo."""
        return any(key[0] == algo for key in self.records)

    def references(self):
        """The vendor algorithms present: cuBLAS FP32, then cuBLAS TF32 when the file has it."""
        return [a for a in SGEMM_REFERENCES if a == SGEMM_REFERENCE or self.has(a)]

    def rec(self, algo, shape):
        return self.records.get((algo,) + tuple(shape))

    def tflops(self, algo, shape):
        r = self.rec(algo, shape)
        if skipped(r):
            return None
        t = num(r, "tflops")
        if t is None:
            ms = num(r, "time_ms")
            if ms and ms > 0:
                m, n, k = shape
                t = 2.0 * m * n * k / (ms * 1e-3) / 1e12
        return t

    def ratio(self, algo, shape, reference=SGEMM_REFERENCE):
        """algo's throughput over the reference's (ratio_to_<reference>, else from the two TFLOP/s)."""
        r = self.rec(algo, shape)
        if skipped(r):
            return None
        if algo == reference:
            return 1.0
        v = num(r, "ratio_to_" + reference)
        if v is None:
            a, b = self.tflops(algo, shape), self.tflops(reference, shape)
            v = a / b if a is not None and b else None
        return v

    def headline(self):
        """The rung the every-shape table and plot compare with cuBLAS: "tuned", else the last rung."""
        if "tuned" in self.rungs or not self.rungs:
            return "tuned"
        return self.rungs[-1]

    def beyond_headline(self):
        """The rungs after the headline in ladder order (the tensor-core ones after tuned), shown beside
        it at every shape; none when the headline is not in the file."""
        ours = self.headline()
        return self.rungs[self.rungs.index(ours) + 1:] if ours in self.rungs else []

    def square_sizes(self):
        return sorted({m for (m, n, k) in self.shapes if m == n == k})

    def ladder_shape(self):
        """4096^3 when present, else the largest square size with any data."""
        sq = self.square_sizes()
        if LADDER_SHAPE in sq:
            return (LADDER_SHAPE,) * 3
        return (sq[-1],) * 3 if sq else None


class HeldoutShape:
    """One held-out shape: our record and cuBLAS's, timed in the same process."""

    def __init__(self, m, n, k, cls):
        self.m, self.n, self.k, self.cls = m, n, k, cls
        self.ours = None
        self.cublas = None

    @property
    def shape(self):
        return (self.m, self.n, self.k)

    @property
    def flops(self):
        return 2.0 * self.m * self.n * self.k

    def ms(self, which):
        r = self.ours if which == "ours" else self.cublas
        return None if skipped(r) else num(r, "time_ms")

    def ratio(self):
        """Ours over cuBLAS in throughput (cuBLAS time / our time): above 1 we are faster."""
        if skipped(self.ours) or skipped(self.cublas):
            return None
        v = num(self.ours, "ratio_to_cublas")
        if v is None or v <= 0:
            a, b = self.ms("ours"), self.ms("cublas")
            v = b / a if a and b is not None else None
        return v

    def plan(self):
        return text(self.ours, "plan") if self.ours is not None else None

    def mismatch(self):
        return self.ours is not None and self.ours.get("mismatch") is True


class ClassStats:
    def __init__(self, name, shapes):
        self.name = name
        self.shapes = shapes
        rated = [(s.ratio(), s) for s in shapes]
        rated = [(r, s) for r, s in rated if r is not None and r > 0]
        self.count = len(rated)
        self.unrated = len(shapes) - len(rated)
        self.geomean = math.exp(sum(math.log(r) for r, _ in rated) / len(rated)) if rated else None
        worst = min(rated, key=lambda rs: rs[0]) if rated else None
        self.worst = worst[0] if worst else None
        self.worst_shape = worst[1] if worst else None


class Heldout:
    """The held-out SGEMM suite: per shape, per class (in file order) and over all shapes."""

    ALL = "all"

    def __init__(self, records, header):
        self.header = header
        self.shapes = []  # HeldoutShape, file order
        self.classes = []  # class names, file order
        self.algorithm = None  # ours: the first algorithm other than cuBLAS in the file ("tuned")
        index = {}
        ignored = {}
        for r in records:
            algo = text(r, "algorithm")
            m, n, k = integer(r, "m"), integer(r, "n"), integer(r, "k")
            if algo is None or None in (m, n, k):
                continue
            if algo != SGEMM_REFERENCE:
                if self.algorithm is None:
                    self.algorithm = algo
                elif algo != self.algorithm:
                    ignored[algo] = ignored.get(algo, 0) + 1
                    continue
            cls = text(r, "class", "unclassified")
            key = (cls, m, n, k)
            s = index.get(key)
            if s is None:
                s = index[key] = HeldoutShape(m, n, k, cls)
                self.shapes.append(s)
                if cls not in self.classes:
                    self.classes.append(cls)
            if algo == SGEMM_REFERENCE:
                s.cublas = r
            else:
                s.ours = r
        if self.algorithm is None:
            self.algorithm = "tuned"
        for algo, count in ignored.items():
            log("sgemm.json: %d held-out record%s of %s not shown (the held-out tables show %s only)"
                % (count, "" if count == 1 else "s", algo, self.algorithm))

    def stats(self, cls=None):
        """ClassStats of one class, or of every shape (cls None)."""
        if cls is None:
            return ClassStats(self.ALL, self.shapes)
        return ClassStats(cls, [s for s in self.shapes if s.cls == cls])

    def sorted_shapes(self):
        """By class (file order), then FLOPs, then shape."""
        order = {c: i for i, c in enumerate(self.classes)}
        return sorted(self.shapes, key=lambda s: (order[s.cls], s.flops, s.shape))

    def max_rel_diff(self):
        vals = [num(s.ours, "max_rel_diff_vs_cublas") for s in self.shapes if s.ours is not None]
        vals = [v for v in vals if v is not None]
        return max(vals) if vals else None

    def mismatches(self):
        return [s for s in self.shapes if s.mismatch()]


class Accuracy:
    """The accuracy suite: per (shape, inputs), one record per algorithm, each with the max and RMS of
    |C - ref| / sum_p |A_ip B_pj| against a double-precision reference (absolute and in units of 2^-24)
    and, for all but tuned, their ratio to tuned's. NaN and inf are kept (measured())."""

    def __init__(self, records):
        self.groups = []  # [((m, n, k), inputs, [record, ...])], file order
        index = {}
        for r in records:
            algo = text(r, "algorithm")
            m, n, k = integer(r, "m"), integer(r, "n"), integer(r, "k")
            if algo is None or None in (m, n, k):
                continue
            key = ((m, n, k), text(r, "inputs", "?"))
            if key not in index:
                index[key] = []
                self.groups.append((key[0], key[1], index[key]))
            index[key].append(r)

    def shapes(self):
        out = []
        for shape, _, _ in self.groups:
            if shape not in out:
                out.append(shape)
        return out


# ----------------------------------------------------------------------------------------------
# Reduce

class Reduce:
    def __init__(self, doc):
        self.header = Header(doc)
        self.copy_gbs = num(doc, "copy_gbs")
        self.records = {}
        self.sizes = []
        # The typed reductions (records with "variant" (the operator) and "dtype", no "algorithm"):
        # (operator, type, impl, n) -> record, with the operators, types and sizes in file order.
        self.latency_n = integer(doc, "latency_n")
        self.typed = {}
        self.typed_ops, self.typed_types, self.typed_sizes = [], [], []
        names = []
        for r in doc["results"]:
            algo = text(r, "algorithm")
            n = integer(r, "n")
            op, ty, impl = text(r, "variant"), text(r, "dtype"), text(r, "impl")
            if algo is None and op is not None and ty is not None and impl is not None and n is not None:
                self.typed[(op, ty, impl, n)] = r
                for seq, v in ((self.typed_ops, op), (self.typed_types, ty), (self.typed_sizes, n)):
                    if v not in seq:
                        seq.append(v)
                continue
            if algo is None or n is None:
                continue
            self.records[(algo, n)] = r
            if n not in self.sizes:
                self.sizes.append(n)
            if algo not in names:
                names.append(algo)
        self.sizes.sort()
        self.variants = [a for a in names if a != REDUCE_REFERENCE]  # ours, in file (ladder) order

    def rec(self, algo, n):
        return self.records.get((algo, n))

    def typed_rec(self, op, ty, impl, n):
        return self.typed.get((op, ty, impl, n))

    def time_us(self, algo, n):
        r = self.rec(algo, n)
        if skipped(r):
            return None
        ms = num(r, "time_ms")
        return ms * 1e3 if ms is not None else None

    def gbs(self, algo, n):
        r = self.rec(algo, n)
        if skipped(r):
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
        if skipped(r):
            return None
        if algo == REDUCE_REFERENCE:
            return 1.0
        v = num(r, "ratio_to_cub")
        if v is None:
            a, b = self.gbs(algo, n), self.gbs(REDUCE_REFERENCE, n)
            v = a / b if a is not None and b else None
        return v


# ----------------------------------------------------------------------------------------------
# Top-2

def top2_is_plain(path):
    """An SGEMM alone, without the top-2 search (shown for reference)."""
    return path.endswith("_plain")


def top2_is_vendor(path):
    """A path built on cuBLAS or CUB (the names say so: cublas..., ...cub_...)."""
    return "cub" in path


class Top2:
    def __init__(self, doc):
        self.header = Header(doc)
        self.records = {}
        self.shapes = []
        names = []
        # The per-row form's records (sgemm_row_top2_argmin) are a table of their own.
        self.rows = RowTop2([r for r in doc["results"] if text(r, "form") == TOP2_PER_ROW_FORM])
        for r in doc["results"]:
            if text(r, "form") is not None:
                continue
            path = text(r, "path")
            m, n, k = integer(r, "m"), integer(r, "n"), integer(r, "k")
            if path is None or None in (m, n, k):
                continue
            self.records[(path, m, n, k)] = r
            if (m, n, k) not in self.shapes:
                self.shapes.append((m, n, k))
            if path not in names:
                names.append(path)
        # File order, then stably: ours before the cuBLAS/CUB references, and the top-2 paths
        # before the SGEMM-alone ("_plain") rows.
        self.paths = sorted(names, key=lambda p: (top2_is_plain(p), top2_is_vendor(p)))

    def rec(self, path, shape):
        return self.records.get((path,) + tuple(shape))

    def ms(self, path, shape):
        r = self.rec(path, shape)
        if skipped(r):
            return None
        return num(r, "time_ms")

    def speedup(self, shape, path=TOP2_FUSED):
        """A path (default: fused) over cuBLAS + CUB (time of cuBLAS+CUB / time of the path)."""
        r = self.rec(path, shape)
        v = num(r, "speedup_vs_cublas_cub") if not skipped(r) else None
        if v is None:
            f, b = self.ms(path, shape), self.ms(TOP2_BASELINE, shape)
            v = b / f if f and b is not None else None
        return v

    def fused_over_plain(self, shape):
        f, p = self.ms(TOP2_FUSED, shape), self.ms(TOP2_PLAIN_OURS, shape)
        return f / p if f is not None and p else None


class RowTop2:
    """The per-row top-2 records of top2.json (the ratio-test kNN form), by path and shape."""

    def __init__(self, results):
        self.records = {}
        self.shapes = []
        self.paths = []
        for r in results:
            path = text(r, "path")
            m, n, k = integer(r, "m"), integer(r, "n"), integer(r, "k")
            if path is None or None in (m, n, k):
                continue
            self.records[(path, m, n, k)] = r
            if (m, n, k) not in self.shapes:
                self.shapes.append((m, n, k))
            if path not in self.paths:
                self.paths.append(path)

    def rec(self, path, shape):
        return self.records.get((path,) + tuple(shape))

    def ms(self, path, shape):
        r = self.rec(path, shape)
        return None if skipped(r) else num(r, "time_ms")

    def speedup(self, shape, path=ROW_TOP2_FUSED):
        """A path over cuBLAS + the per-row pass (time of the baseline / time of the path)."""
        f, b = self.ms(path, shape), self.ms(ROW_TOP2_BASELINE, shape)
        return b / f if f and b is not None else None

    def over_plain(self, shape, path=ROW_TOP2_FUSED, plain=TOP2_PLAIN_OURS):
        f, p = self.ms(path, shape), self.ms(plain, shape)
        return f / p if f is not None and p else None
