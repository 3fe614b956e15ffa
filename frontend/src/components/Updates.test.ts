import { afterEach, describe, expect, it, vi } from "vitest";
import { flushSync, mount, unmount } from "svelte";
import type { UpdateStatus } from "../lib/types";
import { eventually } from "../testing/eventually";

const fake = vi.hoisted(() => ({ updateStatus: vi.fn(), setUpdateChecks: vi.fn() }));
vi.mock("../lib/api", () => ({ api: fake }));
const { default: Updates } = await import("./Updates.svelte");

const status = (more: Partial<UpdateStatus>): UpdateStatus => ({ on: true, state: "idle", current: "1.0.0", done: 0, total: 0, ...more });

describe("Updates", () => {
  let comp: ReturnType<typeof mount> | undefined;
  afterEach(() => {
    if (comp) unmount(comp);
    comp = undefined;
    document.body.innerHTML = "";
    vi.resetAllMocks();
  });

  it("shows the download's progress, then restart to update", async () => {
    fake.updateStatus.mockResolvedValue(status({ state: "downloading", latest: "1.1.0", done: 250, total: 1000, notes: "Faster." }));
    comp = mount(Updates, { target: document.body, props: { pollMs: 10 } });
    await eventually(() => expect(document.body.textContent).toContain("Downloading OpenWorker 1.1.0: 25 %"));
    expect(document.querySelector("progress")?.value).toBe(250);
    expect(document.body.textContent).toContain("Faster.");
    fake.updateStatus.mockResolvedValue(status({ state: "ready", latest: "1.1.0", done: 1000, total: 1000 }));
    await eventually(() => expect(document.body.textContent).toContain("OpenWorker 1.1.0 is ready: restart OpenWorker to update."));
  });

  it("saves the switch at once", async () => {
    fake.updateStatus.mockResolvedValue(status({ state: "up_to_date" }));
    fake.setUpdateChecks.mockResolvedValue(status({ on: false, state: "up_to_date" }));
    comp = mount(Updates, { target: document.body, props: { pollMs: 60_000 } });
    const box = await eventually(() => {
      const b = document.querySelector<HTMLInputElement>("input[type=checkbox]");
      expect(b?.disabled).toBe(false);
      return b!;
    });
    expect(box.checked).toBe(true);
    expect(box.parentElement!.matches("label.check")).toBe(true); // the switch layout of every Settings checkbox (app.css)
    box.click();
    flushSync();
    await eventually(() => expect(fake.setUpdateChecks).toHaveBeenCalledWith(false));
    await eventually(() => expect(box.checked).toBe(false));
  });

  it("says why a check failed", async () => {
    fake.updateStatus.mockResolvedValue(status({ state: "error", error: "update feed x: the signature does not match its content" }));
    comp = mount(Updates, { target: document.body, props: { pollMs: 60_000 } });
    await eventually(() => expect(document.body.textContent).toContain("The last check failed: update feed x: the signature does not match"));
  });
});
