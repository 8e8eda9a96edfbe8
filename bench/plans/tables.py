"""tables.py [--pair] TSV...: the tables of a plans.sh run (each TSV one
method's `kgen run --tsv` of the size plans, CUB timed alike): for each
file, kgen's time over CUB's for every plan at every n, a markdown table;
bold where above CUB's time (kgen slower).  Rows cut off before cub_us (a
run stopped mid-line) are left out; the count of results and of those not
verified ok closes each table.

Without --pair, each cell is one plan's ratio, kgen's spread in brackets
where it passes 20%.  With --pair, the plans go in pairs, as shipped / with
launch: chain: a plan file chain-nvidia-MODEL-NAME.yaml (the copies with
every entry's launch: chain that the 2026-11-28-chain run timed) is NAME's
second figure, any GPU's folder alike.

Moved here on 2026-12-02 from the results folders that ran it:
bench/results/nvidia-h200/2026-11-28-plans-report/tables.py (`tables.py DIR`
is `tables.py DIR/plans-events.tsv DIR/plans-graph.tsv`) and
bench/results/nvidia-h200/2026-11-28-chain/compare.py (`tables.py --pair`);
their output is unchanged."""
import csv
import math
import re
import sys


def bold(cell, ratio):
    return "**" + cell + "**" if ratio > 1 else cell


def table(path, pair):
    with open(path) as f:
        rows = [r for r in csv.DictReader(f, delimiter="\t") if r.get("cub_us")]
    method = rows[0]["method"] if rows else "?"
    bad = [r for r in rows if r["verify"] != "ok"]
    cell = {}
    for r in rows:
        name = r["spec"].split("/")[-1][:-5]
        kind = ""
        if pair:
            kind = "chain" if name.startswith("chain-") else "shipped"
            name = re.sub(r"^chain-nvidia-[a-z0-9]+-", "", name)
        cell[(int(r["n"]), name, kind)] = (float(r["time_us"]) / float(r["cub_us"]), float(r["spread"] or 0))
    names = sorted({k[1] for k in cell})
    ns = sorted({k[0] for k in cell})
    if pair:
        print(f"\n**{method}**: kgen's time over CUB's, as shipped / with launch: chain\n")
    else:
        print(f"\n**{method}**: kgen's time over CUB's (kgen's spread in brackets where it passes 20%)\n")
    print("| n | " + " | ".join(names) + " |")
    print("|---" * (len(names) + 1) + "|")
    for n in ns:
        cells = []
        for p in names:
            if pair:
                two = [cell.get((n, p, k)) for k in ("shipped", "chain")]
                cells.append(" / ".join("-" if c is None else bold(f"{c[0]:.2f}", c[0]) for c in two))
            else:
                r, s = cell[(n, p, "")]
                cells.append(bold(f"{r:.2f}" + (f" ({s * 100:.0f}%)" if s > 0.2 else ""), r))
        print(f"| 2^{round(math.log2(n))} | " + " | ".join(cells) + " |")
    print(f"\n{len(rows)} results, {len(bad)} not ok")


def main(argv):
    pair = bool(argv) and argv[0] == "--pair"
    paths = argv[1:] if pair else argv
    if not paths or any(p.startswith("-") for p in paths):
        sys.stderr.write("usage: tables.py [--pair] TSV...\n")
        return 2
    for path in paths:
        table(path, pair)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
