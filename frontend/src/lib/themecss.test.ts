// The theme rule of docs/app.md#theme: colours are custom properties, set
// once per theme in app.css; every other rule, in app.css or a component's
// <style>, uses var(--…). A literal colour elsewhere would not follow the
// dark theme.
import { describe, expect, it } from "vitest";
import css from "../app.css?raw";

const components = import.meta.glob("../**/*.svelte", { query: "?raw", import: "default", eager: true }) as Record<string, string>;

/** A colour literal: #rgb, #rrggbb(aa), rgb(), rgba(), hsl(), hsla(). */
const literal = /#[0-9a-fA-F]{3,8}\b|\b(?:rgba?|hsla?)\(/g;
/** Allowed outside the theme blocks: a mask (only its alpha counts) and the running dot's glow. */
const allowed = [/mask-image/, /^\.dot\.running /];

/** outsideThemes returns css with the theme blocks (":root {" and ":root[data-theme=…] {") blanked. */
function outsideThemes(text: string): string {
  return text.replace(/:root(\[data-theme="dark"\])?\s*\{[^}]*\}/g, (m) => m.replace(/[^\n]/g, " "));
}

function offenders(name: string, text: string): string[] {
  const out: string[] = [];
  outsideThemes(text).split("\n").forEach((line, i) => {
    if (!line.match(literal) || allowed.some((a) => a.test(line.trim()))) return;
    out.push(`${name}:${i + 1}: ${line.trim().slice(0, 100)} — use a colour variable of app.css (add one to both theme blocks if none fits)`);
  });
  return out;
}

describe("theme colours", () => {
  it("are variables outside the theme blocks of app.css", () => {
    expect(offenders("src/app.css", css)).toEqual([]);
  });

  it("are variables in every component's <style>", () => {
    expect(Object.keys(components)).toContain("../components/ConsentModal.svelte");
    const found = Object.entries(components).flatMap(([path, src]) => {
      const style = /<style[^>]*>([\s\S]*?)<\/style>/.exec(src);
      if (!style) return [];
      const before = src.slice(0, style.index).split("\n").length - 1;
      return offenders(path.replace(/^\.\.\//, "src/"), "\n".repeat(before) + style[1]);
    });
    expect(found).toEqual([]);
  });

  it("has every variable of the light set in the dark set", () => {
    const names = (block: string) => new Set([...block.matchAll(/(--[a-z0-9-]+):/g)].map((m) => m[1]));
    const light = /:root\s*\{([^}]*)\}/.exec(css)?.[1] ?? "";
    const dark = /:root\[data-theme="dark"\]\s*\{([^}]*)\}/.exec(css)?.[1] ?? "";
    const missing = [...names(light)].filter((n) => !names(dark).has(n));
    expect(names(light).size).toBeGreaterThan(20);
    expect(missing).toEqual([]);
  });

  it("catches a literal", () => {
    expect(offenders("x.css", ":root { --a: #fff; }\n.x { color: #123456; }")).toEqual([
      "x.css:2: .x { color: #123456; } — use a colour variable of app.css (add one to both theme blocks if none fits)",
    ]);
  });
});
