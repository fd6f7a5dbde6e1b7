"""Peer of the constrained-pendulum integrators: scipy.integrate.solve_ivp on the index-reduced
pendulum ODE as research code writes it (spec 001 §4, §6): z = (x, y, vx, vy), m = 1, g = 9.81,
l = 1, lambda = m (g y - |v|^2)/(x^2 + y^2), M v' = -grad V + C^T lambda with C = [x, y], from
theta0 = pi/4 at rest, to T = 10. Error = max(|x - x*|, |y - y*|) at T against the exact solution
(spec 001 §7.3: (x*, y*) = (0.2119441438315043, -0.9772817812153927)).

Runs RK45 (Dormand-Prince 5(4), the same pair as core's integrateDopri5) at rtol = 1e-10 (the
brief's setting) and rtol = 1e-6, atol = 1e-3 * rtol, and DOP853 at rtol = 1e-10 for reference.

Usage: python3 pendulum_ivp.py [reps = 5]
Prints one JSON object: per run the error, the step and f-evaluation counts and the wall time
(median/min/max over reps).
"""

import json
import math
import statistics
import sys
import time

import numpy as np
from scipy.integrate import solve_ivp

G = 9.81
M = 1.0
T = 10.0
EXACT = (0.2119441438315043, -0.9772817812153927)


def rhs(_t, z):
    x, y, vx, vy = z
    lam = M * (G * y - (vx * vx + vy * vy)) / (x * x + y * y)
    return np.array([vx, vy, lam * x / M, (-M * G + lam * y) / M])


def main():
    reps = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    th = math.pi / 4
    z0 = np.array([math.sin(th), -math.cos(th), 0.0, 0.0])
    out = []
    for method, rtol in (("RK45", 1e-10), ("RK45", 1e-6), ("DOP853", 1e-10)):
        atol = 1e-3 * rtol
        solve_ivp(rhs, (0.0, T), z0, method=method, rtol=rtol, atol=atol)  # warm-up
        ms = []
        sol = None
        for _ in range(reps):
            t0 = time.perf_counter()
            sol = solve_ivp(rhs, (0.0, T), z0, method=method, rtol=rtol, atol=atol)
            ms.append((time.perf_counter() - t0) * 1e3)
        x, y = sol.y[0, -1], sol.y[1, -1]
        out.append(
            {
                "method": method,
                "rtol": rtol,
                "atol": atol,
                "error": max(abs(x - EXACT[0]), abs(y - EXACT[1])),
                "steps": int(len(sol.t) - 1),
                "fEvals": int(sol.nfev),
                "ms": {
                    "median": statistics.median(ms),
                    "min": min(ms),
                    "max": max(ms),
                    "runs": reps,
                },
            }
        )
    print(json.dumps({"runs": out}))


if __name__ == "__main__":
    main()
