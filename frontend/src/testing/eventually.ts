// The one way a frontend test waits for something that should happen.
//
// vi.waitFor gives up after 1 s and a test after vitest's 5 s default; on
// the shared 2-core CI machine (load 30 happens) both are too short, so a
// slow machine failed tests that were right (docs/ci.md#busy-machine).
// Tests wait through eventually, whose bound is explicit and generous, and
// vite.config.ts sets the test and hook timeouts explicitly; timing.test.ts
// keeps it so. Waits for time itself (a toast that hides after 4 s) use
// vitest's fake timers instead.
import { vi } from "vitest";

/** How long eventually waits by default: long enough for a loaded machine. */
export const WAIT_MS = 30_000;

/**
 * eventually retries check every 20 ms until it stops throwing (or its
 * promise resolves) and returns its value; after timeout ms it fails with
 * check's last error.
 */
export function eventually<T>(check: () => T | Promise<T>, timeout = WAIT_MS): Promise<T> {
  return vi.waitFor(check, { timeout, interval: 20 });
}
