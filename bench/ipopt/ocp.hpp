// A stage-structured NLP for IPOPT's TNLP interface, assembled from small "elements": each
// element reads a handful of unknowns (or constants), and contributes either a term of the
// objective or a block of constraint rows with bounds. The framework sums the objective, stacks
// the rows, and assembles the sparse Jacobian and the lower triangle of the Hessian of the
// Lagrangian σ∇²f + Σ λ_i ∇²g_i (duplicate Hessian positions merged once, at set-up).
//
// Two element kinds cover the optimal-control problems of the benchmark:
//
// - FuncElement<P, R>: R outputs of a function of P inputs written once as a generic lambda
//   `[](const auto* z, auto* out) {...}`; derivatives by forward jets (jet.hpp), dense over the
//   inputs that are unknowns. `linear = true` skips the (zero) Hessian.
// - GroupElement<RR, MM, P>: the dynamics of a matrix Lie group, G_{k+1} − G_k·M(w) = 0 with
//   G_k, G_{k+1} the top RR rows of MM×MM matrices (RR = MM for SO(3); RR = MM − 1 for the
//   homogeneous SE(n), whose bottom row is constant) and M(w) = τ(…) a matrix function of P
//   inputs (a retraction of the stage's velocity). Its Jacobian and Hessian are assembled from
//   the exact derivatives of the bilinear product by hand and the jets of M:
//     ∂/∂w_a:    −Σ_l G_{k,il} ∂_a M_lj          ∂/∂G_{k,il}: −M_lj          ∂/∂G_{k+1,ij}: 1
//     ∂²/∂w_a∂w_b: −Σ_l G_{k,il} ∂²_ab M_lj      ∂²/∂w_a∂G_{k,il}: −∂_a M_lj  (the rest is 0)
//
// A problem is one C++ file: a class deriving from Problem that creates the unknowns, the
// elements and the starting point, and registers itself with GM_REGISTER_PROBLEM.
#pragma once
#include <IpTNLP.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "jet.hpp"

namespace gm {

constexpr double INF = 1e20;  // IPOPT's default nlp_upper_bound_inf

/** One block of the NLP: inputs (global unknown index, or −1 for a constant), rows, patterns. */
struct Element {
  std::vector<int> in;     // global index of input a, or −1
  std::vector<double> cst; // value of input a when in[a] < 0
  int nrows = 1;
  int row0 = -1;           // first constraint row (set by Problem::constraint); −1: objective
  std::vector<double> lo, hi;  // row bounds
  std::vector<std::pair<int, int>> jac;   // (row, local input), inputs that are unknowns only
  std::vector<std::pair<int, int>> hess;  // (a, b) local inputs, a > b or a == b, unknowns only
  std::vector<int> hessSlot;              // position of each hess entry in the global values

