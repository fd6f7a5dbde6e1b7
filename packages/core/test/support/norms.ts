/** ∞-norm (maximum absolute row sum) of a row-major n×n matrix. */
export function normInfMatrix(a: ArrayLike<number>, n: number): number {
  let best = 0;
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < n; j++) s += Math.abs(a[i * n + j]!);
    best = Math.max(best, s);
  }
  return best;
}
