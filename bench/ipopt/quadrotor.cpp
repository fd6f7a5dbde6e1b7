// Problem C: a quadrotor flying from hover to hover (issue 19; geomech's `quadrotorOcp`, CLI
// `geomech solve quadrotor-flight`), a direct transcription for IPOPT of the same discrete problem.
//
// n steps, h = T/n. State (R, x, Π, v) ∈ SO(3) × R³ × R³ × R³ (attitude row-major, position, body
// angular momentum, velocity), control u = (f, τ) (thrust along Re₃, body torque). The step is the
// forced Lie-group variational integrator of groupoid's QuadrotorLgviStepper (lgvi.ts (L4)–(L8)),
// with J_d = ½tr(J)I − J, F_k = R_kᵀR_{k+1} = cay(φ_k), g_k = Π_k + (h/2)τ_k:
//
//   minimize   Σ_k h·((f_k − m g)² + |τ_k|²)
//   subject to R_{k+1} − R_k·cay(φ_k) = 0                                   (9)
//              vee(F_kJ_d − J_dF_kᵀ)/h − g_k = 0                            (3, (L4)/h)
//              Π_{k+1} − F_kᵀg_k − (h/2)τ_k = 0                             (3, (L6))
//              (x_{k+1} − x_k)/h − v_k − (h/2m)(f_k R_k e₃ − m g e₃) = 0     (3, (L7)/h)
//              v_{k+1} − v_k − (h/2m)(f_k R_k e₃ + f_k R_{k+1} e₃ − 2m g e₃) = 0   (3, (L8))
//              0 ≤ f_k ≤ fmax,  −τmax ≤ τ_{k,i} ≤ τmax                      (bounds)
//              x_n = x_end, Π_n = 0, v_n = 0, vee(skew(R_endᵀR_n)) = 0, tr(R_endᵀR_n) − 1 ≥ 0
//
// The start (Rz(ψ₀), x₀, 0, 0) is fixed. Unknowns per stage k = 0..n−1: [f, τ (4), φ_k (3),
// R_{k+1} (9), x_{k+1} (3), Π_{k+1} (3), v_{k+1} (3)] (25). geomech writes the same rows in its
// chart (R_{k+1} = R_k·cay(δ), F_k = R_kᵀR_{k+1} directly) and the end as cay⁻¹(R_endᵀR_n) = 0; the
// feasible sets and optima are the same (the F_k of an optimum are rotations by less than π,
// which cay(φ) covers, and the terminal branch inequality is inactive there).
//
// Options: --n (40), --T (2), --m (1.5), --inertia I1,I2,I3 (0.02,0.02,0.04), --g (9.81),
// --fmax (2 m g), --taumax (1.5), --start x,y,z,yaw (0,0,1,0), --end x,y,z,yaw (2,0,2,π/2).
//
// Compare costs with --ipopt bound_relax_factor=0: IPOPT relaxes bounds by 1e-8 (relative) by
// default and projects its answer back into them, so with the thrust bound active the returned
// point violates the dynamics by ~4e-9 and its cost is ~4e-7 below the exact optimum (n = 40,
// T = 1.5, fmax = 17: 8.98427896 against 8.98428289; with the option 8.984282889775628, geomech
// 8.984282889775356).
//
// Initial guess (geomech's `quadrotorGuess`): hover thrust, zero torque, position and yaw
// linear in k/n from start to end, the constant velocity (x_end − x_start)/T and yaw momentum
// I₃(ψ_end − ψ_start)/T at the inner states (rest at both ends), φ_k = (0, 0, 2 tan(Δψ/2n)) (the
// Cayley vector of the yaw increment).
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "lie.hpp"
#include "ocp.hpp"