  virtual ~Element() = default;
  virtual void eval(const double* z, double* out) const = 0;
  /** Jacobian values in the order of `jac`. */
  virtual void jacobian(const double* z, double* vals) const = 0;
  /** Σ_r w[r] ∇²out_r in the order of `hess`. */
  virtual void hessian(const double* z, const double* w, double* vals) const = 0;
  bool var(int a) const { return in[a] >= 0; }
  int size() const { return static_cast<int>(in.size()); }
};

/** Inputs: global unknown indices, or constants. */
struct Inputs {
  std::vector<int> in;
  std::vector<double> cst;
  Inputs& var(int i) {
    in.push_back(i);
    cst.push_back(0);
    return *this;
  }
  Inputs& vars(int i0, int count) {
    for (int t = 0; t < count; t++) var(i0 + t);
    return *this;
  }
  Inputs& constant(double c) {
    in.push_back(-1);
    cst.push_back(c);
    return *this;
  }
  Inputs& constants(const double* c, int count) {
    for (int t = 0; t < count; t++) constant(c[t]);
    return *this;
  }
};

template <int P, int R, class F>
struct FuncElement : Element {
  F f;
  bool linear;
  FuncElement(F fn, const Inputs& inputs, bool lin) : f(fn), linear(lin) {
    if (static_cast<int>(inputs.in.size()) != P) throw std::logic_error("FuncElement: wrong input count");
    in = inputs.in;
    cst = inputs.cst;
    nrows = R;
    for (int r = 0; r < R; r++)
      for (int a = 0; a < P; a++)
        if (var(a)) jac.emplace_back(r, a);
    if (!linear)
      for (int a = 0; a < P; a++)
        for (int b = 0; b <= a; b++)
          if (var(a) && var(b)) hess.emplace_back(a, b);
  }
  void eval(const double* z, double* out) const override { f(z, out); }
  void jacobian(const double* z, double* vals) const override {
    using J = Jet<P, 1>;
    J zj[P], oj[R];
    for (int a = 0; a < P; a++) zj[a] = var(a) ? J::variable(z[a], a) : J(z[a]);
    f(zj, oj);
    for (size_t t = 0; t < jac.size(); t++) vals[t] = oj[jac[t].first].g[jac[t].second];
  }
  void hessian(const double* z, const double* w, double* vals) const override {
    if (hess.empty()) return;
    using J = Jet<P, 2>;
    J zj[P], oj[R];
    for (int a = 0; a < P; a++) zj[a] = var(a) ? J::variable(z[a], a) : J(z[a]);
    f(zj, oj);
    for (size_t t = 0; t < hess.size(); t++) {
      const int k = J::idx(hess[t].first, hess[t].second);
      double s = 0;
      for (int r = 0; r < R; r++) s += w[r] * oj[r].h[k];
      vals[t] = s;
    }
  }
};

/** Local input layout of GroupElement: w (P), then G_k (RR·MM), then G_{k+1} (RR·MM). */
template <int RR, int MM, int P, class F>
struct GroupElement : Element {
  static constexpr int NG = RR * MM;
  F f;  // f(w, M): M = MM×MM row-major
  GroupElement(F fn, const Inputs& inputs) : f(fn) {
    if (static_cast<int>(inputs.in.size()) != P + 2 * NG) throw std::logic_error("GroupElement: wrong input count");
    in = inputs.in;
    cst = inputs.cst;
    nrows = NG;
    for (int i = 0; i < RR; i++)
      for (int j = 0; j < MM; j++) {
        const int r = MM * i + j;
        for (int a = 0; a < P; a++)
          if (var(a)) jac.emplace_back(r, a);
        for (int l = 0; l < MM; l++)
          if (var(P + MM * i + l)) jac.emplace_back(r, P + MM * i + l);
        if (var(P + NG + r)) jac.emplace_back(r, P + NG + r);
      }
    for (int a = 0; a < P; a++)
      for (int b = 0; b <= a; b++)
        if (var(a) && var(b)) hess.emplace_back(a, b);
    for (int il = 0; il < NG; il++)
      for (int a = 0; a < P; a++)
        if (var(P + il) && var(a)) hess.emplace_back(P + il, a);
  }
  void eval(const double* z, double* out) const override {
    double M[MM * MM];
    f(z, M);
    const double* G0 = z + P;
    const double* G1 = z + P + NG;
    for (int i = 0; i < RR; i++)
      for (int j = 0; j < MM; j++) {
        double s = G1[MM * i + j];
        for (int l = 0; l < MM; l++) s -= G0[MM * i + l] * M[MM * l + j];
        out[MM * i + j] = s;
      }
  }
  void jacobian(const double* z, double* vals) const override {
    using J = Jet<P, 1>;
    J wj[P], Mj[MM * MM];
    for (int a = 0; a < P; a++) wj[a] = var(a) ? J::variable(z[a], a) : J(z[a]);
    f(wj, Mj);
    const double* G0 = z + P;
    size_t t = 0;
    for (int i = 0; i < RR; i++)
      for (int j = 0; j < MM; j++) {
        for (int a = 0; a < P; a++)
          if (var(a)) {
            double s = 0;
            for (int l = 0; l < MM; l++) s -= G0[MM * i + l] * Mj[MM * l + j].g[a];
            vals[t++] = s;
          }
        for (int l = 0; l < MM; l++)
          if (var(P + MM * i + l)) vals[t++] = -Mj[MM * l + j].v;
        if (var(P + NG + MM * i + j)) vals[t++] = 1;
      }
  }
  void hessian(const double* z, const double* w, double* vals) const override {
    using J = Jet<P, 2>;
    J wj[P], Mj[MM * MM];
    for (int a = 0; a < P; a++) wj[a] = var(a) ? J::variable(z[a], a) : J(z[a]);
    f(wj, Mj);
    const double* G0 = z + P;
    // C_lj = Σ_i w_ij G0_il: the weight of M_lj in Σ w_ij out_ij = −Σ_lj C_lj M_lj + const
    double C[MM * MM];
    for (int l = 0; l < MM; l++)
      for (int j = 0; j < MM; j++) {
        double s = 0;
        for (int i = 0; i < RR; i++) s += w[MM * i + j] * G0[MM * i + l];
        C[MM * l + j] = s;
      }
    size_t t = 0;
    for (int a = 0; a < P; a++)
      for (int b = 0; b <= a; b++)
        if (var(a) && var(b)) {
          const int k = J::idx(a, b);
          double s = 0;
          for (int lj = 0; lj < MM * MM; lj++) s -= C[lj] * Mj[lj].h[k];
          vals[t++] = s;
        }
    for (int il = 0; il < NG; il++) {
      const int i = il / MM, l = il % MM;
      for (int a = 0; a < P; a++)
        if (var(P + il) && var(a)) {
          double s = 0;
          for (int j = 0; j < MM; j++) s -= w[MM * i + j] * Mj[MM * l + j].g[a];
          vals[t++] = s;
        }
    }
  }
};

/** Minimal JSON object writer (one line; numbers with 17 significant digits). */
class Json {
 public:
  Json& num(const std::string& k, double v) {
    key(k);
    if (std::isfinite(v)) {
      char b[40];
      std::snprintf(b, sizeof b, "%.17g", v);
      os_ << b;
    } else {
      os_ << "null";
    }
    return *this;
  }
  Json& integer(const std::string& k, long long v) {
    key(k);
    os_ << v;
    return *this;
  }
  Json& boolean(const std::string& k, bool v) {
    key(k);
    os_ << (v ? "true" : "false");
    return *this;
  }
  Json& str(const std::string& k, const std::string& v) {
    key(k);
    quote(v);
    return *this;
  }
  Json& raw(const std::string& k, const std::string& v) {
    key(k);
    os_ << v;
    return *this;
  }
  Json& array(const std::string& k, const std::vector<double>& v) {
    key(k);
    os_ << '[';
    for (size_t i = 0; i < v.size(); i++) {
      char b[40];
      std::snprintf(b, sizeof b, "%.17g", v[i]);
      os_ << (i ? "," : "") << b;
    }
    os_ << ']';
    return *this;
  }
  std::string done() const { return "{" + os_.str() + "}"; }

