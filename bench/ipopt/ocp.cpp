// StageNLP: the TNLP callbacks over the elements of a Problem (see ocp.hpp), and the
// central-difference check of its derivatives.
#include "ocp.hpp"

#include <algorithm>
#include <random>
#include <unordered_map>

#include "check.hpp"

namespace gm {

using Ipopt::Index;
using Ipopt::Number;

StageNLP::StageNLP(Problem& p) : p_(p) {
  size_t zmax = 0;
  std::unordered_map<long long, int> slot;
  slot.reserve(16 * p.nvar() + 64);
  auto assign = [&](Element& e) {
    zmax = std::max(zmax, e.in.size());
    nnzJac += e.row0 >= 0 ? static_cast<int>(e.jac.size()) : 0;
    e.hessSlot.resize(e.hess.size());
    for (size_t t = 0; t < e.hess.size(); t++) {
      int r = e.in[e.hess[t].first], c = e.in[e.hess[t].second];
      if (r < c) std::swap(r, c);
      const long long key = static_cast<long long>(r) * p.nvar() + c;
      auto it = slot.find(key);
      if (it == slot.end()) {
        it = slot.emplace(key, static_cast<int>(hessRow_.size())).first;
        hessRow_.push_back(r);
        hessCol_.push_back(c);
      }
      e.hessSlot[t] = it->second;
    }
  };
  for (auto& e : p.obj) assign(*e);
  for (auto& e : p.con) assign(*e);
  nnzHess = static_cast<int>(hessRow_.size());
  z_.resize(zmax);
  size_t bmax = 0;
  for (auto& e : p.obj) bmax = std::max({bmax, e->jac.size(), e->hess.size()});
  for (auto& e : p.con) bmax = std::max({bmax, e->jac.size(), e->hess.size(), static_cast<size_t>(e->nrows)});
  buf_.resize(bmax + 1);
}

const double* StageNLP::gather(const Element& e, const double* x) {
  for (size_t a = 0; a < e.in.size(); a++) z_[a] = e.in[a] >= 0 ? x[e.in[a]] : e.cst[a];
  return z_.data();
}

bool StageNLP::get_nlp_info(Index& n, Index& m, Index& nnz_jac, Index& nnz_h, IndexStyleEnum& style) {
  n = p_.nvar();
  m = p_.ncon();
  nnz_jac = nnzJac;
  nnz_h = nnzHess;
  style = C_STYLE;
  return true;
}

bool StageNLP::get_bounds_info(Index n, Number* x_l, Number* x_u, Index, Number* g_l, Number* g_u) {
  for (Index i = 0; i < n; i++) x_l[i] = p_.xl[i], x_u[i] = p_.xu[i];
  for (const auto& e : p_.con)
    for (int r = 0; r < e->nrows; r++) g_l[e->row0 + r] = e->lo[r], g_u[e->row0 + r] = e->hi[r];
  return true;
}

bool StageNLP::get_starting_point(Index n, bool init_x, Number* x, bool init_z, Number*, Number*, Index,
                                  bool init_lambda, Number*) {
  if (!init_x || init_z || init_lambda) return false;
  for (Index i = 0; i < n; i++) x[i] = p_.x0[i];
  return true;
}

bool StageNLP::eval_f(Index, const Number* x, bool, Number& f) {
  ScopeTimer t(evalSeconds);
  double s = 0;
  for (const auto& e : p_.obj) {
    e->eval(gather(*e, x), buf_.data());
    s += buf_[0];
  }
  f = s;
  return std::isfinite(s);
}

bool StageNLP::eval_grad_f(Index n, const Number* x, bool, Number* g) {
  ScopeTimer t(evalSeconds);
  std::fill(g, g + n, 0.0);
  for (const auto& e : p_.obj) {
    e->jacobian(gather(*e, x), buf_.data());
    for (size_t k = 0; k < e->jac.size(); k++) g[e->in[e->jac[k].second]] += buf_[k];
  }
  return true;
}

bool StageNLP::eval_g(Index, const Number* x, bool, Index, Number* g) {
  ScopeTimer t(evalSeconds);
  bool ok = true;
  for (const auto& e : p_.con) {
    e->eval(gather(*e, x), g + e->row0);
    for (int r = 0; r < e->nrows; r++) ok = ok && std::isfinite(g[e->row0 + r]);
  }
  return ok;  // false (e.g. τ_skew off its branch) makes IPOPT cut the step back
}

bool StageNLP::eval_jac_g(Index, const Number* x, bool, Index, Index, Index* iRow, Index* jCol, Number* values) {
  ScopeTimer t(evalSeconds);
  Index k = 0;
  if (values == nullptr) {
    for (const auto& e : p_.con)
      for (const auto& [r, a] : e->jac) iRow[k] = e->row0 + r, jCol[k] = e->in[a], k++;
    return true;
  }
  for (const auto& e : p_.con) {
    e->jacobian(gather(*e, x), values + k);
    k += static_cast<Index>(e->jac.size());
  }
  for (Index i = 0; i < k; i++)
    if (!std::isfinite(values[i])) return false;
  return true;
}

bool StageNLP::eval_h(Index, const Number* x, bool, Number obj_factor, Index, const Number* lambda, bool, Index,
                      Index* iRow, Index* jCol, Number* values) {
  ScopeTimer t(evalSeconds);
  if (values == nullptr) {
    for (int k = 0; k < nnzHess; k++) iRow[k] = hessRow_[k], jCol[k] = hessCol_[k];
    return true;
  }
  std::fill(values, values + nnzHess, 0.0);
  auto add = [&](const Element& e, const double* w) {
    if (e.hess.empty()) return;
    e.hessian(gather(e, x), w, buf_.data());
    for (size_t k = 0; k < e.hess.size(); k++) values[e.hessSlot[k]] += buf_[k];
  };
  const double of = obj_factor;
  for (const auto& e : p_.obj) add(*e, &of);
  for (const auto& e : p_.con) add(*e, lambda + e->row0);
  for (int k = 0; k < nnzHess; k++)
    if (!std::isfinite(values[k])) return false;
  return true;
}

void StageNLP::finalize_solution(Ipopt::SolverReturn, Index n, const Number* x, const Number*, const Number*,
                                 Index m, const Number*, const Number* lambda, Number obj_value,
                                 const Ipopt::IpoptData*, Ipopt::IpoptCalculatedQuantities*) {
  xFinal.assign(x, x + n);
  lambdaFinal.assign(lambda, lambda + m);
  objFinal = obj_value;
}

// ---------------------------------------------------------------------------------------------

CentralDiffResult centralDiffCheck(StageNLP& nlp, const Problem& p, unsigned seed, double radius, double step) {
  const int n = p.nvar(), m = p.ncon();
  CentralDiffResult res;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> U(-1, 1);
  std::vector<double> x(p.x0);
  for (auto& v : x) v += radius * U(rng);
  std::vector<double> lam(m);
  for (auto& v : lam) v = U(rng);
  const double sigma = 0.5 + 0.5 * (U(rng) + 1);

  Index nn, mm, nj, nh;
  Ipopt::TNLP::IndexStyleEnum style;
  nlp.get_nlp_info(nn, mm, nj, nh, style);
  std::vector<Index> jr(nj), jc(nj), hr(nh), hc(nh);
  std::vector<double> jv(nj), hv(nh);
  nlp.eval_jac_g(n, x.data(), true, m, nj, jr.data(), jc.data(), nullptr);
  nlp.eval_h(n, x.data(), true, sigma, m, lam.data(), true, nh, hr.data(), hc.data(), nullptr);

  // exact: ∇f, J (dense m×n), H (dense n×n, symmetrized)
  std::vector<double> gf(n), J(static_cast<size_t>(m) * n, 0.0), H(static_cast<size_t>(n) * n, 0.0);
  res.ok = nlp.eval_grad_f(n, x.data(), true, gf.data());
  res.ok = nlp.eval_jac_g(n, x.data(), true, m, nj, nullptr, nullptr, jv.data()) && res.ok;
  res.ok = nlp.eval_h(n, x.data(), true, sigma, m, lam.data(), true, nh, nullptr, nullptr, hv.data()) && res.ok;
  for (Index k = 0; k < nj; k++) J[static_cast<size_t>(jr[k]) * n + jc[k]] += jv[k];
  for (Index k = 0; k < nh; k++) {
    H[static_cast<size_t>(hr[k]) * n + hc[k]] += hv[k];
    if (hr[k] != hc[k]) H[static_cast<size_t>(hc[k]) * n + hr[k]] += hv[k];
  }
  // ∇L = σ∇f + Jᵀλ with the exact first derivatives, at a point
  auto gradL = [&](const std::vector<double>& xx, std::vector<double>& out) {
    std::vector<double> g(n), v(nj);
    bool ok = nlp.eval_grad_f(n, xx.data(), true, g.data());
    ok = nlp.eval_jac_g(n, xx.data(), true, m, nj, nullptr, nullptr, v.data()) && ok;
    for (int i = 0; i < n; i++) out[i] = sigma * g[i];
    for (Index k = 0; k < nj; k++) out[jc[k]] += v[k] * lam[jr[k]];
    return ok;
  };
  std::vector<double> xp(x), xm(x), gp(m), gm(m), lp(n), lm(n);
  auto err = [](double fd, double ex) { return std::abs(fd - ex) / (1 + std::abs(ex)); };
  for (int i = 0; i < n; i++) {
    const double e = step * std::max(1.0, std::abs(x[i]));
    xp[i] = x[i] + e;
    xm[i] = x[i] - e;
    double fp, fm;
    bool ok = nlp.eval_f(n, xp.data(), true, fp) && nlp.eval_f(n, xm.data(), true, fm);
    ok = nlp.eval_g(n, xp.data(), true, m, gp.data()) && nlp.eval_g(n, xm.data(), true, m, gm.data()) && ok;
    ok = gradL(xp, lp) && gradL(xm, lm) && ok;
    res.ok = res.ok && ok;
    res.grad = std::max(res.grad, err((fp - fm) / (2 * e), gf[i]));
    for (int r = 0; r < m; r++)
      res.jac = std::max(res.jac, err((gp[r] - gm[r]) / (2 * e), J[static_cast<size_t>(r) * n + i]));
    for (int r = 0; r < n; r++)
      res.hess = std::max(res.hess, err((lp[r] - lm[r]) / (2 * e), H[static_cast<size_t>(r) * n + i]));
    xp[i] = xm[i] = x[i];
  }
  res.entries = static_cast<long>(n) * (1 + m + n);
  return res;
}

}  // namespace gm
