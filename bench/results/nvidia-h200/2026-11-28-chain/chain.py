"""chain.py PLAN... : write plans/NAME.yaml beside this file, each plan's
entries with launch: chain (the spec otherwise the same), for the run that
times them against the plans as shipped."""
import os, sys

here = os.path.dirname(os.path.abspath(__file__))
for path in sys.argv[1:]:
    out, lines = [], open(path).read().splitlines()
    for i, line in enumerate(lines):
        if line.strip().startswith("launch:"):
            continue  # replaced below, after stages
        out.append(line)
        if line.strip().startswith("stages:"):
            indent = line[: len(line) - len(line.lstrip())]
            out.append(indent + "launch: chain")
    out.insert(0, "# %s with every entry's launch: chain (bench/results/nvidia-h200/2026-11-28-chain/chain.py)" % path)
    name = os.path.basename(os.path.dirname(path)) + "-" + os.path.basename(path)
    open(os.path.join(here, "plans", "chain-" + name), "w").write("\n".join(out) + "\n")
