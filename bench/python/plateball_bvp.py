"""Peer of solvePlateBall as research code writes it: the plate-ball steering problem (spec 003
§8.2 "Boundary-value problem", scenario S7: r = 1, Omega = 0.5, c = 0, start (0, 0, I), end
(0, 0, exp(0.3 E3)), h = 1/n) solved by scipy.optimize.least_squares with its defaults for a
square system: method 'trf', a dense 2-point finite-difference Jacobian and the exact (SVD)
trust-region subproblem; the residual is vectorised numpy.

Same discretisation, unknowns and initial guess as packages/groupoid/src/plateBallBvp.ts:
- unknowns per step k = 1..n-1: lambda_k (3), x_k, y_k, delta_k (3) with G_k = Gguess_k exp(delta_k^)
  (rotation vectors relative to the guess), and lambda_n: 8n - 5 in all;
- residuals: phi(g_k)/h (3) for k = 1..n, and the DEL P-(g_{k+1}, lambda_{k+1}) - P+(g_k, lambda_k),
  Pi- - Pi+ (5) for k = 1..n-1, g_k = G_{k-1}^T G_k, the compact forms of spec 003 §8.2;
- guess: the counter-clockwise circle loop x = rho sin 2 pi t, y = rho (1 - cos 2 pi t),
  rho = sqrt(|psi|/pi), lambda = 0, increments tau_skew(s) from (8) with the end correction spread
  evenly (defaultGuess in plateBallBvp.ts).

Usage: python3 plateball_bvp.py [n ...] (default 30 60 120)
Prints one JSON object: per n the wall time (median/min/max over the repetitions), nfev, njev,
the final max |F|, the cost sum L_hat and least_squares' status.
"""

import json
import math
import statistics
import sys
import time

import numpy as np
from scipy.optimize import least_squares
from scipy.spatial.transform import Rotation

R_BALL, OMEGA, C_SPIN, SIGMA3 = 1.0, 0.5, 0.0, 1.0
PSI = 0.3


def hat_to_vee(Rm):
    """Sine vector s = vee((R - R^T)/2) of a stack of matrices (..., 3, 3)."""
    return 0.5 * np.stack(
        [Rm[..., 2, 1] - Rm[..., 1, 2], Rm[..., 0, 2] - Rm[..., 2, 0], Rm[..., 1, 0] - Rm[..., 0, 1]],
        axis=-1,
    )


def tau_skew(s):
    """tau_skew(s) = c I + s^ + s s^T/(1 + c), c = sqrt(1 - |s|^2), for one vector s."""
    c = math.sqrt(1 - float(s @ s))
    S = np.array([[0, -s[2], s[1]], [s[2], 0, -s[0]], [-s[1], s[0], 0]])
    return c * np.eye(3) + S + np.outer(s, s) / (1 + c)


