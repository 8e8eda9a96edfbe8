#!/usr/bin/env python3
"""fit_gelu.py: the coefficients of kgen's branch-free GELU (templates/expr/activations.cu).

    python3 tools/fit_gelu.py        (needs numpy)

GELU's erf form is x Phi(x) = 0.5 x (1 + erf(x / sqrt(2))).  CUDA's erff
branches on |x| inside each call, so a tile's elements cannot interleave in
an epilogue; kgen's gelu evaluates both of its pieces and selects:

  |z| < 0.9:   1 + erf(z) = 1 + z P(z^2)             P of degree 5
  |z| >= 0.9:  erfc(|z|) = 2^Q(|z| - 2.45), up to 4; 0 beyond (below 2^-26)
               1 + erf(z) = 2 - erfc(z) for z > 0, erfc(|z|) for z < 0 (the
               negative tail without the cancellation of 1 + erf)

P and Q are least-squares fits on Chebyshev nodes (P weighted for relative
error).  The script prints them as C float literals and the largest error of
x Phi(x) evaluated in float32 (numpy, without FMA) against math.erf in double:
relative, and absolute where Phi(x) < 2^-24 (the tail, whose value is below
float's resolution of x).
"""
import math

import numpy as np

S, L, C = 0.9, 4.0, 2.45


def nodes(a, b, n):
    k = np.arange(n)
    return (a + b) / 2 + (b - a) / 2 * np.cos((2 * k + 1) * np.pi / (2 * n))


def fit():
    erf, erfc = np.vectorize(math.erf), np.vectorize(math.erfc)
    z = nodes(1e-6, S, 400)
    f = erf(z) / z
    p = np.linalg.lstsq(np.vander(z * z, 6, increasing=True) / f[:, None], np.ones_like(f), rcond=None)[0]
    a = nodes(S, L, 600)
    q = np.linalg.lstsq(np.vander(a - C, 9, increasing=True), np.log2(erfc(a)), rcond=None)[0]
    return p, q


def gelu32(x, p, q):
    f32 = np.float32
    x = x.astype(f32)
    z = (x * f32(0.70710678118654752)).astype(f32)
    a, u = np.abs(z), (z * z).astype(f32)
    ps = f32(p[-1])
    for c in p[-2::-1]:
        ps = (ps * u + f32(c)).astype(f32)
    small = (f32(1) + z * ps).astype(f32)
    s = (np.minimum(a, f32(L)) - f32(C)).astype(f32)
    qs = f32(q[-1])
    for c in q[-2::-1]:
        qs = (qs * s + f32(c)).astype(f32)
    t = np.where(a < f32(L), np.exp2(qs.astype(np.float64)).astype(f32), f32(0))
    large = np.where(z > 0, (f32(2) - t).astype(f32), t)
    return (f32(0.5) * x * np.where(a < f32(S), small, large)).astype(f32)


def main():
    p, q = fit()
    print("P (u = z^2, constant first):", ", ".join("%.9ef" % c for c in p))
    print("Q (s = |z| - %.2f, constant first):" % C, ", ".join("%.9ef" % c for c in q))
    x = np.linspace(-12, 12, 400001)
    want = np.array([0.5 * v * math.erfc(-v / math.sqrt(2)) for v in x])
    got = gelu32(x, p, q).astype(np.float64)
    phi = want / np.where(x == 0, 1, x)
    rel = np.abs(got - want) / np.maximum(np.abs(want), 1e-300)
    big = phi >= 2.0 ** -24
    print("largest relative error where Phi(x) >= 2^-24: %.2e" % rel[big & (x != 0)].max())
    print("largest absolute error where Phi(x) < 2^-24: %.2e" % np.abs(got - want)[~big].max())


if __name__ == "__main__":
    main()
