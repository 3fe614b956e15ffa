// Keeps the frontend tests off short real-time bounds (eventually.ts):
// no test file calls vi.waitFor or vi.waitUntil itself (their 1 s default
// fails on a loaded machine), none sleeps on a real timer and asserts
// after it, and the vitest config sets its timeouts explicitly.
import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import config from "../../vite.config";
import { WAIT_MS } from "./eventually";

const src = join(import.meta.dirname, "..");

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return testFiles(path);
    return /\.test\.ts$/.test(name) ? [path] : [];
  });
}

describe("frontend tests wait with generous, explicit bounds", () => {
  it("no test calls vi.waitFor or vi.waitUntil directly", () => {
    const offenders = testFiles(src)
      .filter((f) => !f.endsWith("timing.test.ts"))
      .flatMap((f) =>
        readFileSync(f, "utf8")
          .split("\n")
          .map((line, i) => ({ line, at: `${relative(src, f)}:${i + 1}` }))
          .filter(({ line }) => /\bvi\.(waitFor|waitUntil)\s*\(/.test(line))
          .map(({ at }) => at),
      );
    expect(offenders, "use eventually() from src/testing/eventually.ts").toEqual([]);
  });

  it("no test sleeps on a real timer longer than a tick", () => {
    const offenders = testFiles(src)
      .filter((f) => !f.endsWith("timing.test.ts"))
      .flatMap((f) =>
        readFileSync(f, "utf8")
          .split("\n")
          .map((line, i) => ({ line, at: `${relative(src, f)}:${i + 1}` }))
          .filter(({ line }) => /setTimeout\([^,]+,\s*([1-9]\d*)\s*\)/.test(line))
          .map(({ at }) => at),
      );
    expect(offenders, "use vitest fake timers, or eventually() for something that should happen").toEqual([]);
  });

  it("the config sets generous test and hook timeouts", () => {
    const t = (config as { test?: { testTimeout?: number; hookTimeout?: number } }).test;
    expect(t?.testTimeout).toBeGreaterThanOrEqual(60_000);
    expect(t?.hookTimeout).toBeGreaterThanOrEqual(60_000);
    expect(WAIT_MS).toBeGreaterThanOrEqual(30_000);
    expect(t!.testTimeout!).toBeGreaterThan(WAIT_MS);
  });
});
