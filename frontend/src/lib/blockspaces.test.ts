import { describe, expect, it } from "vitest";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

// Svelte 5 drops the whitespace at the start and end of a block's content:
// `Esc denies.{#if n > 1} {n} more{/if}` renders "Esc denies.2 more". A
// space that must show there is written `{" "}`. This check finds the
// pattern in every component, so the bug cannot come back in a new one.

function svelteFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return svelteFiles(p);
    return e.name.endsWith(".svelte") ? [p] : [];
  });
}

/** blockSpaceLost lists "file:line: text" where a block's own space is dropped. */
export function blockSpaceLost(file: string, source: string): string[] {
  const found: string[] = [];
  source.split("\n").forEach((line, i) => {
    // A block opened after text on the same line whose content starts
    // with a space: the text and the content run together.
    const lead = /\S\{(?:#if|:else if|:else|#each|#key)\b[^}]*\} +\S/;
    // Text ending in a space just before a block's end that text follows at once.
    const trail = /\S +\{\/(?:if|each|key)\}\S/;
    if (lead.test(line) || trail.test(line)) found.push(`${file}:${i + 1}: ${line.trim()}`);
  });
  return found;
}

describe("block spaces", () => {
  it("finds the pattern it guards against", () => {
    expect(blockSpaceLost("x.svelte", 'Esc denies.{#if n > 1} {n - 1} more.{/if}')).toHaveLength(1);
    expect(blockSpaceLost("x.svelte", "<code>{t}</code>{#if c} in the chat{/if};")).toHaveLength(1);
    expect(blockSpaceLost("x.svelte", "{#if a}one {/if}two")).toHaveLength(1);
    expect(blockSpaceLost("x.svelte", 'Esc denies.{#if n > 1}{" "}{n - 1} more.{/if}')).toHaveLength(0);
    expect(blockSpaceLost("x.svelte", "  {#if a} <b>x</b>{/if}")).toHaveLength(0);
  });

  it("no component loses a space at a block's edge", () => {
    const root = join(__dirname, "..");
    const found = svelteFiles(root).flatMap((f) => blockSpaceLost(f.slice(root.length + 1), readFileSync(f, "utf8")));
    expect(found, "write the space as {\" \"} inside the block").toEqual([]);
  });
});
