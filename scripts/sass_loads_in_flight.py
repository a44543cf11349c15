#!/usr/bin/env python3
"""How many of a loop's vector loads a kernel really has in flight, read off its SASS. The source may
issue eight 16-byte loads before it uses any, but ptxas schedules the machine code: to fit a register
budget it may put the first use of the first load before the later loads, so a thread waits out one
load's latency with only a few others issued. This finds each matching kernel's loop with the most
16- and 8-byte global loads (LDG.E.128 / LDG.E.64, with any cache hint) and walks it once in order: a load is in flight from
its issue until the first instruction that reads one of its registers. It prints the loop's loads and
the most in flight at once, with the kernel's register count when a ptxas -v log is given.

    cuobjdump needs the CUDA toolkit's binutils: on the lent GPU machines they are installed; here,
    Triton's wheel carries one (pip download triton, unzip triton/backends/nvidia/bin/cuobjdump).
    nvcc ... -cubin FILE.cu -o FILE.cubin [-Xptxas -v 2> FILE.log]
    python3 scripts/sass_loads_in_flight.py [--cuobjdump PATH] [--ptxas-log FILE.log] FILE.cubin REGEX

REGEX selects kernels by mangled name (e.g. reduce_partials_kernel). A loop is a backward branch and
the instructions from its target to it; the walk does not follow branches inside it, so a loop with
several paths (a rare case taken by branch) is read as if every path ran.
"""
import argparse
import re
import subprocess

INSTRUCTION = re.compile(r"\s+/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;")
BACKWARD = re.compile(r"BRA (?:`\(\.L_x_\d+\)|0x([0-9a-f]+))")
LOAD = re.compile(r"LDG\.E(?:\.[A-Z]+)*\.(128|64)(?:\.[A-Z]+)* (R\d+),")  # LDG.E.128, LDG.E.EF.128, ...
REGISTER = re.compile(r"(?<![A-Z])R(\d+)")  # R12, not UR12


def functions(sass):
    """(mangled name, [(address, instruction text)]) for each function of a cuobjdump -sass listing."""
    for part in re.split(r"\n\s+Function : ", sass)[1:]:
        name = part.split("\n", 1)[0].strip()
        yield name, [(int(m.group(1), 16), m.group(2)) for m in map(INSTRUCTION.match, part.split("\n")) if m]


def source_registers(text):
    """The registers an instruction reads: its operands after the first (the destination)."""
    operands = text.split(None, 1)[1] if " " in text else ""
    if text.startswith("@"):  # a predicate guard comes before the opcode
        operands = operands.split(None, 1)[1] if " " in operands else ""
    return {int(r) for r in REGISTER.findall(operands.split(",", 1)[1] if "," in operands else "")}


def hottest_loop(code):
    """The loop body (instruction texts) with the most vector loads, or None."""
    best = None
    for address, text in code:
        m = BACKWARD.search(text)
        if not (m and m.group(1)) or int(m.group(1), 16) >= address:
            continue
        body = [t for a, t in code if int(m.group(1), 16) <= a <= address]
        loads = sum(1 for t in body if LOAD.search(t))
        if loads and (best is None or loads > best[0]):
            best = (loads, body)
    return best


def most_in_flight(body):
    """The most loads issued and not yet used at any point of one pass over the body."""
    pending, most = [], 0
    for text in body:
        reads = source_registers(text)
        pending = [regs for regs in pending if not regs & reads]
        m = LOAD.search(text)
        if m:
            first = int(m.group(2)[1:])
            pending.append(set(range(first, first + (4 if m.group(1) == "128" else 2))))
            most = max(most, len(pending))
    return most


def ptxas_registers(log):
    """{mangled name: registers} from a ptxas -v log."""
    out, current = {}, None
    for line in open(log, encoding="utf-8"):
        m = re.search(r"Compiling entry function '([^']+)'", line)
        if m:
            current = m.group(1)
        m = re.search(r"Used (\d+) registers", line)
        if m and current:
            out[current], current = int(m.group(1)), None
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("cubin")
    parser.add_argument("regex")
    parser.add_argument("--cuobjdump", default="cuobjdump")
    parser.add_argument("--ptxas-log")
    args = parser.parse_args()
    sass = subprocess.run([args.cuobjdump, "-sass", args.cubin], capture_output=True, text=True, check=True).stdout
    registers = ptxas_registers(args.ptxas_log) if args.ptxas_log else {}
    for name, code in functions(sass):
        if not re.search(args.regex, name):
            continue
        loop = hottest_loop(code)
        regs = f"  {registers[name]} registers" if name in registers else ""
        if loop is None:
            print(f"{name}: no loop of vector loads{regs}")
        else:
            print(f"{name}: {loop[0]} loads in its loop, at most {most_in_flight(loop[1])} in flight{regs}")


if __name__ == "__main__":
    main()
