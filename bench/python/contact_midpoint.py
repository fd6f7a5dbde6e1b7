"""Peer of MidpointHerglotz as research code writes it: a Python loop over the midpoint contact step
(seed 004 eq. (79)) for the pendulum V = 1 - cos q, gamma = 0 (every step takes one Newton
iteration), h = 0.01, from (q, p, z) = (1, 0, 0), in three flavours:

- "hand Newton, math": scalar floats and math.sin/cos, the stopping rule of core's NewtonSolver
  (|G| <= 1e-12, or a step |dx| <= 4 eps max(1, |x|));
- "hand Newton, numpy": the same loop on 1-element numpy arrays (np.sin, np.abs), the way
  vectorised research code runs a one-dimensional problem;
- "scipy.optimize.newton": one scipy.optimize.newton call per step with the analytic derivative
  (tol 1e-12).

Usage: python3 contact_midpoint.py [steps = 200000] [reps = 5]
Prints one JSON object: per flavour ns/step median/min/max, the final q, and the Newton total.
"""

import json
import math
import statistics
import sys
import time

import numpy as np
import scipy.optimize

H = 0.01
GAMMA = 0.0
W2 = 1.0  # g / l
TOL = 1e-12
STEP_TOL = 4 * np.finfo(float).eps


def run_math(steps):
    h, sigma = H, 1 + H * GAMMA
    q, p, z = 1.0, 0.0, 0.0
    its = 0
    for _ in range(steps):
        x = q + h * sigma * p
        mid = 0.5 * (q + x)
        f = (x - q) / h + 0.5 * h * W2 * math.sin(mid) - sigma * p
        k = 0
        while abs(f) > TOL and k < 50:
            jac = 0.25 * h * W2 * math.cos(mid) + 1 / h
            dx = -f / jac
            k += 1
            small = abs(dx) <= STEP_TOL * max(1.0, abs(x))
            x += dx
            mid = 0.5 * (q + x)
            f = (x - q) / h + 0.5 * h * W2 * math.sin(mid) - sigma * p
            if small:
                break
        its += k
        d = x - q
        p = d / h - 0.5 * h * W2 * math.sin(mid)
        z = sigma * z + d * d / (2 * h) - h * W2 * (1 - math.cos(mid))
        q = x
    return q, its


def run_numpy(steps):
    h, sigma = H, 1 + H * GAMMA
    q = np.array([1.0])
    p = np.array([0.0])
    z = np.array([0.0])
    its = 0
    for _ in range(steps):
        x = q + h * sigma * p
        mid = 0.5 * (q + x)
        f = (x - q) / h + 0.5 * h * W2 * np.sin(mid) - sigma * p
        k = 0
        while np.max(np.abs(f)) > TOL and k < 50:
            jac = 0.25 * h * W2 * np.cos(mid) + 1 / h
            dx = -f / jac
            k += 1
            small = np.max(np.abs(dx)) <= STEP_TOL * max(1.0, float(np.max(np.abs(x))))
            x = x + dx
            mid = 0.5 * (q + x)
            f = (x - q) / h + 0.5 * h * W2 * np.sin(mid) - sigma * p
            if small:
                break
        its += k
        d = x - q
        p = d / h - 0.5 * h * W2 * np.sin(mid)
        z = sigma * z + d * d / (2 * h) - h * W2 * (1 - np.cos(mid))
        q = x
    return float(q[0]), its


def run_scipy(steps):
    h, sigma = H, 1 + H * GAMMA
    q, p, z = 1.0, 0.0, 0.0
    for _ in range(steps):
        qk, pk = q, p

        def g(x):
            return (x - qk) / h + 0.5 * h * W2 * math.sin(0.5 * (qk + x)) - sigma * pk

        def dg(x):
            return 0.25 * h * W2 * math.cos(0.5 * (qk + x)) + 1 / h

        x = scipy.optimize.newton(g, qk + h * sigma * pk, fprime=dg, tol=TOL)
        mid = 0.5 * (q + x)
        d = x - q
        p = d / h - 0.5 * h * W2 * math.sin(mid)
        z = sigma * z + d * d / (2 * h) - h * W2 * (1 - math.cos(mid))
        q = x
    return q, None


def timed(fn, steps, reps):
    fn(min(steps, 1000))  # warm-up
    ns = []
    q = its = None
    for _ in range(reps):
        t0 = time.perf_counter()
        q, its = fn(steps)
        ns.append((time.perf_counter() - t0) * 1e9 / steps)
    return {
        "median": statistics.median(ns),
        "min": min(ns),
        "max": max(ns),
        "runs": reps,
        "steps": steps,
        "q": q,
        "iterations": its,
    }


def main():
    steps = int(sys.argv[1]) if len(sys.argv) > 1 else 200_000
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    out = {
        "math": timed(run_math, steps, reps),
        "numpy": timed(run_numpy, max(1000, steps // 10), reps),
        "scipy": timed(run_scipy, max(1000, steps // 10), reps),
    }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