namespace gm {
namespace {

constexpr double PI = 3.14159265358979323846;

void yaw(double psi, double* R) {
  const double c = std::cos(psi), s = std::sin(psi);
  const double M[9] = {c, -s, 0, s, c, 0, 0, 0, 1};
  std::copy(M, M + 9, R);
}

class Quadrotor : public Problem {
 public:
  explicit Quadrotor(const Args& a) {
    n_ = static_cast<int>(a.integer("n", 40, 2, 200000));
    T_ = a.num("T", 2);
    m_ = a.num("m", 1.5);
    J_ = a.list("inertia", {0.02, 0.02, 0.04});
    g_ = a.num("g", 9.81);
    fmax_ = a.num("fmax", 2 * m_ * g_);
    taumax_ = a.num("taumax", 1.5);
    start_ = a.list("start", {0, 0, 1, 0});
    end_ = a.list("end", {2, 0, 2, PI / 2});
    if (!(T_ > 0 && m_ > 0 && g_ >= 0 && taumax_ > 0 && fmax_ > m_ * g_))
      throw std::invalid_argument("need T > 0, m > 0, g ≥ 0, taumax > 0, fmax > m g");
    for (double j : J_)
      if (!(j > 0)) throw std::invalid_argument("--inertia: every moment must be > 0");
    h_ = T_ / n_;
    build();
  }

  std::string name() const override { return "quadrotor-flight"; }
  std::string params() const override {
    Json j;
    j.integer("n", n_).num("T", T_).num("m", m_).array("inertia", J_).num("g", g_).num("fmax", fmax_);
    j.num("taumax", taumax_).array("start", start_).array("end", end_).str("guess", "linear hover");
    return j.done();
  }

  // Re-simulates nothing (the geomech side does that with the stepper); checks the returned point:
  // the LGVI rows recomputed from R_k, R_{k+1} (F = R_kᵀR_{k+1}, not through φ), the end errors,
  // orthogonality, and the extreme thrusts (the bound's activity).
  void report(const double* z, Json& out) const override {
    double R0[9], x0[3] = {start_[0], start_[1], start_[2]}, P0[3] = {0, 0, 0}, v0[3] = {0, 0, 0};
    yaw(start_[3], R0);
    const double d[3] = {0.5 * (J_[0] + J_[1] + J_[2]) - J_[0], 0.5 * (J_[0] + J_[1] + J_[2]) - J_[1],
                         0.5 * (J_[0] + J_[1] + J_[2]) - J_[2]};
    double dyn = 0, orth = 0, fmin = INFINITY, fmaxSeen = 0;
    const double* R = R0;
    const double* x = x0;
    const double* P = P0;
    const double* v = v0;
    const double h = h_, mg = m_ * g_;
    for (int k = 0; k < n_; k++) {
      const double* s = z + 25 * k;
      const double f = s[0], tau[3] = {s[1], s[2], s[3]};
      const double *R1 = s + 7, *x1 = s + 16, *P1 = s + 19, *v1 = s + 22;
      double F[9];
      mulT3(R, R1, F);
      const double gk[3] = {P[0] + 0.5 * h * tau[0], P[1] + 0.5 * h * tau[1], P[2] + 0.5 * h * tau[2]};
      const double vee[3] = {F[7] * d[1] - F[5] * d[2], F[2] * d[2] - F[6] * d[0], F[3] * d[0] - F[1] * d[1]};
      const double a[3] = {f * R[2], f * R[5], f * R[8] - mg}, b[3] = {f * R1[2], f * R1[5], f * R1[8] - mg};
      for (int i = 0; i < 3; i++) {
        const double r1 = vee[i] / h - gk[i];
        const double r2 = P1[i] - (F[i] * gk[0] + F[3 + i] * gk[1] + F[6 + i] * gk[2]) - 0.5 * h * tau[i];
        const double r3 = (x1[i] - x[i]) / h - v[i] - (0.5 * h / m_) * a[i];
        const double r4 = v1[i] - v[i] - (0.5 * h / m_) * (a[i] + b[i]);
        dyn = std::max({dyn, std::abs(r1), std::abs(r2), std::abs(r3), std::abs(r4)});
      }
      orth = std::max(orth, orthogonalityError(R1));
      fmin = std::min(fmin, f), fmaxSeen = std::max(fmaxSeen, f);
      R = R1, x = x1, P = P1, v = v1;
    }
    double Re[9], E[9], w[3];
    yaw(end_[3], Re);
    mulT3(Re, R, E);
    veeSkew(E, w);
    double endErr = std::max({std::abs(w[0]), std::abs(w[1]), std::abs(w[2])});
    for (int i = 0; i < 3; i++)
      endErr = std::max({endErr, std::abs(x[i] - end_[i]), std::abs(P[i]), std::abs(v[i])});
    out.num("dynamicsResidual", dyn).num("endResidual", endErr).num("orthogonality", orth);
    out.num("thrustMin", fmin).num("thrustMax", fmaxSeen);
  }

