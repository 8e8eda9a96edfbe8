#!/usr/bin/env python3
"""ring_model.py [ROUNDS] [--full] - staging: ring's status-word protocol (templates/scan/columns_ring.cu)
on the CPU: one column of one band, its blocks as generators that yield wherever the kernel waits or
publishes, run under random schedules with a quarter of the blocks rarely scheduled (adversarial) or
not.  A tile's value is the interval of tiles it covers, so a prefix folded out of order, a word read
from the wrong round, a word overwritten before its readers read it (a ring of ROUNDS rounds, 8 in the
kernel) or a deadlock fails.  Blocks 1-20, 63-65 and 132 by default (about a minute); --full adds
21-39, 100 and 264.  Exit 0 when every run gives every tile its exact prefix.  (Written for the
review of session 32; ROUNDS 4 overruns, 5 is the least that passes.)"""
import random, sys
ROUNDS = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 8
FULL = "--full" in sys.argv[1:]
def comb(a, b):
    if a is None: return b
    if b is None: return a
    assert a[1] == b[0], (a, b)
    return (a[0], b[1])
def gsize(blocks):
    m = 1
    while m*m < blocks: m += 1
    return m
def block(bg, blocks, tiles, S, out, PARTS, lag):
    mine = (tiles - bg + blocks - 1)//blocks if bg < tiles else 0
    m = gsize(blocks); groups = (blocks + m - 1)//m
    grp = bg//m; first = grp*m; last = first+m-1 if first+m < blocks else blocks-1
    tot = lambda k: ((k*blocks+bg), (k*blocks+bg)+1)
    def publish_T(k):
        if blocks > 1:
            S[('T', k % ROUNDS, bg)] = (k, tot(k))
            lag['pub'][bg] = max(lag['pub'][bg], k)
    def wait(key, r):
        while True:
            w = S.get(key)
            if w is not None and w[0] == r:
                return w[1]
            if w is not None and w[0] > r:
                raise RuntimeError('overwritten %r want %d have %d' % (key, r, w[0]))
            yield key
    carry = None
    if mine > 0: publish_T(0)
    yield None
    for k in range(mine):
        if k+1 < mine: publish_T(k+1)
        yield None
        if blocks > 1:
            if bg == last:
                n = bg - first
                parts2 = []
                for p in range(PARTS):
                    acc = None
                    for w in range(n*p//PARTS, n*(p+1)//PARTS):
                        v = yield from wait(('T', k % ROUNDS, first+w), k)
                        acc = comb(acc, v)
                    parts2.append(acc)
                mates = None
                for p in range(PARTS): mates = comb(mates, parts2[p])
                S[('G', k % ROUNDS, grp)] = (k, comb(mates, tot(k)))
                yield None
            then = groups - grp if k > 0 else 0
            now = grp
            before = 0 if bg == last else bg - first
            n = then + now + before
            parts = [[None]*PARTS for _ in range(3)]
            for p in range(PARTS):
                acc = [None]*3
                for w in range(n*p//PARTS, n*(p+1)//PARTS):
                    if w < then:
                        key, r, seg = ('G', (k+ROUNDS-1) % ROUNDS, grp+w), k-1, 0
                    elif w < then+now:
                        key, r, seg = ('G', k % ROUNDS, w-then), k, 1
                    else:
                        key, r, seg = ('T', k % ROUNDS, first+w-then-now), k, 2
                    v = yield from wait(key, r)
                    acc[seg] = comb(acc[seg], v)
                parts[0][p] = acc[0]; parts[1][p] = acc[1]
                if bg != last: parts[2][p] = acc[2]
            yield None
            v = carry
            for p in range(PARTS): v = comb(v, parts[0][p])
            for p in range(PARTS): v = comb(v, parts[1][p])
            carry = v
            if bg == last: v = comb(v, mates)
            else:
                for p in range(PARTS): v = comb(v, parts[2][p])
            prefix = v
        else:
            prefix = carry; carry = comb(carry, tot(k))
        t = k*blocks+bg
        exp = (0, t) if t > 0 else None
        assert prefix == exp, (bg, k, prefix, exp)
        out[t] = True
        lag['done'][bg] = k
        yield None

def run(blocks, tiles, PARTS, seed, bias):
    rnd = random.Random(seed)
    S = {}; out = {}
    lag = {'pub': [-1]*blocks, 'done': [-1]*blocks}
    gens = [block(b, blocks, tiles, S, out, PARTS, lag) for b in range(blocks)]
    alive = list(range(blocks))
    slow = set(rnd.sample(range(blocks), max(1, blocks//4)))
    maxlag = 0
    stuck = 0
    while alive:
        # adversarial: slow blocks rarely scheduled
        cand = [b for b in alive if b not in slow or rnd.random() < bias] or alive
        b = rnd.choice(cand)
        try:
            y = next(gens[b])
        except StopIteration:
            alive.remove(b); stuck = 0
        else:
            stuck = stuck + 1 if y is not None else 0
            if stuck > 200000:
                raise RuntimeError('deadlock blocks=%d tiles=%d' % (blocks, tiles))
    assert len(out) == tiles, (len(out), tiles)

if __name__ == '__main__':
    cnt = 0
    sizes = list(range(1, 40)) + [63, 64, 65, 100, 132, 264] if FULL else list(range(1, 21)) + [63, 64, 65, 132]
    for blocks in sizes:
        for tiles in sorted(set([blocks, blocks+1, 2*blocks-1, 2*blocks, 3*blocks+blocks//2, 9*blocks+1, 12*blocks])):
            for PARTS in (1, 2, 4):
                for seed in range((2 if blocks > 40 else 4) if FULL else (1 if blocks > 40 else 2)):
                    run(blocks, tiles, PARTS, seed*7919+blocks, 0.02 if seed % 2 else 0.5)
                    cnt += 1
    print('ok', cnt)
