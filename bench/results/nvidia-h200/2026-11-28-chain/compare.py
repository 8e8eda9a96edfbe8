"""compare.py EVENTS.tsv GRAPH.tsv: for each method, each plan's time over
CUB's as shipped and with launch: chain (plans/chain-nvidia-MODEL-NAME.yaml),
at every n, from one run's plans.sh tables; bold where above CUB's time."""
import csv, math, re, sys

for path in sys.argv[1:]:
    rows = [r for r in csv.DictReader(open(path), delimiter="\t") if r.get("cub_us")]  # a cut-off last line: left out
    method = rows[0]["method"] if rows else "?"
    bad = [r for r in rows if r["verify"] != "ok"]
    ratio = {}
    for r in rows:
        base = r["spec"].split("/")[-1][:-5]
        kind = "chain" if base.startswith("chain-") else "shipped"
        name = re.sub(r"^chain-nvidia-[a-z0-9]+-", "", base)  # chain.py's names, any GPU's folder
        ratio[(int(r["n"]), name, kind)] = float(r["time_us"]) / float(r["cub_us"])
    names = sorted({k[1] for k in ratio})
    ns = sorted({k[0] for k in ratio})
    print(f"\n**{method}**: kgen's time over CUB's, as shipped / with launch: chain\n")
    print("| n | " + " | ".join(names) + " |")
    print("|---" * (len(names) + 1) + "|")
    for n in ns:
        cells = []
        for p in names:
            a, b = ratio.get((n, p, "shipped")), ratio.get((n, p, "chain"))
            f = lambda v: "-" if v is None else (f"**{v:.2f}**" if v > 1 else f"{v:.2f}")
            cells.append(f"{f(a)} / {f(b)}")
        print(f"| 2^{round(math.log2(n))} | " + " | ".join(cells) + " |")
    print(f"\n{len(rows)} results, {len(bad)} not ok")
