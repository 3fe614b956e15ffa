// The UI's one time source (notices that expire, the consent dialog's
// arming delay, a copy button's "Copied"): tests pass vitest's fake timers
// through realClock, or a clock of their own.

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Runs fn once after ms milliseconds; the function it may return cancels that. */
  after(ms: number, fn: () => void): void | (() => void);
}

/** realClock reads Date.now and schedules with the global setTimeout, looked up at each call (so vi.useFakeTimers applies). */
export const realClock: Clock = {
  now: () => Date.now(),
  after: (ms, fn) => {
    const h = globalThis.setTimeout(fn, ms);
    return () => globalThis.clearTimeout(h);
  },
};
