"""ncu_times.py: the kernel times in Nsight Compute's output, as a table.

    python3 bench/rows/ncu_times.py [--per N] [--label L] NCU_OUTPUT... > times.tsv

Each file is what `ncu --metrics gpu__time_duration.sum,launch__registers_per_thread,launch__block_size ...`
printed.  Its launches are taken N at a time (--per: the launches of one
shape, e.g. `kgen run --bench --runs 2` makes 5 a shape; default: all of
the file as one group), and each group gives a row: the file's name (or
--label), the group's index, the shortest gpu__time_duration in us, and the
kernel's registers a thread and block size (the group's first launch).
"""
import argparse
import os
import re
import sys

TIME = re.compile(r"gpu__time_duration\.sum\s+(\S+)\s+([\d.,]+)")
REGS = re.compile(r"launch__registers_per_thread\s+\S+\s+(\d+)")
BLOCK = re.compile(r"launch__block_size\s+(?:\S+\s+)?([\d,]+)\s*$", re.M)
NAME = re.compile(r"^\s+(\w+) \(\d+, \d+, \d+\)x\(\d+, \d+, \d+\)", re.M)
SCALE = {"ns": 1e-3, "us": 1.0, "usecond": 1.0, "ms": 1e3, "msecond": 1e3, "nsecond": 1e-3}


def groups(text, per):
    times = [float(v.replace(",", "")) * SCALE.get(u, 1.0) for u, v in TIME.findall(text)]
    regs, blocks, names = REGS.findall(text), BLOCK.findall(text), NAME.findall(text)
    per = per or len(times)
    for g in range(0, len(times), per or 1):
        yield (g // per, min(times[g:g + per]), regs[g] if g < len(regs) else "-",
               blocks[g].replace(",", "") if g < len(blocks) else "-", names[g] if g < len(names) else "-")


def main():
    p = argparse.ArgumentParser(description="kernel times from ncu's output")
    p.add_argument("files", nargs="+")
    p.add_argument("--per", type=int, default=0, help="launches a group (default: the whole file)")
    p.add_argument("--label", help="the first column (default: the file's name)")
    a = p.parse_args()
    if a.per < 0:
        sys.exit("ncu_times.py: --per must not be negative")
    print("file\tgroup\tkernel\ttime_us\tregisters\tblock")
    for f in a.files:
        with open(f) as h:
            text = h.read()
        for g, t, r, b, n in groups(text, a.per):
            print("%s\t%d\t%s\t%.3f\t%s\t%s" % (a.label or os.path.basename(f), g, n, t, r, b))


if __name__ == "__main__":
    main()
