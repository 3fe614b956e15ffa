import { describe, expect, it } from "vitest";
import { asTheme, resolveTheme, ThemeController, windowColour } from "./theme";

/** A MediaQueryList whose answer the test flips, firing "change" like the OS. */
function fakeMedia(matches: boolean) {
  const listeners: Array<() => void> = [];
  return {
    matches,
    addEventListener: (_: string, cb: () => void) => listeners.push(cb),
    flip(v: boolean) {
      this.matches = v;
      listeners.forEach((cb) => cb());
    },
  };
}

function memStorage(init: Record<string, string> = {}) {
  const m = new Map(Object.entries(init));
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), m };
}

describe("theme", () => {
  it("reads saved values, unknown ones as system", () => {
    expect(asTheme("dark")).toBe("dark");
    expect(asTheme("light")).toBe("light");
    expect(asTheme("")).toBe("system");
    expect(asTheme("sepia")).toBe("system");
    expect(asTheme(null)).toBe("system");
    expect(resolveTheme("system", true)).toBe("dark");
    expect(resolveTheme("system", false)).toBe("light");
    expect(resolveTheme("light", true)).toBe("light");
  });

  it("follows the OS while on system, and not once a theme is chosen", () => {
    const root = document.createElement("html");
    const media = fakeMedia(false);
    const painted: number[][] = [];
    const bars: string[] = [];
    const c = new ThemeController({ root, media: media as unknown as MediaQueryList, storage: memStorage(),
      setWindow: (...rgb) => painted.push(rgb), setTitleBar: (t) => bars.push(t) });
    c.set("system");
    expect(root.dataset.theme).toBe("light");
    media.flip(true);
    expect(root.dataset.theme).toBe("dark");
    expect(painted.at(-1)).toEqual([...windowColour.dark]);
    c.set("light");
    expect(root.dataset.theme).toBe("light");
    media.flip(false);
    media.flip(true);
    expect(root.dataset.theme).toBe("light");
    expect(painted.at(-1)).toEqual([...windowColour.light]);
    expect(bars.at(-1)).toBe("light");
    expect(bars).toContain("system");
  });

  it("restores the theme of the last run before the app answers", () => {
    const root = document.createElement("html");
    const storage = memStorage({ "openworker.theme": "dark" });
    const c = new ThemeController({ root, media: fakeMedia(false) as unknown as MediaQueryList, storage });
    c.restore();
    expect(c.chosen).toBe("dark");
    expect(root.dataset.theme).toBe("dark");
    c.set("light");
    expect(storage.m.get("openworker.theme")).toBe("light");
    const fresh = new ThemeController({ root, storage: memStorage() });
    fresh.restore();
    expect(fresh.chosen).toBe("system");
  });
});
