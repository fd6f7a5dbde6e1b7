// Satellite rest-to-rest attitude maneuver on SO(3) × R³ (issue 19; geomech's `satelliteOcp`,
// `geomech solve satellite`), the same discrete problem as a direct transcription for IPOPT.
//
// n steps, h = T/n, principal moments J = (J1, J2, J3). Unknowns per step k = 0..n−1: the torque
// u_k ∈ R³, R_{k+1} (9 entries) and Π_{k+1} ∈ R³ (R_0 = I, Π_0 = 0 are fixed), ordered per stage
// [u_k, R_{k+1}, Π_{k+1}] (15 per stage).
//
//   minimize   Σ_k h·½|u_k|²
//   subject to F_k = cay(h J⁻¹Π_k)                          (the SO(3) Cayley map, lie.hpp)
//              R_{k+1} − R_k·F_k = 0                         (9 per step)
//              Π_{k+1} − F_kᵀΠ_k − h·u_k = 0                 (3 per step: the forced rigid body,
//                                                            groupoid's rigidBodyIncrement)
//              −umax ≤ u_{k,i} ≤ umax                       (bounds of the unknowns)
//              vee(skew(R_targetᵀR_n)) = 0, Π_n = 0          (rest at the target)
//              tr(R_targetᵀR_n) − 1 ≥ 0                      (the branch of the terminal rows:
//                                                            vee∘skew also vanishes at an error
//                                                            of π; inactive at the optimum)
//
// geomech writes the dynamics as cay⁻¹(R_k⁻¹R_{k+1}) − cay⁻¹(F_k) = 0, Π_{k+1} − Π_k − (F_kᵀΠ_k −
// Π_k + h u_k) = 0 and the end as cay⁻¹(R_target⁻¹R_n) = 0, Π_n = 0: the same feasible set, so
// the same optimum and cost. Guess (geomech's default): at rest, R_k = I, Π_k = 0, u_k = 0.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "lie.hpp"
#include "ocp.hpp"

namespace gm {
namespace {

class Satellite : public Problem {
 public:
  explicit Satellite(const Args& a) {
    n_ = static_cast<int>(a.integer("n", 60, 2, 200000));
    T_ = a.num("T", 4.4);
    if (!(T_ > 0)) throw std::invalid_argument("--T must be > 0");
    h_ = T_ / n_;
    umax_ = a.num("umax", 1);
    if (!(umax_ > 0)) throw std::invalid_argument("--umax must be > 0");
    J_ = a.list("inertia", {1, 2, 3});
    for (double j : J_)
      if (!(j > 0)) throw std::invalid_argument("--inertia must be 3 numbers > 0");
    target_ = a.list("target", {0, 0, 1.5});
    expSO3(target_.data(), Rt_);
    build();
  }

  std::string name() const override { return "satellite"; }
  std::string params() const override {
    Json j;
    j.integer("n", n_).num("T", T_).num("umax", umax_).array("inertia", J_).array("target", target_);
    j.str("guess", "rest");
    return j.done();
  }

  void report(const double* x, Json& out) const override {
    double dyn = 0, umax = 0, spatial = 0;
    const double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    const double z3[3] = {0, 0, 0};
    for (int k = 0; k < n_; k++) {
      const double* u = x + 15 * k;
      const double* R0 = k == 0 ? I : x + 15 * (k - 1) + 3;
      const double* P0 = k == 0 ? z3 : x + 15 * (k - 1) + 12;
      const double* R1 = x + 15 * k + 3;
      const double* P1 = x + 15 * k + 12;
      const double w[3] = {h_ * P0[0] / J_[0], h_ * P0[1] / J_[1], h_ * P0[2] / J_[2]};
      double F[9], RF[9];
      cayley(w, F);
      mul3(R0, F, RF);
      for (int i = 0; i < 9; i++) dyn = std::max(dyn, std::abs(R1[i] - RF[i]));
      for (int i = 0; i < 3; i++) {
        const double p = F[i] * P0[0] + F[3 + i] * P0[1] + F[6 + i] * P0[2] + h_ * u[i];
        dyn = std::max(dyn, std::abs(P1[i] - p));
        umax = std::max(umax, std::abs(u[i]));
      }
      (void)spatial;
    }
    const double* Rn = x + 15 * (n_ - 1) + 3;
    const double* Pn = x + 15 * (n_ - 1) + 12;
    double E[9], v[3];
    mulT3(Rt_, Rn, E);
    veeSkew(E, v);
    out.num("dynamicsResidual", dyn).num("torqueMax", umax);
    out.num("terminalResidual", std::max({std::abs(v[0]), std::abs(v[1]), std::abs(v[2]), std::abs(Pn[0]),
                                          std::abs(Pn[1]), std::abs(Pn[2])}));
    out.num("orthogonality", orthogonalityError(Rn));
  }