  std::string trajectory(const double* z) const override {
    std::vector<double> u;
    for (int k = 0; k < n_; k++) u.insert(u.end(), z + 25 * k, z + 25 * k + 4);
    Json j;
    j.integer("n", n_).array("u", u);
    return j.done();
  }

 private:
  void build() {
    unknowns(25 * n_);
    const double h = h_, m = m_, mg = m_ * g_, fh = m_ * g_;
    const double d0 = 0.5 * (J_[0] + J_[1] + J_[2]) - J_[0];
    const double d1 = 0.5 * (J_[0] + J_[1] + J_[2]) - J_[1];
    const double d2 = 0.5 * (J_[0] + J_[1] + J_[2]) - J_[2];
    double Rs[9];
    yaw(start_[3], Rs);
    const double xs[3] = {start_[0], start_[1], start_[2]};
    const double zero[3] = {0, 0, 0};
    // guess
    double dpsi = end_[3] - start_[3];
    if (dpsi > PI) dpsi -= 2 * PI;
    if (dpsi < -PI) dpsi += 2 * PI;
    for (int k = 0; k < n_; k++) {
      double* s = x0.data() + 25 * k;
      const double t = static_cast<double>(k + 1) / n_;
      const double inner = k + 1 < n_ ? 1 : 0;
      s[0] = fh;
      s[6] = 2 * std::tan(dpsi / (2 * n_));
      yaw(start_[3] + t * dpsi, s + 7);
      for (int i = 0; i < 3; i++) {
        s[16 + i] = start_[i] + t * (end_[i] - start_[i]);
        s[22 + i] = inner * (end_[i] - start_[i]) / T_;
      }
      s[21] = inner * J_[2] * dpsi / T_;
    }
    // bounds on the controls
    for (int k = 0; k < n_; k++) {
      xl[25 * k] = 0, xu[25 * k] = fmax_;
      for (int i = 1; i < 4; i++) xl[25 * k + i] = -taumax_, xu[25 * k + i] = taumax_;
    }
    auto addState = [&](Inputs& in, int k, int off, int count, const double* start) {
      if (k == 0) in.constants(start, count);
      else in.vars(25 * (k - 1) + off, count);
    };
    for (int k = 0; k < n_; k++) {
      const int s = 25 * k;
      objective(func<4, 1>(
          [h, fh](const auto* z, auto* out) {
            out[0] = h * ((z[0] - fh) * (z[0] - fh) + z[1] * z[1] + z[2] * z[2] + z[3] * z[3]);
          },
          Inputs().vars(s, 4)));
      // R_{k+1} − R_k cay(φ_k)
      {
        Inputs in;
        in.vars(s + 4, 3);
        addState(in, k, 7, 9, Rs);
        in.vars(s + 7, 9);
        constraint(group<3, 3, 3>([](const auto* w, auto* M) { cayley(w, M); }, in));
      }
      // (L4)/h and (L6): inputs φ (3), Π_k (3), τ (3), Π_{k+1} (3)
      {
        Inputs in;
        in.vars(s + 4, 3);
        addState(in, k, 19, 3, zero);
        in.vars(s + 1, 3);
        in.vars(s + 19, 3);
        constraint(func<12, 6>(
            [h, d0, d1, d2](const auto* z, auto* out) {
              using T = std::remove_cv_t<std::remove_reference_t<decltype(z[0])>>;
              T F[9];
              cayley(z, F);
              const T g[3] = {z[3] + (0.5 * h) * z[6], z[4] + (0.5 * h) * z[7], z[5] + (0.5 * h) * z[8]};
              out[0] = (F[7] * d1 - F[5] * d2) / h - g[0];
              out[1] = (F[2] * d2 - F[6] * d0) / h - g[1];
              out[2] = (F[3] * d0 - F[1] * d1) / h - g[2];
              for (int i = 0; i < 3; i++)
                out[3 + i] = z[9 + i] - (F[i] * g[0] + F[3 + i] * g[1] + F[6 + i] * g[2]) - (0.5 * h) * z[6 + i];
            },
            in));
      }
      // (L7)/h and (L8): inputs f, R_k e₃ (3), R_{k+1} e₃ (3), x_k, x_{k+1}, v_k, v_{k+1} (12)
      {
        Inputs in;
        in.var(s);
        for (int i = 0; i < 3; i++) {
          if (k == 0) in.constant(Rs[3 * i + 2]);
          else in.var(25 * (k - 1) + 7 + 3 * i + 2);
        }
        for (int i = 0; i < 3; i++) in.var(s + 7 + 3 * i + 2);
        addState(in, k, 16, 3, xs);
        in.vars(s + 16, 3);
        addState(in, k, 22, 3, zero);
        in.vars(s + 22, 3);
        constraint(func<19, 6>(
            [h, m, mg](const auto* z, auto* out) {
              const auto& f = z[0];
              for (int i = 0; i < 3; i++) {
                const auto a = i == 2 ? f * z[1 + i] - mg : f * z[1 + i];
                const auto b = i == 2 ? f * z[4 + i] - mg : f * z[4 + i];
                out[i] = (z[10 + i] - z[7 + i]) / h - z[13 + i] - (0.5 * h / m) * a;
                out[3 + i] = z[16 + i] - z[13 + i] - (0.5 * h / m) * (a + b);
              }
            },
            in));
      }
    }
    // terminal rows
    const int last = 25 * (n_ - 1);
    double Re[9];
    yaw(end_[3], Re);
    std::vector<double> Rt(Re, Re + 9);
    constraint(func<9, 3>(
        [Rt](const auto* G, auto* out) {
          using T = std::remove_cv_t<std::remove_reference_t<decltype(G[0])>>;
          T E[9];
          for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) E[3 * i + j] = Rt[i] * G[j] + Rt[3 + i] * G[3 + j] + Rt[6 + i] * G[6 + j];
          veeSkew(E, out);
        },
        Inputs().vars(last + 7, 9), true));
    constraint(func<9, 1>([Re](const auto* G, auto* out) { out[0] = traceProduct(Re, G) - 1.0; },
                          Inputs().vars(last + 7, 9), true),
               0, INF);
    const double xe[3] = {end_[0], end_[1], end_[2]};
    for (int i = 0; i < 3; i++) {
      const double target = xe[i];
      constraint(func<1, 1>([target](const auto* z, auto* out) { out[0] = z[0] - target; },
                            Inputs().var(last + 16 + i), true));
    }
    constraint(func<6, 6>(
        [](const auto* z, auto* out) {
          for (int i = 0; i < 6; i++) out[i] = z[i];
        },
        Inputs().vars(last + 19, 6), true));
  }

  int n_;
  double T_, m_, g_, fmax_, taumax_, h_;
  std::vector<double> J_, start_, end_;
};

}  // namespace
}  // namespace gm

using gm::Quadrotor;
GM_REGISTER_PROBLEM("quadrotor-flight", Quadrotor);
