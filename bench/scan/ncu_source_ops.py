#!/usr/bin/env python3
"""Instructions executed by opcode from `ncu -i REP --page source --csv --print-source sass`.

    ncu_source_ops.py A.csv[.gz] [B.csv[.gz]]

One file: its total and its opcodes by count.  Two: the opcodes side by
side, largest difference first (A minus B), to say where A's extra
instructions are (bench/results/nvidia-h100/2026-12-07-scan-cols-ring-kgen).
"""
import collections
import csv
import gzip
import sys


def opcodes(path):
    """The instructions a kernel's SASS executed, summed by opcode (the
    mnemonic before its first dot, predicates dropped)."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", newline="") as f:
        rows = list(csv.reader(f))
    header = next(i for i, r in enumerate(rows) if "Instructions Executed" in r)
    names = rows[header]
    executed, source = names.index("Instructions Executed"), names.index("Source")
    counts = collections.Counter()
    for row in rows[header + 1:]:
        if len(row) <= executed or not row[executed].isdigit():
            continue
        words = row[source].split()
        if not words:
            continue
        op = words[1] if words[0].startswith("@") and len(words) > 1 else words[0]
        counts[op.split(".")[0]] += int(row[executed])
    return counts


def main(argv):
    if len(argv) not in (2, 3):
        sys.exit(__doc__.strip())
    a = opcodes(argv[1])
    if len(argv) == 2:
        print(f"total {sum(a.values()) / 1e6:.1f}M")
        for op, n in a.most_common():
            print(f"{op:10} {n / 1e6:9.1f}M")
        return
    b = opcodes(argv[2])
    print(f"total {sum(a.values()) / 1e6:.1f}M against {sum(b.values()) / 1e6:.1f}M")
    for op in sorted(set(a) | set(b), key=lambda o: b[o] - a[o]):
        print(f"{op:10} {a[op] / 1e6:9.1f}M {b[op] / 1e6:9.1f}M {(a[op] - b[op]) / 1e6:+9.1f}M")


if __name__ == "__main__":
    main(sys.argv)
