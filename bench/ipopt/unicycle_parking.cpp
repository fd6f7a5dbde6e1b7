// Unicycle parking on SE(2) (issue 19; geomech's `unicycleParkingOcp`, `geomech solve
// unicycle-parking`), the same discrete problem as a direct transcription for IPOPT.
//
// n steps, h = T/n. Unknowns per step k = 0..n−1: ξ_k = (v_k, w_k, ω_k) and the top two rows of
// g_{k+1} ∈ SE(2) (6 entries; g_0 = start is fixed), ordered per stage [ξ_k, g_{k+1}] (9 per stage).
//
//   minimize   Σ_k h·½(v_k² + ω_k²)
//   subject to g_{k+1} − g_k·cay(hξ_k) = 0        (6 per step, the top two rows; cay of se(2):
//                                                 [[cay(ω), (cay(ω) + I)/2·v], [0, 1]] with the
//                                                 SO(2) Cayley cos = (4 − θ²)/(4 + θ²),
//                                                 sin = 4θ/(4 + θ²); packages/groupoid factors.ts)
//              w_k = 0                           (no lateral slip)
//              −vmax ≤ v_k ≤ vmax                (bounds of the unknowns)
//              x_n = x_end, y_n = y_end          (end position)
//              (R_endᵀR_n)_10 = 0                (end heading, --heading fixed: sin of the error;
//              (R_endᵀR_n)_00 ≥ 0                 its cos ≥ 0 picks the branch, inactive)
//
// geomech writes the dynamics as cay⁻¹(g_k⁻¹g_{k+1}) − hξ_k = 0 and the end as
// cay⁻¹(end⁻¹g_n) = 0: the same feasible set (cay⁻¹ is injective on its chart), so the same
// optimum and cost.
//
// Guess (geomech's `unicycleGuess`): ξ_k = c·Log(start⁻¹end)/T for every k with
// c = tan(φ/2)/(φ/2), φ = Δθ/n (n Cayley steps of hξ reach exp(Log(start⁻¹end)) exactly), g from
// the dynamics.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "ocp.hpp"

namespace gm {
namespace {

/** M = cay(x) of se(2), x = (vx, vy, ω), as a 3×3 row-major matrix (generic in the scalar). */
template <class T>
void cayleySE2(const T* x, T* M) {
  const T th = x[2];
  const T d = 4.0 + th * th;
  const T c = (4.0 - th * th) / d;
  const T s = (4.0 * th) / d;
  M[0] = c;
  M[1] = -s;
  M[3] = s;
  M[4] = c;
  // (cay(ω) + I)/2 · v
  M[2] = 0.5 * ((c + 1.0) * x[0] - s * x[1]);
  M[5] = 0.5 * (s * x[0] + (c + 1.0) * x[1]);
  M[6] = T(0.0);
  M[7] = T(0.0);
  M[8] = T(1.0);
}

class UnicycleParking : public Problem {
 public:
  explicit UnicycleParking(const Args& a) {
    n_ = static_cast<int>(a.integer("n", 60, 2, 200000));
    T_ = a.num("T", 1);
    if (!(T_ > 0)) throw std::invalid_argument("--T must be > 0");
    h_ = T_ / n_;
    vmax_ = a.num("vmax", 1.6);
    if (!(vmax_ > 0)) throw std::invalid_argument("--vmax must be > 0");
    start_ = a.list("start", {0, 0, 0});
    end_ = a.list("end", {1, 1, 1.5707963267948966});
    const std::string heading = a.str("heading", "fixed");
    if (heading != "fixed" && heading != "free") throw std::invalid_argument("--heading must be fixed or free");
    free_ = heading == "free";
    build();
  }

  std::string name() const override { return "unicycle-parking"; }
  std::string params() const override {
    Json j;
    j.integer("n", n_).num("T", T_).num("vmax", vmax_).array("start", start_).array("end", end_);
    j.str("heading", free_ ? "free" : "fixed").str("guess", "constant-velocity");
    return j.done();
  }

  void report(const double* x, Json& out) const override {
    double dyn = 0, slip = 0, vmax = 0;
    for (int k = 0; k < n_; k++) {
      const double* xi = x + 9 * k;
      const double* G0 = k == 0 ? g0_ : x + 9 * (k - 1) + 3;
      const double* G1 = x + 9 * k + 3;
      const double w[3] = {h_ * xi[0], h_ * xi[1], h_ * xi[2]};
      double M[9];
      cayleySE2(w, M);
      for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++) {
          double s = 0;
          for (int l = 0; l < 3; l++) s += G0[3 * i + l] * M[3 * l + j];
          dyn = std::max(dyn, std::abs(G1[3 * i + j] - s));
        }
      slip = std::max(slip, std::abs(xi[1]));
      vmax = std::max(vmax, std::abs(xi[0]));
    }
    const double* Gn = x + 9 * (n_ - 1) + 3;
    out.num("dynamicsResidual", dyn).num("slipResidual", slip).num("speedMax", vmax);
    out.num("endX", Gn[2]).num("endY", Gn[5]).num("endTheta", std::atan2(Gn[3], Gn[0]));
  }

