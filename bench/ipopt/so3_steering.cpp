// Problem A: sub-Riemannian steering on SO(3) (spec 003 §8.1, scenario S4), a direct
// transcription for IPOPT.
//
// n steps, h = 1/n. Unknowns ξ_k ∈ R³ (k = 0..n−1) and G_k ∈ SO(3) as 9 row-major entries
// (k = 1..n; G_0 = I is fixed), ordered per stage [ξ_k, G_{k+1}] (12 per stage).
//
//   minimize   Σ_k h·½|ξ_k|²
//   subject to G_{k+1} − G_k·τ(hξ_k) = 0     (9 per step; τ = Cayley, or exp with --map exp)
//              ξ_{k,3} = 0                     (Ψ(ξ) = ξ₃, controls in span{E1, E2})
//              vee(skew(G_targetᵀG_n)) = 0     (3; skew(A) = (A − Aᵀ)/2)
//              tr(G_targetᵀG_n) − 1 ≥ 0        (terminal branch: vee∘skew also vanishes at a
//                                              rotation error of π; inactive at the optimum)
//              ξ_{0,2} = 0                     (only with --gauge; targets about z only)
//
// Target: --phi φ (default 1) for G_target = exp(φE3), or --target ax,ay,az (a rotation vector,
// any axis). Targets about z have a one-parameter family of optima (conjugation by rotations
// about z rotates every ξ_k in the (ξ1, ξ2) plane); --gauge fixes it by ξ_{0,2} = 0.
//
// Initial guess ("extremal", the only one; --perturb adds noise). The normal extremals of the
// continuous problem are ξ(t) = Rz(λt)(X1, X2, 0) with G(t) = exp(t X̂)·exp(−λtE3), X = (X1, X2, λ)
// (p3 = λ is conserved), so G(1) = exp(X̂)·Rz(−λ). The guess takes the cheapest such X that
// reaches the target, samples ξ_k = Rz(λ t_k)(X1, X2, 0) at t_k = k/n, and builds G from the
// discrete dynamics G_{k+1} = G_k τ(hξ_k) (so G_n misses the target by O(h²)):
//   - target about z (its entries (0,2), (1,2), (2,0), (2,1) all ≤ 1e-6 in magnitude; then
//     φ = atan2(G_10, G_00)), φ ∈ (−π, π] \ {0}: the "circle" of spec S4,
//     X = (a, 0, λ), a = √(|φ|(4π − |φ|)), λ = sign(φ)(2π − |φ|) (cost → φ(4π − φ)/2);
//     φ = 0: ξ = 0;
//   - any other target: for m ∈ {−2, −1, 0, 1} and λ on a grid of 6001 points over [−3π, 3π],
//     let (θ, u) be the angle–axis of Q(λ) = G_target·Rz(λ) (θ ∈ [0, π]) and
//     f_m(λ) = (θ + 2πm)u₃ − λ. Every sign change of f_m between neighbours is refined by 80
//     bisections (near-z targets have steep but continuous roots); the end point λ gives
//     X = ((θ + 2πm)u₁, (θ + 2πm)u₂, λ), kept when |f_m(λ)| < 1e-8 (not a jump of the axis at
//     θ = π) and ‖exp(X̂)Rz(−λ) − G_target‖max < 1e-8. Of these, the one with the least cost
//     ½(X1² + X2²) is the guess.
//   --perturb a --seed s: ξ_{k,1}, ξ_{k,2} += a·U(−1, 1) (std::mt19937_64(s), uniform_real), then
//   G from the dynamics as above.
#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

#include "lie.hpp"
#include "ocp.hpp"

