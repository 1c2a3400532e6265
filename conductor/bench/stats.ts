// Order statistics for the benchmarks (one implementation for every bench and the host half).
/** The `q`-quantile of `xs` (nearest rank; NaN for an empty list). */
export function quantile(xs: readonly number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
}

export const median = (xs: readonly number[]): number => quantile(xs, 0.5);

/** A difference with its sign: +12, −3 (a minus sign, as the tables print it). */
export const signed = (x: number, digits = 0): string => `${x < 0 ? '−' : '+'}${Math.abs(x).toFixed(digits)}`;
