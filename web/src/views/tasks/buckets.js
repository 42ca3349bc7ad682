// Durations are bucketed on a log scale, five buckets per decade, exactly as the engine
// (and Go's durationHistogram) does; a bucket is named by its lower bound.
const LOG_DIV = Math.log(10 ** (1 / 5));

export const bucketIndex = (ns) => (ns > 0 ? Math.trunc(Math.log(ns) / LOG_DIV) : 0);
export const bucketOfMin = (min) => Math.round(Math.log(Math.max(1, min)) / LOG_DIV);
export const bucketUpper = (min) => Math.trunc(Math.exp((bucketOfMin(min) + 1) * LOG_DIV));