namespace gm {
namespace {

constexpr double PI = 3.14159265358979323846;

void rz(double angle, double* R) {
  const double w[3] = {0, 0, angle};
  expSO3(w, R);
}

/** The cheapest normal extremal X = (X1, X2, λ) reaching `target` (see the header comment). */
std::vector<double> extremal(const double* T) {
  const bool aboutZ = std::abs(T[2]) <= 1e-6 && std::abs(T[5]) <= 1e-6 && std::abs(T[6]) <= 1e-6 &&
                      std::abs(T[7]) <= 1e-6;
  if (aboutZ) {
    const double phi = std::atan2(T[3], T[0]);
    if (std::abs(phi) <= 1e-12) return {0, 0, 0};
    const double p = std::abs(phi);
    return {std::sqrt(p * (4 * PI - p)), 0, (phi > 0 ? 1 : -1) * (2 * PI - p)};
  }
  auto fm = [&](int m, double lam, double* X) {
    double Rl[9], Q[9], th, u[3];
    rz(lam, Rl);
    mul3(T, Rl, Q);
    angleAxis(Q, th, u);
    for (int i = 0; i < 3; i++) X[i] = (th + 2 * PI * m) * u[i];
    return X[2] - lam;
  };
  const int N = 6000;
  const double lo = -3 * PI, hi = 3 * PI;
  std::vector<double> best;
  double bestCost = INFINITY;
  for (int m = -2; m <= 1; m++) {
    double X[3];
    double la = lo, fa = fm(m, la, X);
    for (int i = 1; i <= N; i++) {
      const double lb = lo + (hi - lo) * i / N;
      const double fb = fm(m, lb, X);
      if (fa * fb <= 0) {
        double a = la, b = lb, fA = fa;
        for (int it = 0; it < 80; it++) {
          const double c = 0.5 * (a + b), fc = fm(m, c, X);
          if ((fc <= 0) == (fA <= 0)) a = c, fA = fc;
          else b = c;
        }
        const double lam = 0.5 * (a + b);
        const double f = fm(m, lam, X);  // a jump of the axis (θ = π) leaves |f| large: rejected
        X[2] = lam;
        double E[9], Rl[9], G1[9];
        expSO3(X, E);
        rz(-lam, Rl);
        mul3(E, Rl, G1);
        double err = 0;
        for (int k = 0; k < 9; k++) err = std::max(err, std::abs(G1[k] - T[k]));
        const double cost = 0.5 * (X[0] * X[0] + X[1] * X[1]);
        if (std::abs(f) < 1e-8 && err < 1e-8 && cost < bestCost) bestCost = cost, best = {X[0], X[1], X[2]};
      }
      la = lb, fa = fb;
    }
  }
  if (best.empty()) throw std::runtime_error("so3-steering: no normal extremal reaches the target (guess)");
  return best;
}

class So3Steering : public Problem {
 public:
  explicit So3Steering(const Args& a) {
    n_ = static_cast<int>(a.integer("n", 200, 2, 200000));
    h_ = 1.0 / n_;
    const std::string map = a.str("map", "cayley");
    if (map != "cayley" && map != "exp") throw std::invalid_argument("--map must be cayley or exp");
    exp_ = map == "exp";
    if (a.has("target")) {
      tv_ = a.list("target", {0, 0, 0});
      if (a.has("phi")) throw std::invalid_argument("give --phi or --target, not both");
    } else {
      tv_ = {0, 0, a.num("phi", 1)};
    }
    expSO3(tv_.data(), T_);
    aboutZ_ = tv_[0] == 0 && tv_[1] == 0;
    gauge_ = a.has("gauge");
    if (gauge_ && !aboutZ_) throw std::invalid_argument("--gauge is only valid for targets about z (the symmetric case)");
    perturb_ = a.num("perturb", 0);
    seed_ = static_cast<unsigned>(a.integer("seed", 1, 0, 4294967295L));
    X_ = extremal(T_);
    build();
  }

  std::string name() const override { return "so3-steering"; }
  std::string params() const override {
    Json j;
    j.integer("n", n_).str("map", exp_ ? "exp" : "cayley").array("target", tv_);
    if (aboutZ_) j.num("phi", tv_[2]);
    j.boolean("gauge", gauge_).str("guess", "extremal").array("guessX", X_);
    if (perturb_ != 0) j.num("perturb", perturb_).integer("seed", seed_);
    return j.done();
  }

  void report(const double* x, Json& out) const override {
    double psi = 0, dyn = 0, orth = 0, speedMin = INFINITY, speedMax = 0;
    const double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    for (int k = 0; k < n_; k++) {
      const double* xi = x + 12 * k;
      const double* G0 = k == 0 ? I : x + 12 * (k - 1) + 3;
      const double* G1 = x + 12 * k + 3;
      double w[3] = {h_ * xi[0], h_ * xi[1], h_ * xi[2]}, M[9], P[9];
      if (exp_) rodrigues(w, M);
      else cayley(w, M);
      mul3(G0, M, P);
      for (int i = 0; i < 9; i++) dyn = std::max(dyn, std::abs(G1[i] - P[i]));
      psi = std::max(psi, std::abs(xi[2]));
      orth = std::max(orth, orthogonalityError(G1));
      const double s = std::sqrt(xi[0] * xi[0] + xi[1] * xi[1] + xi[2] * xi[2]);
      speedMin = std::min(speedMin, s), speedMax = std::max(speedMax, s);
    }
    double E[9], v[3];
    mulT3(T_, x + 12 * (n_ - 1) + 3, E);
    veeSkew(E, v);
    double th, u[3];
    angleAxis(E, th, u);
    out.num("dynamicsResidual", dyn).num("psiResidual", psi);
    out.num("terminalResidual", std::max({std::abs(v[0]), std::abs(v[1]), std::abs(v[2])}));
    out.num("terminalAngle", th).num("orthogonality", orth);
    out.num("speedMin", speedMin).num("speedMax", speedMax);
    if (aboutZ_) {
      const double p = std::abs(tv_[2]);
      out.num("continuumCost", p * (4 * PI - p) / 2);
    }
  }