  std::string trajectory(const double* x) const override {
    std::vector<double> xi, pose = {start_[0], start_[1], start_[2]};
    for (int k = 0; k < n_; k++) {
      xi.insert(xi.end(), x + 9 * k, x + 9 * k + 3);
      const double* G = x + 9 * k + 3;
      pose.insert(pose.end(), {G[2], G[5], std::atan2(G[3], G[0])});
    }
    Json j;
    j.integer("n", n_).array("xi", xi).array("pose", pose);
    return j.done();
  }

 private:
  void build() {
    unknowns(9 * n_);
    const double h = h_;
    const double cs = std::cos(start_[2]), ss = std::sin(start_[2]);
    const double g0[6] = {cs, -ss, start_[0], ss, cs, start_[1]};
    std::copy(g0, g0 + 6, g0_);
    // guess: ξ = c·Log(start⁻¹end)/T (geomech's unicycleGuess)
    const double phi = end_[2] - start_[2];
    const double dx = end_[0] - start_[0], dy = end_[1] - start_[1];
    const double tx = cs * dx + ss * dy, ty = -ss * dx + cs * dy;  // Rₛᵀ(p_e − p_s)
    // Log on SE(2): v = V⁻¹t, V = [[a, −b], [b, a]], a = sin φ/φ, b = (1 − cos φ)/φ
    const double sa = std::abs(phi) < 1e-8 ? 1 : std::sin(phi) / phi;
    const double sb = std::abs(phi) < 1e-8 ? phi / 2 : (1 - std::cos(phi)) / phi;
    const double det = sa * sa + sb * sb;
    const double lv[3] = {(sa * tx + sb * ty) / det, (-sb * tx + sa * ty) / det, phi};
    const double step = phi / n_;
    const double c = std::abs(step) < 1e-8 ? 1 : std::tan(step / 2) / (step / 2);
    double G[6];
    std::copy(g0, g0 + 6, G);
    for (int k = 0; k < n_; k++) {
      double* xi = x0.data() + 9 * k;
      for (int i = 0; i < 3; i++) xi[i] = c * lv[i] / T_;
      const double w[3] = {h * xi[0], h * xi[1], h * xi[2]};
      double M[9], Gn[6];
      cayleySE2(w, M);
      for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++)
          Gn[3 * i + j] = G[3 * i] * M[j] + G[3 * i + 1] * M[3 + j] + G[3 * i + 2] * M[6 + j];
      std::copy(Gn, Gn + 6, G);
      std::copy(G, G + 6, x0.data() + 9 * k + 3);
      xl[9 * k] = -vmax_;
      xu[9 * k] = vmax_;
    }
    for (int k = 0; k < n_; k++) {
      const int xi = 9 * k;
      objective(func<3, 1>([h](const auto* z, auto* out) { out[0] = (0.5 * h) * (z[0] * z[0] + z[2] * z[2]); },
                           Inputs().vars(xi, 3)));
      Inputs in;
      in.vars(xi, 3);
      if (k == 0) in.constants(g0, 6);
      else in.vars(9 * (k - 1) + 3, 6);
      in.vars(xi + 3, 6);
      constraint(group<2, 3, 3>(
          [h](const auto* w, auto* M) {
            using T = std::remove_cv_t<std::remove_reference_t<decltype(w[0])>>;
            const T hw[3] = {h * w[0], h * w[1], h * w[2]};
            cayleySE2(hw, M);
          },
          in));
      constraint(func<1, 1>([](const auto* z, auto* out) { out[0] = z[0]; }, Inputs().var(xi + 1), true));
    }
    // end conditions on g_n
    const int gn = 9 * (n_ - 1) + 3;
    const double xe = end_[0], ye = end_[1], ce = std::cos(end_[2]), se = std::sin(end_[2]);
    constraint(func<2, 2>(
        [xe, ye](const auto* z, auto* out) {
          out[0] = z[0] - xe;
          out[1] = z[1] - ye;
        },
        Inputs().var(gn + 2).var(gn + 5), true));
    if (!free_) {
      // R_endᵀR_n: (1,0) entry −sin θe·R00 + cos θe·R10, (0,0) entry cos θe·R00 + sin θe·R10
      constraint(func<2, 1>([ce, se](const auto* z, auto* out) { out[0] = -se * z[0] + ce * z[1]; },
                            Inputs().var(gn).var(gn + 3), true));
      constraint(func<2, 1>([ce, se](const auto* z, auto* out) { out[0] = ce * z[0] + se * z[1]; },
                            Inputs().var(gn).var(gn + 3), true),
                 0, INF);
    }
  }

  int n_;
  double T_, h_, vmax_;
  bool free_;
  std::vector<double> start_, end_;
  double g0_[6];
};

}  // namespace
}  // namespace gm

using gm::UnicycleParking;
GM_REGISTER_PROBLEM("unicycle-parking", UnicycleParking);