  std::string trajectory(const double* x) const override {
    std::vector<double> u, R = {1, 0, 0, 0, 1, 0, 0, 0, 1}, Pi = {0, 0, 0};
    for (int k = 0; k < n_; k++) {
      u.insert(u.end(), x + 15 * k, x + 15 * k + 3);
      R.insert(R.end(), x + 15 * k + 3, x + 15 * k + 12);
      Pi.insert(Pi.end(), x + 15 * k + 12, x + 15 * k + 15);
    }
    Json j;
    j.integer("n", n_).array("u", u).array("R", R).array("Pi", Pi);
    return j.done();
  }

 private:
  void build() {
    unknowns(15 * n_);
    const double h = h_;
    const double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    const double z3[3] = {0, 0, 0};
    const double iJ[3] = {h / J_[0], h / J_[1], h / J_[2]};
    for (int k = 0; k < n_; k++) {
      double* s = x0.data() + 15 * k;
      std::copy(I, I + 9, s + 3);
      for (int i = 0; i < 3; i++) xl[15 * k + i] = -umax_, xu[15 * k + i] = umax_;
    }
    for (int k = 0; k < n_; k++) {
      const int u = 15 * k;
      objective(func<3, 1>([h](const auto* z, auto* out) { out[0] = (0.5 * h) * (z[0] * z[0] + z[1] * z[1] + z[2] * z[2]); },
                           Inputs().vars(u, 3)));
      // R_{k+1} − R_k·cay(h J⁻¹Π_k)
      Inputs rin;
      if (k == 0) rin.constants(z3, 3).constants(I, 9);
      else rin.vars(15 * (k - 1) + 12, 3).vars(15 * (k - 1) + 3, 9);
      rin.vars(u + 3, 9);
      constraint(group<3, 3, 3>(
          [iJ](const auto* P, auto* M) {
            using T = std::remove_cv_t<std::remove_reference_t<decltype(P[0])>>;
            const T w[3] = {iJ[0] * P[0], iJ[1] * P[1], iJ[2] * P[2]};
            cayley(w, M);
          },
          rin));
      // Π_{k+1} − F_kᵀΠ_k − h u_k
      Inputs pin;
      if (k == 0) pin.constants(z3, 3);
      else pin.vars(15 * (k - 1) + 12, 3);
      pin.vars(u, 3).vars(u + 12, 3);
      constraint(func<9, 3>(
          [iJ, h](const auto* z, auto* out) {
            using T = std::remove_cv_t<std::remove_reference_t<decltype(z[0])>>;
            const T w[3] = {iJ[0] * z[0], iJ[1] * z[1], iJ[2] * z[2]};
            T F[9];
            cayley(w, F);
            for (int i = 0; i < 3; i++)
              out[i] = z[6 + i] - (F[i] * z[0] + F[3 + i] * z[1] + F[6 + i] * z[2]) - h * z[3 + i];
          },
          pin));
    }
    // terminal: vee(skew(R_tᵀR_n)) = 0, tr(R_tᵀR_n) − 1 ≥ 0, Π_n = 0
    const int rn = 15 * (n_ - 1) + 3;
    double Tt[9];
    std::copy(Rt_, Rt_ + 9, Tt);
    constraint(func<9, 3>(
        [Tt](const auto* G, auto* out) {
          using T = std::remove_cv_t<std::remove_reference_t<decltype(G[0])>>;
          T E[9];
          for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) E[3 * i + j] = Tt[i] * G[j] + Tt[3 + i] * G[3 + j] + Tt[6 + i] * G[6 + j];
          veeSkew(E, out);
        },
        Inputs().vars(rn, 9), true));
    constraint(func<9, 1>([Tt](const auto* G, auto* out) { out[0] = traceProduct(Tt, G) - 1.0; },
                          Inputs().vars(rn, 9), true),
               0, INF);
    constraint(func<3, 3>(
        [](const auto* z, auto* out) {
          out[0] = z[0];
          out[1] = z[1];
          out[2] = z[2];
        },
        Inputs().vars(rn + 9, 3), true));
  }

  int n_;
  double T_, h_, umax_;
  std::vector<double> J_, target_;
  double Rt_[9];
};

}  // namespace
}  // namespace gm

using gm::Satellite;
GM_REGISTER_PROBLEM("satellite", Satellite);
