"""Constants, the log line and the number and shape formatting shared by plots and Markdown."""

import datetime
import math
import sys

DASH = "\u2014"  # shown for a missing or skipped value
TIMES = "\u00d7"


def log(msg):
    print("report: " + msg, file=sys.stderr)


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


def fmt_ratio_floor(v, decimals=3):
    """A ratio truncated (not rounded) to `decimals`: 0.8997 is 0.899x, never 0.900x, so a value shown
    at or above a target such as 0.9x is at or above it."""
    if v is None:
        return DASH
    scale = 10 ** decimals
    return "%.*f" % (decimals, math.floor(v * scale + 1e-6) / scale) + TIMES


# What the held-out classes of bench/gemm_shapes.cpp stand for; another class is shown by name only.
HELDOUT_CLASS_NOTES = {
    "random": "log-uniform m, n, k",
    "tiny_output_long_k": "small output, long k",
    "narrow": "m or n \u2264 16",
    "one_side_64_128": "one side of C 64 to 128",
    "squares_between": "squares between powers of two",
}

