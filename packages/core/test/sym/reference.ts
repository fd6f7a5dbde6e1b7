// Exact-arithmetic references for the sym tests: Stumpff functions c_k(t) = Σ (−t)^m/(2m + k)!
// summed with BigInt fixed point (2⁻³⁰⁰ resolution) from the exact binary value of t, and the
// error of a double against them in units in the last place (ulp) of the reference.

/** t = mantissa·2^exponent exactly (t finite, nonzero). */
function decompose(t: number): { mantissa: bigint; exponent: number } {
  let e = 0;
  let m = t;
  while (!Number.isInteger(m)) {
    m *= 2;
    e--;
  }
  return { mantissa: BigInt(m), exponent: e };
}

const P = 300;

/** c_k(t)·2^P, truncated (error below 2⁻²⁹⁰ relative to the result for |t| ≤ 1e4, k ≤ 40). */
export function stumpffFixed(k: number, t: number): bigint {
  let fact = 1n;
  for (let i = 2; i <= k; i++) fact *= BigInt(i);
  if (t === 0) return (1n << BigInt(P)) / fact;
  const { mantissa, exponent } = decompose(t);
  let sum = 0n;
  let num = 1n; // (−M)^m
  let shift = P; // P + E·m
  let small = 0;
  for (let m = 0; m < 2000; m++) {
    if (m > 0) {
      num *= -mantissa;
      shift += exponent;
      fact *= BigInt(2 * m + k - 1) * BigInt(2 * m + k);
    }
    const scaled = shift >= 0 ? num << BigInt(shift) : num / (1n << BigInt(-shift));
    const term = scaled / fact;
    sum += term;
    if (term === 0n || (term < 0n ? -term : term) < 2n) {
      if (++small > 3) break;
    } else small = 0;
  }
  return sum;
}

/** The double nearest to c_k(t) (reference value). */
export function stumpffReference(k: number, t: number): number {
  return Number(stumpffFixed(k, t)) * 2 ** -P;
}

/** ulp of x: the spacing of doubles at |x|. */
export function ulp(x: number): number {
  const a = Math.abs(x);
  if (a === 0) return Number.MIN_VALUE;
  const e = Math.floor(Math.log2(a));
  let u = 2 ** (e - 52);
  if (2 ** e > a) u /= 2; // log2 rounding at powers of two
  return Math.max(u, Number.MIN_VALUE);
}

/** |x − c_k(t)| in ulps of c_k(t), computed exactly from the fixed-point reference. */
export function stumpffUlpError(k: number, t: number, x: number): number {
  const ref = stumpffFixed(k, t);
  const value = Number(ref) * 2 ** -P;
  const { mantissa, exponent } = x === 0 ? { mantissa: 0n, exponent: 0 } : decompose(x);
  const xs =
    exponent + P >= 0 ? mantissa << BigInt(exponent + P) : mantissa / (1n << BigInt(-exponent - P));
  const diff = xs - ref;
  return Math.abs(Number(diff) * 2 ** -P) / ulp(value);
}