  std::string trajectory(const double* x) const override {
    std::vector<double> xi, G = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    for (int k = 0; k < n_; k++) {
      xi.insert(xi.end(), x + 12 * k, x + 12 * k + 3);
      G.insert(G.end(), x + 12 * k + 3, x + 12 * k + 12);
    }
    Json j;
    j.integer("n", n_).array("xi", xi).array("G", G);
    return j.done();
  }

 private:
  void build() {
    const int first = unknowns(12 * n_);
    (void)first;
    const double h = h_;
    const double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    std::mt19937_64 rng(seed_);
    std::uniform_real_distribution<double> U(-1, 1);
    // guess: ξ_k on the extremal, G from the dynamics
    double G[9];
    identity3(G);
    for (int k = 0; k < n_; k++) {
      const double c = std::cos(X_[2] * k * h), s = std::sin(X_[2] * k * h);
      double* xi = x0.data() + 12 * k;
      xi[0] = c * X_[0] - s * X_[1];
      xi[1] = s * X_[0] + c * X_[1];
      xi[2] = 0;
      if (perturb_ != 0) {
        xi[0] += perturb_ * U(rng);
        xi[1] += perturb_ * U(rng);
      }
      const double w[3] = {h * xi[0], h * xi[1], h * xi[2]};
      double M[9], Gn[9];
      if (exp_) rodrigues(w, M);
      else cayley(w, M);
      mul3(G, M, Gn);
      std::copy(Gn, Gn + 9, G);
      std::copy(G, G + 9, x0.data() + 12 * k + 3);
    }
    // elements
    for (int k = 0; k < n_; k++) {
      const int xi = 12 * k;
      objective(func<3, 1>([h](const auto* z, auto* out) { out[0] = (0.5 * h) * (z[0] * z[0] + z[1] * z[1] + z[2] * z[2]); },
                           Inputs().vars(xi, 3)));
      Inputs in;
      in.vars(xi, 3);
      if (k == 0) in.constants(I, 9);
      else in.vars(12 * (k - 1) + 3, 9);
      in.vars(xi + 3, 9);
      if (exp_)
        constraint(group<3, 3, 3>(
            [h](const auto* w, auto* M) {
              using T = std::remove_cv_t<std::remove_reference_t<decltype(w[0])>>;
              const T hw[3] = {h * w[0], h * w[1], h * w[2]};
              rodrigues(hw, M);
            },
            in));
      else
        constraint(group<3, 3, 3>(
            [h](const auto* w, auto* M) {
              using T = std::remove_cv_t<std::remove_reference_t<decltype(w[0])>>;
              const T hw[3] = {h * w[0], h * w[1], h * w[2]};
              cayley(hw, M);
            },
            in));
      constraint(func<1, 1>([](const auto* z, auto* out) { out[0] = z[0]; }, Inputs().var(xi + 2), true));
    }
    // terminal: vee(skew(Tᵀ G_n)) = 0, linear in G_n
    double Tt[9];
    std::copy(T_, T_ + 9, Tt);
    constraint(func<9, 3>(
        [Tt](const auto* G, auto* out) {
          using T = std::remove_cv_t<std::remove_reference_t<decltype(G[0])>>;
          T E[9];
          for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) E[3 * i + j] = Tt[i] * G[j] + Tt[3 + i] * G[3 + j] + Tt[6 + i] * G[6 + j];
          veeSkew(E, out);
        },
        Inputs().vars(12 * (n_ - 1) + 3, 9), true));
    // terminal branch: tr(G_targetᵀG_n) − 1 ≥ 0 (see plate_ball.cpp: vee∘skew also vanishes at
    // rotation errors of π)
    constraint(func<9, 1>([Tt](const auto* G, auto* out) { out[0] = traceProduct(Tt, G) - 1.0; },
                          Inputs().vars(12 * (n_ - 1) + 3, 9), true),
               0, INF);
    if (gauge_) constraint(func<1, 1>([](const auto* z, auto* out) { out[0] = z[0]; }, Inputs().var(1), true));
  }

  int n_;
  double h_;
  bool exp_, aboutZ_, gauge_;
  double perturb_;
  unsigned seed_;
  std::vector<double> tv_, X_;
  double T_[9];
};

}  // namespace
}  // namespace gm

using gm::So3Steering;
GM_REGISTER_PROBLEM("so3-steering", So3Steering);