 private:
  void key(const std::string& k) {
    if (!first_) os_ << ',';
    first_ = false;
    quote(k);
    os_ << ':';
  }
  void quote(const std::string& s) {
    os_ << '"';
    for (char c : s) {
      if (c == '"' || c == '\\') os_ << '\\';
      os_ << c;
    }
    os_ << '"';
  }
  std::ostringstream os_;
  bool first_ = true;
};

/** Command-line options `--key value` / `--flag`, with typed getters and a list of unused keys. */
class Args {
 public:
  Args(int argc, char** argv) {
    for (int i = 1; i < argc; i++) {
      std::string a = argv[i];
      if (a.rfind("--", 0) != 0) throw std::invalid_argument("unexpected argument " + a);
      a = a.substr(2);
      const auto eq = a.find('=');
      if (eq != std::string::npos) {
        add(a.substr(0, eq), a.substr(eq + 1));
      } else if (i + 1 < argc && std::string(argv[i + 1]).rfind("--", 0) != 0) {
        add(a, argv[++i]);
      } else {
        add(a, "");
      }
    }
  }
  bool has(const std::string& k) const {
    used_[k] = true;
    return kv_.count(k) > 0;
  }
  std::string str(const std::string& k, const std::string& dflt) const {
    used_[k] = true;
    const auto it = kv_.find(k);
    return it == kv_.end() ? dflt : it->second.back();
  }
  std::vector<std::string> all(const std::string& k) const {
    used_[k] = true;
    const auto it = kv_.find(k);
    return it == kv_.end() ? std::vector<std::string>{} : it->second;
  }
  double num(const std::string& k, double dflt) const {
    const std::string s = str(k, "");
    if (s.empty()) return dflt;
    size_t pos = 0;
    const double v = std::stod(s, &pos);
    if (pos != s.size() || !std::isfinite(v)) throw std::invalid_argument("--" + k + " must be a finite number, got " + s);
    return v;
  }
  long integer(const std::string& k, long dflt, long lo, long hi) const {
    const std::string s = str(k, "");
    if (s.empty()) return dflt;
    size_t pos = 0;
    const long v = std::stol(s, &pos);
    if (pos != s.size() || v < lo || v > hi)
      throw std::invalid_argument("--" + k + " must be an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "], got " + s);
    return v;
  }
  /** A comma-separated list of exactly `count` finite numbers. */
  std::vector<double> list(const std::string& k, std::vector<double> dflt) const {
    const std::string s = str(k, "");
    if (s.empty()) return dflt;
    std::vector<double> v;
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, ',')) {
      size_t pos = 0;
      const double x = std::stod(item, &pos);
      if (pos != item.size() || !std::isfinite(x)) throw std::invalid_argument("--" + k + ": not a finite number: " + item);
      v.push_back(x);
    }
    if (v.size() != dflt.size())
      throw std::invalid_argument("--" + k + " needs " + std::to_string(dflt.size()) + " comma-separated numbers, got " + s);
    return v;
  }
  std::vector<std::string> unused() const {
    std::vector<std::string> u;
    for (const auto& [k, v] : kv_)
      if (!used_.count(k)) u.push_back(k);
    return u;
  }

 private:
  void add(const std::string& k, const std::string& v) { kv_[k].push_back(v); }
  std::map<std::string, std::vector<std::string>> kv_;
  mutable std::map<std::string, bool> used_;
};

