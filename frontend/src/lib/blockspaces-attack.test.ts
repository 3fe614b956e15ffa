import { describe, expect, it } from "vitest";
import { blockSpaceLost } from "./blockspaces.test";

// Svelte 5.57 drops these spaces too (rendered with svelte/server):
//   foo{#if n > 1}\n  bar\n{/if}baz        -> "foobarbaz"
//   foo {#if n > 1}<b>bar</b>\n{/if}baz     -> "foo <b>bar</b>baz"
//   a{#if n>1}\n  <b>b</b>\n{/if}c           -> "a<b>b</b>c"
// blockSpaceLost looks at one line at a time, so a block whose content
// starts or ends with a line break is never checked; nor are {#await},
// {:then} and {:catch}.
describe("blockSpaceLost misses", () => {
  it.each([
    ["multi-line lead", "foo{#if n > 1}\n  bar\n{/if}baz"],
    ["multi-line trail after an element", "foo {#if n > 1}<b>bar</b>\n{/if}baz"],
    ["multi-line {:else}", "foo{#if a}x{:else}\n  bar{/if}"],
    ["multi-line {#each}", "foo{#each xs as x}\n  {x}\n{/each}"],
    ["{:then}", "foo{#await p}…{:then v} {v}{/await}"],
  ])("%s", (_, src) => {
    expect(blockSpaceLost("x.svelte", src)).toHaveLength(1);
  });
});
