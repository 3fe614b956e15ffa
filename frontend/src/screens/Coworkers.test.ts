import { afterEach, describe, expect, it } from "vitest";
import { flushSync, mount, unmount } from "svelte";
import Coworkers from "./Coworkers.svelte";
import { app } from "../lib/state.svelte";
import type { BrokenBundle, CoworkerList } from "../lib/types";

const mounted: ReturnType<typeof mount>[] = [];
afterEach(() => {
  mounted.splice(0).forEach((c) => unmount(c));
  app.coworkers = null;
});

function render(list: CoworkerList): HTMLElement {
  app.coworkers = list;
  const target = document.createElement("div");
  mounted.push(mount(Coworkers, { target }));
  flushSync();
  return target;
}

const dir = "/home/ann/OpenWorker/coworkers";
const broken = (b: Partial<BrokenBundle>): BrokenBundle => ({ id: "", name: "", dir: "", file: "", line: 0, col: 0, message: "", fix: "", ...b });
const empty = "No coworkers in this folder yet";

describe("Coworkers", () => {
  it("says the folder is empty when it has no coworker at all", () => {
    expect(render({ dir, coworkers: [], broken: [], error: "" }).textContent).toContain(empty);
  });

  it("does not say the folder is empty when it has coworkers that cannot start", () => {
    const root = render({
      dir, coworkers: [], error: "", broken: [
        broken({ id: "memory", name: "Memory", dir: dir + "/memory", file: dir + "/memory/coworker/tools.json", message: 'tools.json names MCP provider "memory", which is not registered', fix: "add the missing MCP provider" }),
        broken({ dir: dir + "/notes.zip", file: dir + "/notes.zip", message: "this is a file, not a coworker folder, so it was skipped" }),
      ],
    });
    expect(root.textContent).not.toContain(empty);
    expect(root.textContent).toContain("Coworkers that cannot start");
    expect(root.querySelectorAll("article.broken")).toHaveLength(2);
  });
});