/** A problem: unknowns with bounds and a starting point, objective terms, constraint blocks. */
class Problem {
 public:
  virtual ~Problem() = default;
  /** Problem name as given to --problem. */
  virtual std::string name() const = 0;
  /** Parameters (a JSON object) for the output line. */
  virtual std::string params() const = 0;
  /** Post-solve checks of the returned point, as JSON members (e.g. constraint residuals). */
  virtual void report(const double* x, Json& out) const = 0;
  /** Optional: the trajectory of the point as a JSON object (for --dump). */
  virtual std::string trajectory(const double* x) const { (void)x; return "{}"; }

  int nvar() const { return static_cast<int>(x0.size()); }
  int ncon() const { return ncon_; }

  /** Adds `count` unknowns with starting values 0 and no bounds; returns the first index. */
  int unknowns(int count) {
    const int i0 = nvar();
    x0.resize(i0 + count, 0.0);
    xl.resize(i0 + count, -INF);
    xu.resize(i0 + count, INF);
    return i0;
  }
  void objective(std::unique_ptr<Element> e) {
    e->row0 = -1;
    obj.push_back(std::move(e));
  }
  /** Adds a block of constraint rows lo ≤ g ≤ hi (equalities by default); returns its first row. */
  int constraint(std::unique_ptr<Element> e, double lo = 0, double hi = 0) {
    e->row0 = ncon_;
    e->lo.assign(e->nrows, lo);
    e->hi.assign(e->nrows, hi);
    ncon_ += e->nrows;
    const int r = e->row0;
    con.push_back(std::move(e));
    return r;
  }
  template <int P, int R, class F>
  static std::unique_ptr<Element> func(F f, const Inputs& in, bool linear = false) {
    return std::make_unique<FuncElement<P, R, F>>(f, in, linear);
  }
  template <int RR, int MM, int P, class F>
  static std::unique_ptr<Element> group(F f, const Inputs& in) {
    return std::make_unique<GroupElement<RR, MM, P, F>>(f, in);
  }

