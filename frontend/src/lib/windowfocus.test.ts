import { describe, expect, it } from "vitest";
import { FRAME_POLL_MS, trackWindowFocus, type FocusPage } from "./windowfocus";

/** A page whose focus the test moves, with a hand-driven interval. */
function fakePage() {
  const on: Record<string, (() => void)[]> = { focus: [], blur: [] };
  const timers = new Map<number, () => void>();
  let n = 0;
  const st = { active: "BODY", has: true };
  const page: FocusPage = {
    addEventListener: (t, f) => on[t].push(f),
    removeEventListener: (t, f) => (on[t] = on[t].filter((g) => g !== f)),
    hasFocus: () => st.has,
    activeTag: () => st.active,
    setInterval: (f, ms) => {
      expect(ms).toBe(FRAME_POLL_MS);
      timers.set(++n, f);
      return n;
    },
    clearInterval: (id) => timers.delete(id as number),
  };
  return {
    page, st, timers,
    fire: (t: "focus" | "blur") => on[t].forEach((f) => f()),
    tick: () => [...timers.values()].forEach((f) => f()),
  };
}

describe("trackWindowFocus", () => {
  it("reports leaving the window on a blur to another app, and coming back", () => {
    const p = fakePage();
    const got: boolean[] = [];
    trackWindowFocus(p.page, (v) => got.push(v));
    p.st.has = false;
    p.fire("blur");
    p.st.has = true;
    p.fire("focus");
    expect(got).toEqual([false, true]);
  });

  it("never counts a focus move into an app view's iframe as leaving, however long it stays there", () => {
    const p = fakePage();
    const got: boolean[] = [];
    trackWindowFocus(p.page, (v) => got.push(v));
    p.fire("focus");
    p.st.active = "IFRAME"; // a click in the view: the top window blurs, the frame has the focus
    p.fire("blur");
    for (let i = 0; i < 10; i++) p.tick();
    expect(got).toEqual([true]);
    expect(p.timers.size).toBe(1);
  });

  it("notices leaving for another app from inside an iframe, which fires no event on the top window", () => {
    const p = fakePage();
    const got: boolean[] = [];
    const stop = trackWindowFocus(p.page, (v) => got.push(v));
    p.fire("focus");
    p.st.active = "IFRAME";
    p.fire("blur");
    p.st.has = false; // Alt+Tab away while the view had the focus
    p.tick();
    expect(got).toEqual([true, false]);
    expect(p.timers.size).toBe(0);
    p.st.has = true;
    p.st.active = "BODY";
    p.fire("focus");
    expect(got).toEqual([true, false, true]);
    stop();
    p.fire("blur");
    expect(got).toEqual([true, false, true]);
  });

  it("stops polling when the focus comes back from the iframe to the page", () => {
    const p = fakePage();
    const got: boolean[] = [];
    trackWindowFocus(p.page, (v) => got.push(v));
    p.st.active = "IFRAME";
    p.fire("blur");
    expect(p.timers.size).toBe(1);
    p.st.active = "TEXTAREA";
    p.tick();
    expect(p.timers.size).toBe(0);
    expect(got).toEqual([true]);
  });
});
