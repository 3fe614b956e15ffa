import { describe, expect, it, vi } from "vitest";

const clipboard = vi.hoisted(() => ({ set: vi.fn(async (_text: string) => true) }));
vi.mock("../wailsjs/runtime/runtime", () => ({ EventsOn: vi.fn(), BrowserOpenURL: vi.fn(), ClipboardSetText: clipboard.set }));

import { makeApi, toError, type Backend } from "./api";
import { AppEvent } from "./events";

describe("api wrappers", () => {
  it("pass arguments through and return the Go value", async () => {
    const b = { Chats: { OpenChat: vi.fn(async (id: string) => ({ session_id: "ses_1", coworker: id })) } } as unknown as Backend;
    const api = makeApi(b, () => () => {});
    await expect(api.openChat("helper")).resolves.toMatchObject({ session_id: "ses_1", coworker: "helper" });
    expect(b.Chats.OpenChat).toHaveBeenCalledWith("helper");
  });

  it("reconcile sends the outcome spelled as the journal stores it", async () => {
    const b = { Activity: { Reconcile: vi.fn(async (id: string, outcome: string) => ({ id, reconciled: outcome })) } } as unknown as Backend;
    const api = makeApi(b, () => () => {});
    await expect(api.reconcile("inv_1", "not_applied")).resolves.toMatchObject({ id: "inv_1", reconciled: "not_applied" });
    expect(b.Activity.Reconcile).toHaveBeenCalledWith("inv_1", "not_applied");
  });

  it("reject with an Error carrying the Go message", async () => {
    const b = { Chats: { Send: vi.fn(async () => { throw "a turn is already running in this chat"; }) } } as unknown as Backend;
    const api = makeApi(b, () => () => {});
    await expect(api.send("s", "x")).rejects.toThrow("a turn is already running in this chat");
  });

  it("turn null lists into empty ones", async () => {
    const b = { Activity: { Sessions: vi.fn(async () => null) }, Asks: { PendingApprovals: vi.fn(async () => null) }, Servers: { FindServerConfigs: vi.fn(async () => null) } } as unknown as Backend;
    const api = makeApi(b, () => () => {});
    await expect(api.sessions()).resolves.toEqual([]);
    await expect(api.pendingApprovals()).resolves.toEqual([]);
    await expect(api.findServerConfigs()).resolves.toEqual([]);
  });

  it("passes the previewed digest to ApplyImport", async () => {
    const b = { Servers: { ApplyImport: vi.fn(async () => ({ settings: { servers_path: "/s.json" } })) } } as unknown as Backend;
    const api = makeApi(b, () => () => {});
    await expect(api.applyImport("/c.json", "sha256:ab")).resolves.toEqual({ settings: { servers_path: "/s.json" } });
    expect(b.Servers.ApplyImport).toHaveBeenCalledWith("/c.json", "sha256:ab", []);
  });

  it("copies the diagnostics to the clipboard, and says when the clipboard refuses", async () => {
    const b = { Activity: { Diagnostics: vi.fn(async () => "[openworker]\n  version  dev\n") } } as unknown as Backend;
    const api = makeApi(b, () => () => {});
    await expect(api.copyDiagnostics()).resolves.toBe("[openworker]\n  version  dev\n");
    expect(clipboard.set).toHaveBeenCalledWith("[openworker]\n  version  dev\n");
    clipboard.set.mockResolvedValueOnce(false);
    await expect(api.copyDiagnostics()).rejects.toThrow("The clipboard did not take the diagnostics.");
  });

  it("subscribes through the given function", () => {
    const sub = vi.fn(() => () => {});
    const api = makeApi({} as Backend, sub);
    const cb = () => {};
    api.on(AppEvent.Harness, cb);
    expect(sub).toHaveBeenCalledWith("harness:event", cb);
  });

  it("toError keeps messages", () => {
    expect(toError("x").message).toBe("x");
    expect(toError({ message: "y" }).message).toBe("y");
    const e = new Error("z");
    expect(toError(e)).toBe(e);
  });
});
