import { afterEach, describe, expect, it, vi } from "vitest";
import { mount, unmount } from "svelte";
import type { DiagnosticsReport } from "../lib/types_diagnostics";
import { eventually } from "../testing/eventually";

const fake = vi.hoisted(() => ({ diagnosticsPlan: vi.fn(), runDiagnostics: vi.fn(), saveDiagnostics: vi.fn(), copyText: vi.fn() }));
vi.mock("../lib/api", () => ({ api: fake }));

const { default: Diagnostics } = await import("./Diagnostics.svelte");
const { app } = await import("../lib/state.svelte");

const mounted: ReturnType<typeof mount>[] = [];
afterEach(() => {
  mounted.splice(0).forEach((c) => unmount(c));
  vi.clearAllMocks();
});
const button = (root: HTMLElement, text: string) =>
  [...root.querySelectorAll("button")].find((b) => b.textContent?.trim() === text) as HTMLButtonElement;

const report: DiagnosticsReport = {
  took_ms: 1234,
  text: "[providers]\n  provider dev  ok: stdio dev: started, 3 tools (120ms)\n",
  sections: [
    { name: "providers", facts: [
      { key: "provider dev", status: "ok", value: "stdio dev: started, 3 tools (120ms)" },
      { key: "provider fetcher", status: "unavailable", value: "not started: npx may still be downloading the package" },
      { key: "not started", value: "no coworker uses idle" },
    ] },
    { name: "model", facts: [{ key: "reachable", status: "failed", value: "connection refused <b>x</b>" }] },
  ],
};

function show(): HTMLElement {
  const target = document.createElement("div");
  document.body.append(target);
  mounted.push(mount(Diagnostics, { target }));
  return target;
}

describe("Diagnostics", () => {
  it("runs at once when nothing may download, and shows the report as text", async () => {
    fake.diagnosticsPlan.mockResolvedValue({ servers: [{ namespace: "dev", coworkers: ["Helper"], may_download: "" }], unused: ["idle"] });
    fake.runDiagnostics.mockResolvedValue(report);
    const root = show();
    await eventually(() => expect(root.querySelectorAll(".report-section")).toHaveLength(2));
    expect(fake.runDiagnostics).toHaveBeenCalledWith(false);
    const providers = root.querySelector('[data-section="providers"]')!;
    expect(providers.querySelector("h2")?.textContent).toBe("MCP servers");
    expect([...providers.querySelectorAll("dt")].map((d) => d.textContent)).toEqual(["dev", "fetcher", "not started"]);
    expect(providers.querySelector(".pill.fact.ok")?.textContent).toBe("ok");
    expect(root.querySelector('[data-section="model"] dd')?.textContent).toContain("connection refused <b>x</b>");
    expect(root.querySelector('[data-section="model"] b')).toBeNull();
    expect(root.querySelector(".took")?.textContent).toContain("1.2 s");
    expect(root.querySelector(".summary")?.textContent?.replace(/\s+/g, " ")).toContain("1 check failed: Model: reachable");

    button(root, "Copy").click();
    await eventually(() => expect(fake.copyText).toHaveBeenCalledWith(report.text));
    await eventually(() => expect(app.notices.map((n) => n.message)).toContain("Diagnostics copied"));
    window.dispatchEvent(new KeyboardEvent("keydown", { key: "c", code: "KeyC", altKey: true, bubbles: true, cancelable: true }));
    await eventually(() => expect(fake.copyText).toHaveBeenCalledTimes(2));
    fake.saveDiagnostics.mockResolvedValue("/home/ann/openworker-diagnostics.txt");
    button(root, "Save…").click();
    await eventually(() => expect(root.querySelector(".took")?.textContent).toMatch(/ s\. Saved to \/home\/ann\/openworker-diagnostics\.txt\./));
    expect(fake.saveDiagnostics).toHaveBeenCalledWith(report.text);
  });

  it("asks first when a server may download, and starts it only when allowed", async () => {
    fake.diagnosticsPlan.mockResolvedValue({ servers: [
      { namespace: "dev", coworkers: ["Helper"], may_download: "" },
      { namespace: "fetcher", coworkers: ["Fetcher", "Helper"], may_download: "npx may still be downloading the package" },
    ], unused: [] });
    fake.runDiagnostics.mockResolvedValue(report);
    const root = show();
    await eventually(() => expect(root.querySelector(".ask-downloads")).not.toBeNull());
    expect(fake.runDiagnostics).not.toHaveBeenCalled();
    expect(root.querySelector(".ask-downloads")?.textContent).toContain("1 server may download before it starts");
    expect(root.querySelector(".downloads")?.textContent).toContain("fetcher — npx may still be downloading the package; used by Fetcher, Helper");
    button(root, "Start it too").click();
    await eventually(() => expect(fake.runDiagnostics).toHaveBeenCalledWith(true));
    await eventually(() => expect(root.querySelector(".ask-downloads")).toBeNull());

    const again = show();
    await eventually(() => expect(again.querySelector(".ask-downloads")).not.toBeNull());
    button(again, "Skip it").click();
    await eventually(() => expect(fake.runDiagnostics).toHaveBeenLastCalledWith(false));
  });
});