class Problem:
    def __init__(self, n):
        self.n = n
        self.h = 1.0 / n
        self.G0 = np.eye(3)
        self.Gn = Rotation.from_rotvec([0, 0, PSI]).as_matrix()
        self.guess()

    def guess(self):
        n, h = self.n, self.h
        t = np.arange(n + 1) / n
        rho = abs(R_BALL) * math.sqrt(abs(PSI) / math.pi)
        X = rho * np.sin(2 * math.pi * t)
        Y = rho * (1 - np.cos(2 * math.pi * t))
        X[n], Y[n] = 0.0, 0.0
        inc = np.zeros((n + 1, 3, 3))
        P = np.eye(3)
        for k in range(1, n + 1):
            s = np.array(
                [
                    -(Y[k] - Y[k - 1] - 0.5 * h * OMEGA * (X[k - 1] + X[k])) / R_BALL,
                    (X[k] - X[k - 1] + 0.5 * h * OMEGA * (Y[k - 1] + Y[k])) / R_BALL,
                    h * C_SPIN,
                ]
            )
            n2 = float(s @ s)
            if n2 >= 1:
                s *= 0.999 / math.sqrt(n2)
            inc[k] = tau_skew(s)
            P = P @ inc[k]
        Cv = Rotation.from_matrix(P.T @ self.G0.T @ self.Gn).as_rotvec()
        G = np.zeros((n + 1, 3, 3))
        G[0] = self.G0
        Pk = np.eye(3)
        for k in range(1, n):
            Pk = Pk @ inc[k]
            G[k] = self.G0 @ Pk @ Rotation.from_rotvec(Cv * k / n).as_matrix()
        G[n] = self.Gn
        self.Xg, self.Yg, self.Gg = X, Y, G

    def unpack(self, u):
        n = self.n
        blocks = u[: 8 * (n - 1)].reshape(n - 1, 8)
        L = np.vstack([blocks[:, 0:3], u[8 * (n - 1) :].reshape(1, 3)])
        X = self.Xg.copy()
        Y = self.Yg.copy()
        X[1:n] += blocks[:, 3]
        Y[1:n] += blocks[:, 4]
        G = self.Gg.copy()
        G[1:n] = G[1:n] @ Rotation.from_rotvec(blocks[:, 5:8]).as_matrix()
        return X, Y, G, L

    def residual(self, u):
        n, h = self.n, self.h
        X, Y, G, L = self.unpack(u)
        g = np.einsum("kji,kjl->kil", G[:-1], G[1:])  # g_k = G_{k-1}^T G_k, k = 1..n
        s = hat_to_vee(g)
        x0, y0, x1, y1 = X[:-1], Y[:-1], X[1:], Y[1:]
        phi = np.stack(
            [
                (y1 - y0) + R_BALL * s[:, 0] - 0.5 * h * OMEGA * (x0 + x1),
                (x1 - x0) - R_BALL * s[:, 1] + 0.5 * h * OMEGA * (y0 + y1),
                SIGMA3 * (h * C_SPIN - s[:, 2]),
            ],
            axis=1,
        ) / h
        a = 0.5 * h * OMEGA
        w = np.stack([-R_BALL * L[:, 0], R_BALL * L[:, 1], SIGMA3 * L[:, 2]], axis=1)
        tr = np.trace(g, axis1=1, axis2=2)
        Rw = np.einsum("kij,kj->ki", g, w)
        RTw = np.einsum("kji,kj->ki", g, w)
        dx, dy = (x1 - x0) / h, (y1 - y0) / h
        plus = np.column_stack(
            [dx - a * L[:, 0] + L[:, 1], dy + L[:, 0] + a * L[:, 1], -0.5 * (tr[:, None] * w - Rw)]
        )
        minus = np.column_stack(
            [dx + a * L[:, 0] + L[:, 1], dy + L[:, 0] - a * L[:, 1], -0.5 * (tr[:, None] * w - RTw)]
        )
        F = np.zeros(8 * n - 5)
        blocks = F[: 8 * (n - 1)].reshape(n - 1, 8)
        blocks[:, 0:3] = phi[:-1]
        blocks[:, 3:8] = minus[1:] - plus[:-1]
        F[8 * (n - 1) :] = phi[-1]
        self.cost = float(np.sum((x1 - x0) ** 2 + (y1 - y0) ** 2) / (2 * h))
        return F


def solve(n):
    p = Problem(n)
    u0 = np.zeros(8 * n - 5)
    r = least_squares(p.residual, u0, xtol=1e-14, ftol=1e-14, gtol=1e-14, max_nfev=200 * (8 * n))
    F = p.residual(r.x)
    return r, float(np.max(np.abs(F))), p.cost


def main():
    sizes = [int(a) for a in sys.argv[1:]] or [30, 60, 120]
    out = []
    for n in sizes:
        reps = 3 if n <= 40 else 2 if n <= 80 else 1
        ms = []
        r = fn = cost = None
        for _ in range(reps):
            t0 = time.perf_counter()
            r, fn, cost = solve(n)
            ms.append((time.perf_counter() - t0) * 1e3)
        out.append(
            {
                "n": n,
                "unknowns": 8 * n - 5,
                "ms": {"median": statistics.median(ms), "min": min(ms), "max": max(ms), "runs": reps},
                "nfev": int(r.nfev),
                "njev": int(r.njev) if r.njev is not None else None,
                "residualNorm": fn,
                "cost": cost,
                "status": int(r.status),
                "message": r.message,
            }
        )
    print(json.dumps({"runs": out}))


if __name__ == "__main__":
    main()
