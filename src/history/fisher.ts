/**
 * Fisher's exact test, one-sided, on a 2×2 table: is a piece of evidence (an error group, a failed request) more
 * often in a test's failing attempts than in its passing ones, beyond what chance gives with counts this small? The
 * rule a statistician accepts for the counts of a flaky test (3 failing attempts, 37 passing ones), where a χ² test's
 * approximation does not hold. Pure arithmetic on log-factorials, exact for any count a history holds.
 */

const logFactorials: number[] = [0];

function logFactorial(n: number): number {
  for (let i = logFactorials.length; i <= n; i++) logFactorials.push(logFactorials[i - 1]! + Math.log(i));
  return logFactorials[n]!;
}

function logChoose(n: number, k: number): number {
  return logFactorial(n) - logFactorial(k) - logFactorial(n - k);
}

/**
 * The one-sided p-value of the table
 *
 * |                  | failing attempts | passing attempts |
 * | ---------------- | ---------------- | ---------------- |
 * | evidence present | `a`              | `b`              |
 * | evidence absent  | `c`              | `d`              |
 *
 * against the alternative that the evidence is more frequent in failing attempts: the probability, with the margins
 * fixed, of `a` or more failing attempts among those with the evidence (hypergeometric upper tail).
 */
export function fisherOneSided(a: number, b: number, c: number, d: number): number {
  for (const n of [a, b, c, d]) if (!Number.isInteger(n) || n < 0) throw new RangeError(`fisherOneSided: counts are integers of at least 0, got ${a}, ${b}, ${c}, ${d}`);
  const present = a + b;
  const failing = a + c;
  const total = a + b + c + d;
  const denominator = logChoose(total, failing);
  const most = Math.min(present, failing);
  let p = 0;
  for (let x = a; x <= most; x++) p += Math.exp(logChoose(present, x) + logChoose(total - present, failing - x) - denominator);
  return Math.min(1, p);
}

/** The significance level evidence must reach: p ≤ 0.05. */
export const EVIDENCE_P = 0.05;

/** The rule as the output's legend names it. */
export const EVIDENCE_RULE = `one-sided Fisher's exact test, p ≤ ${EVIDENCE_P}, on the test's own attempts (present/absent × failing/passing)`;
