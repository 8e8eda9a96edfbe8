"""A float32 model of LayerNorm's online statistics, in the order the
kernel adds (a block of 512 threads a row, each taking batches of 16
elements 512 batches apart, then a butterfly over the threads): the
variance of a row of 393216 float32 elements drawn 3 x normal, by the sums
of x - x[0] and of their squares (kgen before session 27) and by Chan's
formula over each batch's moments (kgen since), against float64.
Rows: plain, with the first element 1000 standard deviations out, and with
a mean of 1000.  Needs numpy.  Usage: python3 bench/rows/variance_model.py"""
import numpy as np

F = np.float32
N, T, B = 393216, 512, 16


def shifted(x):
    k = x[0]
    s1, s2 = np.zeros(T, F), np.zeros(T, F)
    for i in range(0, N, T):  # thread t adds element t of each stride, in turn
        d = (x[i:i + T] - k).astype(F)
        s1 += d
        s2 += d * d
    while len(s1) > 1:
        s1, s2 = s1[::2] + s1[1::2], s2[::2] + s2[1::2]
    m1 = s1[0] / F(N)
    return s2[0] / F(N) - m1 * m1


def chan(a, b):
    if b[0] > a[0] or (b[0] == a[0] and (b[1] > a[1] or (b[1] == a[1] and b[2] > a[2]))):
        a, b = b, a
    if b[0] == 0:
        return a
    n = F(a[0] + b[0])
    d = F(b[1] - a[1])
    f = F(b[0] / n)
    return (n, F(a[1] + d * f), F(a[2] + b[2] + d * d * a[0] * f))


def moments(x):
    per = [(F(0), F(0), F(0))] * T
    batches = x.reshape(-1, B)
    for i, b in enumerate(batches):
        s = F(0)
        for e in b:
            s = F(s + e)
        m = F(s / F(B))
        q = F(0)
        for e in b:
            q = F(q + F(e - m) * F(e - m))
        per[i % T] = chan(per[i % T], (F(B), m, q))
    while len(per) > 1:
        per = [chan(per[i], per[i + 1]) for i in range(0, len(per), 2)]
    return per[0][2] / F(N)


rng = np.random.default_rng(20261206)
for name in ("plain", "first element 1000 sd out", "mean 1000"):
    x = (3 * rng.standard_normal(N)).astype(F)
    if name.startswith("first"):
        x[0] = F(3000)
    elif name.startswith("mean"):
        x += F(1000)
    exact = x.astype(np.float64).var()
    print("%-26s relative error of the variance: sums of x - x[0] %+.2e, Chan's formula %+.2e"
          % (name, (shifted(x) - exact) / exact, (moments(x) - exact) / exact))
