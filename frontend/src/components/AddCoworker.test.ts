import { afterEach, describe, expect, it, vi } from "vitest";
import { flushSync, mount, unmount } from "svelte";
import type { CoworkerPreview } from "../lib/types";
import { eventually } from "../testing/eventually";

// The Go side, as api.ts wraps it (app/addcoworker.go's PreviewCoworker).
const fake = vi.hoisted(() => ({ previewCoworker: vi.fn(), addCoworker: vi.fn() }));
vi.mock("../lib/api", () => ({ api: fake }));
const { default: AddCoworker } = await import("./AddCoworker.svelte");

const preview = (more: Partial<CoworkerPreview>): CoworkerPreview => ({
  source: "", id: "", name: "", description: "", version: "", tools: [], errors: [], dest: "", exists: false, refused: "", can_link: true, ...more,
});

const mounted: ReturnType<typeof mount>[] = [];
afterEach(() => {
  mounted.splice(0).forEach((c) => unmount(c));
  document.body.innerHTML = "";
  vi.clearAllMocks();
});

describe("AddCoworker", () => {
  it("offers Use the parent folder for a bundle's coworker/ folder, and previews the bundle on a press", async () => {
    fake.previewCoworker.mockImplementation(async (path: string) => path === "/b/notes/coworker"
      ? preview({ source: path, refused: "/b/notes/coworker is the coworker/ folder of a bundle; add its parent /b/notes instead", use_instead: "/b/notes" })
      : preview({ source: path, id: "notes", name: "Notes", dest: "/c/notes" }));
    const target = document.createElement("div");
    document.body.append(target);
    mounted.push(mount(AddCoworker, { target, props: { path: "/b/notes/coworker", onclose: () => {} } }));
    const use = () => Array.from(target.querySelectorAll("button")).find((b) => b.textContent === "Use the parent folder");
    await eventually(() => expect(use()).toBeTruthy());
    expect(target.querySelector("[role=alert]")?.textContent).toContain("is the coworker/ folder of a bundle");
    expect(target.textContent).not.toContain("Copy into coworkers");
    use()!.click();
    await eventually(() => expect(target.textContent).toContain("Copy into coworkers"));
    flushSync();
    expect(fake.previewCoworker).toHaveBeenLastCalledWith("/b/notes");
    expect(target.textContent).toContain("From /b/notes");
    expect(target.querySelector(".facts")?.textContent).toContain("Notes");
    expect(use()).toBeUndefined();
  });

  it("offers no such button for another refusal", async () => {
    fake.previewCoworker.mockResolvedValue(preview({ source: "/x", refused: "/x is not a coworker bundle: /x/coworker/manifest.md is missing" }));
    const target = document.createElement("div");
    document.body.append(target);
    mounted.push(mount(AddCoworker, { target, props: { path: "/x", onclose: () => {} } }));
    await eventually(() => expect(target.querySelector("[role=alert]")).not.toBeNull());
    expect(target.textContent).not.toContain("Use the parent folder");
  });
});
