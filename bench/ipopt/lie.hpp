// SO(3) in the conventions of spec 003 §8 (row-major 3×3, hat(ω) = [[0, −ω3, ω2], [ω3, 0, −ω1],
// [−ω2, ω1, 0]], vee its inverse), templated on the scalar type so that the retractions run on
// doubles and on jets (jet.hpp):
//
//   cay(x)     = I + 4/(4 + |x|²)(x̂ + x̂²/2)                     (spec 003 §8.1)
//   exp(x)     = I + (sin θ/θ) x̂ + ((1 − cos θ)/θ²) x̂²,  θ = |x|  (Rodrigues)
//   τ_skew(s)  = I + ŝ + ŝ²/(1 + √(1 − |s|²)),  |s| < 1          (spec 003 §8.2)
//
// all of the form I + a(q) x̂ + b(q) x̂² with q = |x|² and (x̂²)_ij = x_i x_j − δ_ij q.
// Plus double-only helpers for guesses and checks (products, log, axis-angle).
#pragma once
#include <algorithm>
#include <cmath>

#include "jet.hpp"

namespace gm {

/** M = I + a x̂ + b x̂², row-major. */
template <class T>
void so3FromCoefficients(const T* x, const T& a, const T& b, const T& q, T* M) {
  // x̂ entries
  const T ax = a * x[0], ay = a * x[1], az = a * x[2];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) M[3 * i + j] = b * (x[i] * x[j]);
  for (int i = 0; i < 3; i++) M[4 * i] += 1.0 - b * q;
  M[1] -= az;
  M[2] += ay;
  M[3] += az;
  M[5] -= ax;
  M[6] -= ay;
  M[7] += ax;
}

template <class T>
T norm2(const T* x) { return x[0] * x[0] + x[1] * x[1] + x[2] * x[2]; }

/** Cayley map cay(x) = I + 4/(4 + |x|²)(x̂ + x̂²/2). */
template <class T>
void cayley(const T* x, T* M) {
  const T q = norm2(x);
  const T a = 4.0 / (4.0 + q);
  const T b = 0.5 * a;
  so3FromCoefficients(x, a, b, q, M);
}

/** Rodrigues exp(x); a = sin θ/θ and b = (1 − cos θ)/θ² by their series in q = θ² for q < 1e-2. */
template <class T>
void rodrigues(const T* x, T* M) {
  const T q = norm2(x);
  T a, b;
  if (val(q) < 1e-2) {
    // Σ (−q)^k/(2k+1)!, Σ (−q)^k/(2k+2)!, truncation < q⁶/13! < 2e-22
    a = 1.0 + q * (-1.0 / 6 + q * (1.0 / 120 + q * (-1.0 / 5040 + q * (1.0 / 362880 + q * (-1.0 / 39916800)))));
    b = 0.5 + q * (-1.0 / 24 + q * (1.0 / 720 + q * (-1.0 / 40320 + q * (1.0 / 3628800 + q * (-1.0 / 479001600)))));
  } else {
    using std::sin;
    using std::sqrt;
    const T th = sqrt(q);
    const T s2 = sin(0.5 * th);
    a = sin(th) / th;
    b = 2.0 * (s2 * s2) / q;
  }
  so3FromCoefficients(x, a, b, q, M);
}

/** τ_skew(s) = I + ŝ + ŝ²/(1 + √(1 − |s|²)) (needs |s| < 1). */
template <class T>
void tauSkew(const T* s, T* M) {
  using std::sqrt;
  const T q = norm2(s);
  const T one = T(1.0);
  const T b = 1.0 / (1.0 + sqrt(1.0 - q));
  so3FromCoefficients(s, one, b, q, M);
}

/** vee(skew(A)) = ((A21 − A12)/2, (A02 − A20)/2, (A10 − A01)/2) (0-based, row-major). */
template <class T>
void veeSkew(const T* A, T* w) {
  w[0] = 0.5 * (A[7] - A[5]);
  w[1] = 0.5 * (A[2] - A[6]);
  w[2] = 0.5 * (A[3] - A[1]);
}

/** tr(AᵀG) = Σ_ij A_ij G_ij for a constant A. */
template <class T>
T traceProduct(const double* A, const T* G) {
  T s = A[0] * G[0];
  for (int i = 1; i < 9; i++) s += A[i] * G[i];
  return s;
}

// ---------------------------------------------------------------------------------------------
// doubles only

/** C = A·B (3×3, row-major; C may not alias A or B). */
inline void mul3(const double* A, const double* B, double* C) {
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      C[3 * i + j] = A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] + A[3 * i + 2] * B[6 + j];
}
/** C = Aᵀ·B. */
inline void mulT3(const double* A, const double* B, double* C) {
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) C[3 * i + j] = A[i] * B[j] + A[3 + i] * B[3 + j] + A[6 + i] * B[6 + j];
}
inline void identity3(double* M) {
  for (int i = 0; i < 9; i++) M[i] = (i % 4 == 0) ? 1 : 0;
}

/** Rotation angle θ ∈ [0, π] and unit axis u of R (u = e3 when θ = 0). */
inline void angleAxis(const double* R, double& theta, double* u) {
  const double w[3] = {0.5 * (R[7] - R[5]), 0.5 * (R[2] - R[6]), 0.5 * (R[3] - R[1])};
  const double sn = std::sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
  const double cs = 0.5 * (R[0] + R[4] + R[8] - 1);
  theta = std::atan2(sn, cs);
  if (sn > 1e-7 || cs > 0) {
    if (sn == 0) {
      u[0] = 0, u[1] = 0, u[2] = 1;
      return;
    }
    for (int i = 0; i < 3; i++) u[i] = w[i] / sn;
    return;
  }
  // near π: R ≈ 2uuᵀ − I; take the largest diagonal, the sign from the skew part
  int k = 0;
  for (int i = 1; i < 3; i++)
    if (R[4 * i] > R[4 * k]) k = i;
  const double uk = std::sqrt(std::max(0.0, 0.5 * (R[4 * k] + 1)));
  for (int i = 0; i < 3; i++) u[i] = i == k ? uk : 0.5 * (R[3 * k + i] + R[3 * i + k]) / (2 * uk);
  const double nu = std::sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
  double dot = 0;
  for (int i = 0; i < 3; i++) {
    u[i] /= nu;
    dot += u[i] * w[i];
  }
  if (dot < 0)
    for (int i = 0; i < 3; i++) u[i] = -u[i];
}

/** Principal log (rotation vector, |ω| ≤ π). */
inline void logSO3(const double* R, double* w) {
  double th, u[3];
  angleAxis(R, th, u);
  for (int i = 0; i < 3; i++) w[i] = th * u[i];
}

/** exp(ω̂) of a rotation vector ω. */
inline void expSO3(const double* w, double* R) { rodrigues(w, R); }

/** max_ij |(RᵀR − I)_ij|. */
inline double orthogonalityError(const double* R) {
  double P[9], e = 0;
  mulT3(R, R, P);
  for (int i = 0; i < 9; i++) e = std::max(e, std::abs(P[i] - (i % 4 == 0 ? 1 : 0)));
  return e;
}

}  // namespace gm
