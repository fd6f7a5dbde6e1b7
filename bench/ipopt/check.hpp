// Central-difference check of the assembled derivatives of a StageNLP (ocp.cpp).
#pragma once

namespace gm {

class StageNLP;
class Problem;

/**
 * max over all entries of |FD − exact|/(1 + |exact|), where FD is the central difference
 * (F(x + εe_i) − F(x − εe_i))/2ε, ε = step·max(1, |x_i|), of: f against ∇f; g against the
 * Jacobian (dense, so a missing sparsity entry shows as an error); ∇L = σ∇f + Jᵀλ against the
 * Hessian of the Lagrangian (random σ ∈ [0.5, 1.5], λ ∈ [−1, 1]ᵐ), at the starting point plus a
 * uniform perturbation of `radius` per unknown.
 */
struct CentralDiffResult {
  double grad = 0, jac = 0, hess = 0;
  long entries = 0;
  bool ok = true;  // every evaluation succeeded
};
CentralDiffResult centralDiffCheck(StageNLP& nlp, const Problem& p, unsigned seed, double radius, double step);

}  // namespace gm
