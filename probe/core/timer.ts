// Node's timers take a delay of at most 2^31-1 ms (about 24.8 days); a longer one fires after 1 ms, with a
// TimeoutOverflowWarning (https://nodejs.org/api/timers.html#settimeoutcallback-delay-args). A limit the
// user may set that high (--timeout) is checked against it, but a timer computed from one (the pool's
// deadline is the limit plus a grace, its cleanup twice the limit; a sweep worker's is the sum of its
// cases' limits) must be clamped, or it fires at once and a healthy case is recorded as a timeout.

/** The longest delay a Node timer keeps. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** `ms` as a timer delay: past MAX_TIMER_MS it waits that long (~24.8 days), not 1 ms. */
export function timerDelay(ms: number): number {
  return Math.min(ms, MAX_TIMER_MS);
}
