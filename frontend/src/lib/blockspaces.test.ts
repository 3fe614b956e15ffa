import { describe, expect, it } from "vitest";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { parse } from "svelte/compiler";

// Svelte 5 (compiler utils.js
// clean_nodes) strips the whitespace at the start and end of every block
// fragment, on one line or across lines, for {#if}/{:else}, {#each},
// {#key} and {#await}/{:then}/{:catch}. A space is lost where the text
// before the block ends in a non-space (or an inline element or {expr})
// and the fragment begins with whitespace, or the fragment ends with
// whitespace and what follows the block begins without one.

type N = { type: string; name?: string; data?: string; start: number; end: number; elseif?: boolean; [k: string]: unknown };
const blocks = new Set(["IfBlock", "EachBlock", "KeyBlock", "AwaitBlock"]);
const inline = new Set(["a", "b", "i", "em", "strong", "code", "span", "kbd", "small", "abbr", "mark", "q", "s", "sub", "sup", "time", "u", "var", "label", "button", "img"]);
const ws = /^[ \t\r\n]/;
const wsEnd = /[ \t\r\n]$/;
const isInline = (n?: N) => !!n && (n.type === "ExpressionTag" || n.type === "HtmlTag" || n.type === "RenderTag" || blocks.has(n.type) || (n.type === "RegularElement" && inline.has(n.name!)));
const endsTight = (n?: N) => !!n && ((n.type === "Text" && /\S$/.test(n.data!)) || isInline(n));
const startsTight = (n?: N) => !!n && ((n.type === "Text" && /^\S/.test(n.data!)) || isInline(n));

function fragments(b: N): { nodes: N[] }[] {
  return (["consequent", "alternate", "body", "fallback", "pending", "then", "catch"] as const).map((k) => b[k] as { nodes: N[] } | null).filter((f): f is { nodes: N[] } => !!f);
}

export function blockSpaceLost(file: string, source: string): string[] {
  const found: string[] = [];
  const line = (p: number) => source.slice(0, p).split("\n").length;
  const check = (nodes: N[], before?: N, after?: N) => {
    if (nodes.length === 1 && nodes[0].type === "IfBlock" && nodes[0].elseif) {
      for (const f of fragments(nodes[0])) check(f.nodes, before, after);
      return;
    }
    if (!nodes.some((n) => n.type !== "Text" || /\S/.test(n.data!))) return;
    const first = nodes[0], last = nodes[nodes.length - 1];
    if (first.type === "Text" && ws.test(first.data!) && endsTight(before)) found.push(`${file}:${line(first.start)}: a space after the text before the block is lost`);
    if (last.type === "Text" && wsEnd.test(last.data!) && startsTight(after)) found.push(`${file}:${line(last.end)}: a space before the text after the block is lost`);
  };
  const walk = (nodes: N[]) =>
    nodes.forEach((n, i) => {
      if (blocks.has(n.type)) for (const f of fragments(n)) check(f.nodes, nodes[i - 1], nodes[i + 1]);
      const kids = [(n.fragment as { nodes: N[] } | undefined), (n.type === "SnippetBlock" ? (n.body as { nodes: N[] }) : undefined), ...(blocks.has(n.type) ? fragments(n) : [])];
      for (const k of kids) if (k) walk(k.nodes);
    });
  walk((parse(source, { modern: true }).fragment as unknown as { nodes: N[] }).nodes);
  return found;
}

function svelteFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return svelteFiles(p);
    return e.name.endsWith(".svelte") ? [p] : [];
  });
}

describe("block spaces (AST)", () => {
  it.each([
    ["one line", 'Esc denies.{#if n > 1} {n - 1} more.{/if}', 1],
    ["multi-line lead", "foo{#if n > 1}\n  bar\n{/if}baz", 2],
    ["multi-line trail after an element", "foo {#if n > 1}<b>bar</b>\n{/if}baz", 1],
    ["multi-line {:else}", "foo{#if a}x{:else}\n  bar{/if}", 1],
    ["multi-line {#each}", "foo{#each xs as x}\n  {x}\n{/each}", 1],
    ["{:then}", "foo{#await p}…{:then v} {v}{/await}", 1],
    ["written {\" \"}", 'Esc denies.{#if n > 1}{" "}{n - 1} more.{/if}', 0],
    ["space outside", "  {#if a} <b>x</b>{/if}", 0],
    ["&nbsp; is kept", "<b>x</b>{#if a}&nbsp;<i>y</i>{/if}", 0],
  ])("%s", (_, src, n) => {
    expect(blockSpaceLost("x.svelte", src)).toHaveLength(n);
  });

  it("no component loses a space at a block's edge", () => {
    const root = join(__dirname, "..");
    const found = svelteFiles(root).flatMap((f) => blockSpaceLost(f.slice(root.length + 1), readFileSync(f, "utf8")));
    expect(found, 'write the space as {" "} inside the block').toEqual([]);
  });
});
