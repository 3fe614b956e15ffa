// The colour theme (docs/app.md#theme): "system" follows the OS
// (prefers-color-scheme), "light" and "dark" are fixed. The resolved one is
// set as <html data-theme="light|dark">; app.css keeps each theme's colours
// as custom properties under that attribute. The choice is saved in
// settings.json (Preferences.SetTheme) and mirrored in localStorage, so the first
// paint after a restart already has it.
import type { Theme } from "./types";
import { WindowSetBackgroundColour, WindowSetDarkTheme, WindowSetLightTheme, WindowSetSystemDefaultTheme } from "../wailsjs/runtime/runtime";

export const themes: ReadonlyArray<{ id: Theme; label: string }> = [
  { id: "system", label: "System" },
  { id: "light", label: "Light" },
  { id: "dark", label: "Dark" },
];

const storageKey = "openworker.theme";
const darkQuery = "(prefers-color-scheme: dark)";

/** asTheme reads a saved value: anything but "light" or "dark" is "system". */
export function asTheme(v: unknown): Theme {
  return v === "light" || v === "dark" ? v : "system";
}

/** resolveTheme is the theme shown: the chosen one, or the OS's for "system". */
export function resolveTheme(t: Theme, osDark: boolean): "light" | "dark" {
  return t === "system" ? (osDark ? "dark" : "light") : t;
}

/** The page background of each theme (app.css --bg), for the native window behind it. */
export const windowColour = { light: [246, 247, 249], dark: [20, 23, 31] } as const;

interface ThemeEnv {
  root: HTMLElement;
  media?: MediaQueryList;
  storage?: Pick<Storage, "getItem" | "setItem">;
  /** Sets the native window's background (Wails WindowSetBackgroundColour); absent in tests. */
  setWindow?: (r: number, g: number, b: number) => void;
  /** Sets the native title bar's theme (Wails; Windows only, a no-op elsewhere). */
  setTitleBar?: (t: Theme) => void;
}

/**
 * ThemeController applies a theme to the page and follows the OS while the
 * theme is "system". chosen is the theme picked; shown the one resolved.
 */
export class ThemeController {
  chosen: Theme = "system";
  #env: ThemeEnv;

  constructor(env: ThemeEnv) {
    this.#env = env;
    env.media?.addEventListener?.("change", () => this.#paint());
  }

  get shown(): "light" | "dark" {
    return resolveTheme(this.chosen, this.#env.media?.matches ?? false);
  }

  /** restore applies the theme kept from the last run (before the Go side answers). */
  restore() {
    let v: unknown = null;
    try {
      v = this.#env.storage?.getItem(storageKey);
    } catch {
      // storage refused: follow the OS
    }
    this.set(asTheme(v));
  }

  /** set shows t and remembers it for the next start. */
  set(t: Theme) {
    this.chosen = t;
    try {
      this.#env.storage?.setItem(storageKey, t);
    } catch {
      // storage refused: settings.json still has it
    }
    this.#paint();
  }

  #paint() {
    const shown = this.shown;
    this.#env.root.dataset.theme = shown;
    const [r, g, b] = windowColour[shown];
    try {
      this.#env.setWindow?.(r, g, b);
      this.#env.setTitleBar?.(this.chosen);
    } catch {
      // no native window (a browser, the contrast check)
    }
  }
}

/** The theme of the running app. */
export const theme = new ThemeController({
  root: document.documentElement,
  media: globalThis.matchMedia?.(darkQuery),
  storage: globalThis.localStorage,
  setWindow: (r, g, b) => WindowSetBackgroundColour(r, g, b, 255),
  setTitleBar: (t) => (t === "dark" ? WindowSetDarkTheme() : t === "light" ? WindowSetLightTheme() : WindowSetSystemDefaultTheme()),
});
