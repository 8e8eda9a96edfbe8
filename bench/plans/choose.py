"""choose.py RECORDS_DIR PLAN_DIR: re-choose the size plans' entries at the
sizes tuned in RECORDS_DIR (OP-DTYPE.records.jsonl.gz, kgen tune at 2^18 and
2^22 with launch: chain), by issue 23's bars instead of kgen tune's rule:
among the verified points at most 0.9 of CUB's time under graph replay (a
margin under the bar of 1.0 there), the least ratio to CUB back to back
(events).  Each chosen point takes the range between the tuned size's
neighbours as kgen tune bounds them (the geometric means of 2^(k-2), 2^k and
2^(k+2): 2^(k-1) and 2^(k+1)); the entries that covered it are cut around it.
Rewrites PLAN_DIR/OP-DTYPE.yaml in place and prints each choice.

Moved here on 2026-12-02 from bench/results/nvidia-h200/2026-11-29-plans-bars/,
the run that chose the H200's plans at 2^18 and 2^22 with it; the comments it
writes into a plan now name this path, and the note's sizes are the sizes
chosen (that run's were 2^18 and 2^22).  `kgen tune --method events,graph
--against cub --choose first --margin 10` chooses by the same rule, but over
whole plans; this splices the choices into plans already shipped."""
import glob, gzip, json, os, sys

GRAPH_MARGIN = 0.9


def load(path):
    points, cub = {}, {}
    for line in gzip.open(path, "rt"):
        r = json.loads(line)
        if r.get("verify") != "ok":
            continue
        key = (r["n"], r["method"])
        if "peer" in r:
            cub[key] = r["median_us"]
        else:
            points.setdefault((r["n"], r["spec"]), {})[r["method"]] = r
    return points, cub


def choose(points, cub, n):
    best = None
    for (pn, spec), m in points.items():
        if pn != n or "events" not in m or "graph" not in m:
            continue
        ev, gr = m["events"]["median_us"] / cub[(n, "events")], m["graph"]["median_us"] / cub[(n, "graph")]
        if gr <= GRAPH_MARGIN and (best is None or ev < best[0]):
            best = (ev, gr, spec, m)
    return best


def blocks(text):
    """The plan's header lines and its entries: [upto or None, lines]."""
    lines = text.splitlines()
    start = lines.index("plan:") + 1
    head, entries = lines[:start], []
    for line in lines[start:]:
        if line.startswith("  - "):
            entries.append([None, []])
        entries[-1][1].append(line)
    for e in entries:
        first = e[1][0]
        e[0] = int(first.split("upto:")[1]) if "upto:" in first else None
    return head, entries


def entry(upto, n, ev, gr, m, spec):
    """A new entry's lines: its bound, the measurement, the point's spec."""
    e, g = m["events"], m["graph"]
    lines = ["  - upto: %d" % upto,
             "    # n=2^%d %.2f/%.2f us (%.3f/%.3f of CUB) (%s), chosen on %s by"
             % (n.bit_length() - 1, e["median_us"], g["median_us"], ev, gr, e["label"] + " launch=chain", e["date"][:10]),
             "    # bench/plans/choose.py",
             "    spec:"]
    lines += ["      " + l for l in spec.strip().splitlines()]
    return lines


def replan(path, choices):
    head, entries = blocks(open(path).read())
    # the ranges: entry i covers (previous upto, upto]
    ranges, lo = [], 0
    for upto, lines in entries:
        ranges.append([lo, upto, lines])
        lo = upto
    for n, (ev, gr, spec, m) in sorted(choices.items()):
        lo, hi = n // 2, n * 2
        out = []
        for a, b, lines in ranges:
            bb = float("inf") if b is None else b
            if bb <= lo or a >= hi:
                out.append([a, b, lines])
                continue
            if a < lo:
                out.append([a, lo, lines])
            if bb > hi:
                out.append([hi, b, lines])
        out.append([lo, hi, entry(hi, n, ev, gr, m, spec)])
        out.sort(key=lambda r: r[0])
        ranges = out
    sizes = " and ".join("2^%d" % (n.bit_length() - 1) for n in sorted(choices))
    note = ["# Then the entries at %s chosen again among the points with launch: chain," % sizes,
            "# by issue 23's bars (bench/plans/choose.py); the",
            "# entries they cut keep their tuning comments, sizes they no longer cover included."]
    text = head[:-1] + note + head[-1:]
    for a, b, lines in ranges:
        first, rest = lines[0], lines[1:]
        if b is None:
            text.append("  - " + first[4:] if "upto:" not in first else "  -")
        else:
            text.append("  - upto: %d" % b)
            if "upto:" not in first:
                text.append("    " + first[4:])
        text += rest
    return "\n".join(text) + "\n"


def main():
    if len(sys.argv) != 3:
        sys.stderr.write("usage: choose.py RECORDS_DIR PLAN_DIR\n")
        sys.exit(2)
    rec_dir, plan_dir = sys.argv[1:3]
    for path in sorted(glob.glob(os.path.join(rec_dir, "*.records.jsonl.gz"))):
        name = os.path.basename(path).split(".")[0]
        points, cub = load(path)
        choices = {}
        for n in sorted({n for n, _ in cub}):
            c = choose(points, cub, n)
            if c is None:
                print("%s n=%d: no point within %.2f of CUB under graph replay" % (name, n, GRAPH_MARGIN))
                continue
            choices[n] = c
            print("%-9s n=2^%d events %.3f graph %.3f of CUB  %s" % (name, n.bit_length() - 1, c[0], c[1], c[3]["events"]["label"]))
        plan = os.path.join(plan_dir, name + ".yaml")
        text = replan(plan, choices)
        open(plan, "w").write(text)


if __name__ == "__main__":
    main()