  std::vector<double> x0, xl, xu;
  std::vector<std::unique_ptr<Element>> obj, con;

 private:
  int ncon_ = 0;
};

/** Problem factory registry: --problem <name>. */
using Factory = std::function<std::unique_ptr<Problem>(const Args&)>;
inline std::map<std::string, Factory>& registry() {
  static std::map<std::string, Factory> r;
  return r;
}
struct Registrar {
  Registrar(const std::string& name, Factory f) { registry()[name] = std::move(f); }
};
#define GM_REGISTER_PROBLEM(NAME, TYPE) \
  static const ::gm::Registrar gm_registrar_##TYPE(NAME, [](const ::gm::Args& a) { return std::unique_ptr<::gm::Problem>(new TYPE(a)); })

/** IPOPT's view of a Problem. */
class StageNLP : public Ipopt::TNLP {
 public:
  explicit StageNLP(Problem& p);

  bool get_nlp_info(Ipopt::Index& n, Ipopt::Index& m, Ipopt::Index& nnz_jac, Ipopt::Index& nnz_h,
                    IndexStyleEnum& style) override;
  bool get_bounds_info(Ipopt::Index n, Ipopt::Number* x_l, Ipopt::Number* x_u, Ipopt::Index m,
                       Ipopt::Number* g_l, Ipopt::Number* g_u) override;
  bool get_starting_point(Ipopt::Index n, bool init_x, Ipopt::Number* x, bool init_z, Ipopt::Number* z_L,
                          Ipopt::Number* z_U, Ipopt::Index m, bool init_lambda, Ipopt::Number* lambda) override;
  bool eval_f(Ipopt::Index n, const Ipopt::Number* x, bool new_x, Ipopt::Number& f) override;
  bool eval_grad_f(Ipopt::Index n, const Ipopt::Number* x, bool new_x, Ipopt::Number* g) override;
  bool eval_g(Ipopt::Index n, const Ipopt::Number* x, bool new_x, Ipopt::Index m, Ipopt::Number* g) override;
  bool eval_jac_g(Ipopt::Index n, const Ipopt::Number* x, bool new_x, Ipopt::Index m, Ipopt::Index nele,
                  Ipopt::Index* iRow, Ipopt::Index* jCol, Ipopt::Number* values) override;
  bool eval_h(Ipopt::Index n, const Ipopt::Number* x, bool new_x, Ipopt::Number obj_factor, Ipopt::Index m,
              const Ipopt::Number* lambda, bool new_lambda, Ipopt::Index nele, Ipopt::Index* iRow,
              Ipopt::Index* jCol, Ipopt::Number* values) override;
  void finalize_solution(Ipopt::SolverReturn status, Ipopt::Index n, const Ipopt::Number* x,
                         const Ipopt::Number* z_L, const Ipopt::Number* z_U, Ipopt::Index m,
                         const Ipopt::Number* g, const Ipopt::Number* lambda, Ipopt::Number obj_value,
                         const Ipopt::IpoptData* ip_data, Ipopt::IpoptCalculatedQuantities* ip_cq) override;

  /** Seconds spent in the eval_* callbacks (this driver's function and derivative evaluations). */
  double evalSeconds = 0;
  std::vector<double> xFinal, lambdaFinal;
  double objFinal = NAN;
  int nnzJac = 0, nnzHess = 0;

 private:
  const double* gather(const Element& e, const double* x);
  Problem& p_;
  std::vector<int> hessRow_, hessCol_;
  std::vector<double> z_, buf_;
};

/** Adds the time of a scope to a counter. */
struct ScopeTimer {
  double& acc;
  std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();
  explicit ScopeTimer(double& a) : acc(a) {}
  ~ScopeTimer() { acc += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); }
};

}  // namespace gm
