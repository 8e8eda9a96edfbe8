import sys, csv, math
for m in ("events", "graph"):
    rows = list(csv.DictReader(open(f"{sys.argv[1]}/plans-{m}.tsv"), delimiter="\t"))
    bad = [r for r in rows if r["verify"] != "ok"]
    plans = sorted({r["spec"].split("/")[-1][:-5] for r in rows})
    ns = sorted({int(r["n"]) for r in rows})
    t = {(int(r["n"]), r["spec"].split("/")[-1][:-5]): (float(r["time_us"]) / float(r["cub_us"]), float(r["spread"])) for r in rows}
    print(f"\n**{m}**: kgen's time over CUB's (kgen's spread in brackets where it passes 20%)\n")
    print("| n | " + " | ".join(plans) + " |")
    print("|---" * (len(plans) + 1) + "|")
    for n in ns:
        cells = []
        for p in plans:
            r, s = t[(n, p)]
            c = f"{r:.2f}" + (f" ({s*100:.0f}%)" if s > 0.2 else "")
            cells.append(("**" + c + "**") if r > 1 else c)
        print(f"| 2^{round(math.log2(n))} | " + " | ".join(cells) + " |")
    print(f"\n{len(rows)} results, {len(bad)} not ok")
