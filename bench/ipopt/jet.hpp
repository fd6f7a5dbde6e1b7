// Forward-mode jets of first and second order: the "tiny forward-over-forward template" that
// gives the IPOPT drivers exact first and second derivatives of the small stage functions.
//
// Jet<N, 2> carries a value v, its gradient g[N] and its Hessian h (packed lower triangle,
// h[idx(i, j)] = ∂²/∂z_i∂z_j for i ≥ j) with respect to N seeded inputs; Jet<N, 1> carries v
// and g only (Jacobians). The arithmetic is the chain rule, exact up to round-off:
//
//   (a·b)'  = a'b + ab',      (a·b)'' = a''b + 2 sym(a'b'ᵀ) + ab''
//   f(a)'   = f'(a)a',        f(a)''  = f'(a)a'' + f''(a)a'a'ᵀ
//
// for every scalar function f the templates use (sqrt, sin, cos, 1/x). Stage functions are
// written once, templated on the scalar type T, and run on double (values), Jet<N, 1>
// (Jacobians) and Jet<N, 2> (Hessians of the Lagrangian).
#pragma once
#include <cmath>

namespace gm {

template <int N, int Order = 2>
struct Jet {
  static constexpr int H = Order >= 2 ? N * (N + 1) / 2 : 0;
  double v = 0;
  double g[N] = {};
  double h[H > 0 ? H : 1] = {};

  static constexpr int idx(int i, int j) { return i >= j ? i * (i + 1) / 2 + j : j * (j + 1) / 2 + i; }

  Jet() = default;
  Jet(double c) : v(c) {}  // NOLINT: implicit constant
  /** The input z_i = value (seeded: ∂z_i/∂z_i = 1). */
  static Jet variable(double value, int i) {
    Jet r(value);
    r.g[i] = 1;
    return r;
  }
  /** Applies a scalar function with value f0, first derivative f1, second derivative f2 at v. */
  Jet apply(double f0, double f1, double f2) const {
    Jet r;
    r.v = f0;
    for (int i = 0; i < N; i++) r.g[i] = f1 * g[i];
    if constexpr (Order >= 2) {
      int t = 0;
      for (int i = 0; i < N; i++)
        for (int j = 0; j <= i; j++, t++) r.h[t] = f1 * h[t] + f2 * g[i] * g[j];
    }
    return r;
  }
  Jet& operator+=(const Jet& b) {
    v += b.v;
    for (int i = 0; i < N; i++) g[i] += b.g[i];
    if constexpr (Order >= 2)
      for (int t = 0; t < H; t++) h[t] += b.h[t];
    return *this;
  }
  Jet& operator-=(const Jet& b) {
    v -= b.v;
    for (int i = 0; i < N; i++) g[i] -= b.g[i];
    if constexpr (Order >= 2)
      for (int t = 0; t < H; t++) h[t] -= b.h[t];
    return *this;
  }
  Jet& operator*=(double c) {
    v *= c;
    for (int i = 0; i < N; i++) g[i] *= c;
    if constexpr (Order >= 2)
      for (int t = 0; t < H; t++) h[t] *= c;
    return *this;
  }
  Jet& operator+=(double c) {
    v += c;
    return *this;
  }
  Jet& operator-=(double c) {
    v -= c;
    return *this;
  }
};

template <int N, int O>
Jet<N, O> operator+(Jet<N, O> a, const Jet<N, O>& b) { return a += b; }
template <int N, int O>
Jet<N, O> operator-(Jet<N, O> a, const Jet<N, O>& b) { return a -= b; }
template <int N, int O>
Jet<N, O> operator-(Jet<N, O> a) { return a *= -1.0; }
template <int N, int O>
Jet<N, O> operator+(Jet<N, O> a, double c) { return a += c; }
template <int N, int O>
Jet<N, O> operator+(double c, Jet<N, O> a) { return a += c; }
template <int N, int O>
Jet<N, O> operator-(Jet<N, O> a, double c) { return a -= c; }
template <int N, int O>
Jet<N, O> operator-(double c, Jet<N, O> a) { return (a *= -1.0) += c; }
template <int N, int O>
Jet<N, O> operator*(Jet<N, O> a, double c) { return a *= c; }
template <int N, int O>
Jet<N, O> operator*(double c, Jet<N, O> a) { return a *= c; }

template <int N, int O>
Jet<N, O> operator*(const Jet<N, O>& a, const Jet<N, O>& b) {
  Jet<N, O> r;
  r.v = a.v * b.v;
  for (int i = 0; i < N; i++) r.g[i] = a.v * b.g[i] + b.v * a.g[i];
  if constexpr (O >= 2) {
    int t = 0;
    for (int i = 0; i < N; i++)
      for (int j = 0; j <= i; j++, t++)
        r.h[t] = a.v * b.h[t] + b.v * a.h[t] + a.g[i] * b.g[j] + a.g[j] * b.g[i];
  }
  return r;
}

template <int N, int O>
Jet<N, O> inv(const Jet<N, O>& a) {
  const double i = 1 / a.v;
  return a.apply(i, -i * i, 2 * i * i * i);
}
inline double inv(double a) { return 1 / a; }

template <int N, int O>
Jet<N, O> operator/(const Jet<N, O>& a, const Jet<N, O>& b) { return a * inv(b); }
template <int N, int O>
Jet<N, O> operator/(const Jet<N, O>& a, double c) { return a * (1 / c); }
template <int N, int O>
Jet<N, O> operator/(double c, const Jet<N, O>& b) { return inv(b) * c; }

template <int N, int O>
Jet<N, O> sqrt(const Jet<N, O>& a) {
  const double s = std::sqrt(a.v);
  return a.apply(s, 0.5 / s, -0.25 / (s * a.v));
}
template <int N, int O>
Jet<N, O> sin(const Jet<N, O>& a) {
  const double s = std::sin(a.v), c = std::cos(a.v);
  return a.apply(s, c, -s);
}
template <int N, int O>
Jet<N, O> cos(const Jet<N, O>& a) {
  const double s = std::sin(a.v), c = std::cos(a.v);
  return a.apply(c, -s, -c);
}

/** The value of a double or a jet (for branches on the point, never on derivatives). */
inline double val(double a) { return a; }
template <int N, int O>
double val(const Jet<N, O>& a) { return a.v; }

}  // namespace gm
