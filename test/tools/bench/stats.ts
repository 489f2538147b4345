/** The benchmark's statistics: quantiles of a run's samples. */

/** The p-quantile, interpolating linearly between the two nearest values. */
export const quantile = (xs: readonly number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const at = (sorted.length - 1) * p;
  const low = sorted[Math.floor(at)] ?? Number.NaN;
  const high = sorted[Math.ceil(at)] ?? low;
  return low + (high - low) * (at - Math.floor(at));
};

export const median = (xs: readonly number[]) => quantile(xs, 0.5);

/** The middle half of `xs` (first to third quartile), rounded to 3 decimals. */
export const middleHalf = (xs: readonly number[]): readonly [number, number] => [
  +quantile(xs, 0.25).toFixed(3),
  +quantile(xs, 0.75).toFixed(3),
];
