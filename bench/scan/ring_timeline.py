#!/usr/bin/env python3
"""ring_timeline.py RING.cu OUT.cu - a what-if copy of kgen's generated
staging: ring kernel (kgen SPEC -o RING.cu) whose thread 0 of band 0's
blocks notes clock64() at four points of each of its first TL_K tiles:
the tile's turn begins; the next tile is in and its totals published
(total(k + 1)); the tile's prefix is known (the words folded); its results
stored.  cols_ring_harness.cu built with -DRING_TIMELINE and
-DRING_SOURCE='"OUT.cu"' launches it once more after its check and prints
the phases' medians: where a block's time goes, to choose from, not to
quote (the stamps cost a few instructions a tile)."""
import sys

ANCHORS = [
    # (text that must occur once, what goes after it)
    ("    for (int k = 0; k < mine; k++) {\n        const int t = (int)(k % 2);\n",
     "        const long long tl0 = clock64();\n"),
    ("            total(k + 1);  // the next tile's totals out before this one waits\n        __syncthreads();\n",
     "        const long long tl1 = clock64();\n"),
    ("        __syncthreads();\n\n        // The thread's rows from the tile's prefix",
     None),  # handled below: the stamp goes between the barrier and the comment
    ("        __syncthreads();  // the stage and the tile's sums are free\n",
     "        if (kgen_tl && threadIdx.x == 0 && band == 0 && k < TL_K)\n"
     "            kgen_tl[(size_t)bg * TL_K + k] = TlStamp{tl0, tl1, tl2, clock64()};\n"),
]


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    src = open(sys.argv[1]).read()
    for text, after in ANCHORS:
        if src.count(text) != 1:
            sys.exit("ring_timeline.py: %s: %r found %d times, not once (another kgen?)"
                     % (sys.argv[1], text[:60], src.count(text)))
        if after is None:
            src = src.replace(text, "        __syncthreads();\n        const long long tl2 = clock64();\n\n"
                              "        // The thread's rows from the tile's prefix")
        else:
            src = src.replace(text, text + after)
    head = ("// what-if: bench/scan/ring_timeline.py's stamps\n#define TL_K 64\n"
            "struct TlStamp { long long start, in, words, stored; };\n__device__ TlStamp *kgen_tl;\n")
    at = src.index("extern \"C\" __global__")
    open(sys.argv[2], "w").write(src[:at] + head + src[at:])


if __name__ == "__main__":
    main()
