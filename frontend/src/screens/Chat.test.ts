import { afterEach, describe, expect, it, vi } from "vitest";
import { flushSync, mount, unmount } from "svelte";
import { eventually } from "../testing/eventually";

const fake = vi.hoisted(() => ({
  cancel: vi.fn(async () => undefined), send: vi.fn(async () => ({})), retry: vi.fn(async () => ({})),
  revokeChatGrant: vi.fn(async () => undefined), chatGrants: vi.fn(async () => []),
  chatModels: vi.fn(async () => ({ current: "m", models: ["m", "other"] })),
  setChatModel: vi.fn(async (id: string, model: string) => ({ session_id: id, coworker: "helper", coworker_name: "Helper", model: `openai-compatible x model ${model}`, model_name: model, approval_mode: "ask", tools: [] })),
}));
vi.mock("../lib/api", () => ({ api: fake }));

const { default: Chat } = await import("./Chat.svelte");
const { app } = await import("../lib/state.svelte");
const { emptyChat } = await import("../lib/chat");

const mounted: ReturnType<typeof mount>[] = [];
afterEach(() => {
  mounted.splice(0).forEach((c) => unmount(c));
  app.chats = {};
  app.approvals = [];
  vi.clearAllMocks();
});

function render(running: boolean, o: { lastStatus?: string; mode?: string; grants?: { tool: string; digest: string }[] } = {}): HTMLElement {
  const state = emptyChat();
  app.chats = {
    s1: {
      info: { session_id: "s1", coworker: "helper", coworker_name: "Helper", model: "m", model_name: "m", approval_mode: o.mode ?? "ask", tools: [] } as never,
      state: { ...state, running, lastStatus: o.lastStatus ?? "", items: [{ kind: "user", key: "u1", text: "what is my battery?" }] },
      error: "",
      grants: o.grants ?? [],
    },
  };
  const target = document.createElement("div");
  document.body.append(target);
  mounted.push(mount(Chat, { target, props: { sessionId: "s1" } }));
  flushSync();
  return target;
}

describe("Chat model picker", () => {
  it("lists the provider's models by the composer and switches this chat's next turn", async () => {
    const root = render(false);
    const sel = root.querySelector<HTMLSelectElement>(".composer select")!;
    expect(root.querySelector<HTMLLabelElement>(".composer label")!.textContent).toContain("Model");
    await eventually(() => expect([...sel.options].map((o) => o.value)).toEqual(["m", "other"]));
    expect(sel.value).toBe("m");
    sel.value = "other";
    sel.dispatchEvent(new Event("change", { bubbles: true }));
    await eventually(() => expect(app.chats.s1.info.model_name).toBe("other"));
    expect(fake.setChatModel).toHaveBeenCalledWith("s1", "other");
    flushSync();
    expect(sel.value).toBe("other");
  });

  it("is disabled while a turn runs, and keeps the model when the change is refused", async () => {
    expect(render(true).querySelector<HTMLSelectElement>(".composer select")!.disabled).toBe(true);
    unmount(mounted.pop()!);
    fake.setChatModel.mockRejectedValueOnce(new Error("a turn is already running"));
    const sel = render(false).querySelector<HTMLSelectElement>(".composer select")!;
    await eventually(() => expect(sel.options.length).toBe(2));
    sel.value = "other";
    sel.dispatchEvent(new Event("change", { bubbles: true }));
    await eventually(() => expect(sel.title).toContain("a turn is already running"));
    expect(sel.value).toBe("m");
    expect(app.chats.s1.info.model_name).toBe("m");
  });
});

const esc = () => window.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", cancelable: true }));

describe("Chat keys", () => {
  it("Esc stops a running turn", () => {
    render(true);
    esc();
    expect(fake.cancel).toHaveBeenCalledWith("s1");
  });

  it("Esc leaves the turn alone while a consent dialog is open (Esc is the dialog's) or when nothing runs", () => {
    render(true);
    app.approvals = [{ id: "p1" } as never];
    esc();
    app.approvals = [];
    unmount(mounted.pop()!);
    render(false);
    esc();
    expect(fake.cancel).not.toHaveBeenCalled();
  });

  it("ArrowUp in an empty box brings back the last message to edit and resend", () => {
    const root = render(false);
    const box = root.querySelector("textarea")!;
    box.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowUp", bubbles: true, cancelable: true }));
    flushSync();
    expect(box.value).toBe("what is my battery?");
  });
});

const button = (root: HTMLElement, text: string) =>
  [...root.querySelectorAll("button")].find((b) => b.textContent?.trim() === text);

describe("Chat after a turn", () => {
  it("offers Retry after a failed, stopped or cancelled turn, and runs it in the same chat", () => {
    for (const st of ["failed", "stopped", "cancelled"]) {
      const root = render(false, { lastStatus: st });
      button(root, "Retry")!.click();
      expect(fake.retry).toHaveBeenLastCalledWith("s1");
      unmount(mounted.pop()!);
    }
    expect(fake.retry).toHaveBeenCalledTimes(3);
  });

  it("offers no Retry after a completed turn or while one runs", () => {
    expect(button(render(false, { lastStatus: "completed" }), "Retry")).toBeUndefined();
    unmount(mounted.pop()!);
    expect(button(render(true, { lastStatus: "failed" }), "Retry")).toBeUndefined();
  });

  it("Edit puts the last message in the box", () => {
    const root = render(false, { lastStatus: "completed" });
    button(root, "Edit")!.click();
    flushSync();
    expect(root.querySelector("textarea")!.value).toBe("what is my battery?");
  });
});

describe("Chat header", () => {
  it("a Bypass chat carries a warning strip; an asking chat none", () => {
    expect(render(false, { mode: "bypass" }).querySelector(".bypass-strip")?.textContent).toContain("without asking you");
    unmount(mounted.pop()!);
    expect(render(false).querySelector(".bypass-strip")).toBeNull();
  });

  it("lists the chat's grants, and × takes one back", () => {
    const root = render(false, { grants: [{ tool: "device.battery_status_get", digest: "sha256:1" }] });
    expect(root.querySelector(".grants")?.textContent).toContain("device.battery_status_get");
    root.querySelector<HTMLButtonElement>(".grants button")!.click();
    expect(fake.revokeChatGrant).toHaveBeenCalledWith("s1", "device.battery_status_get");
    unmount(mounted.pop()!);
    expect(render(false).querySelector(".grants")).toBeNull();
  });
});

describe("Chat scrolling", () => {
  it("scrolls a newly sent message into view, even after the person scrolled up", async () => {
    const target = render(false);
    const list = target.querySelector<HTMLElement>(".messages")!;
    Object.defineProperty(list, "scrollHeight", { configurable: true, get: () => 2000 });
    Object.defineProperty(list, "clientHeight", { configurable: true, get: () => 400 });
    list.scrollTop = 100; // scrolled up to read
    list.dispatchEvent(new Event("scroll"));
    fake.send.mockImplementation(async () => {
      app.chats.s1.state = { ...app.chats.s1.state, items: [...app.chats.s1.state.items, { kind: "user", key: "u2", text: "and now?" }] };
      return {};
    });
    const box = target.querySelector<HTMLTextAreaElement>("textarea")!;
    box.value = "and now?";
    box.dispatchEvent(new Event("input", { bubbles: true }));
    flushSync();
    target.querySelector<HTMLFormElement>("form.composer")!.requestSubmit();
    await eventually(() => expect(fake.send).toHaveBeenCalled());
    await eventually(() => expect(list.scrollTop).toBe(2000));
    expect(target.querySelector(".msg.user:last-of-type .bubble")?.textContent ?? list.textContent).toContain("and now?");
  });
});

describe("Chat's empty state", () => {
  function renderEmpty(tools: { name: string; policy?: string }[], mode = "ask"): HTMLElement {
    app.chats = {
      s1: {
        info: { session_id: "s1", coworker: "notes", coworker_name: "Notes Keeper", model: "m", model_name: "m", approval_mode: mode, tools } as never,
        state: emptyChat(),
        error: "",
        grants: [],
      },
    };
    const target = document.createElement("div");
    document.body.append(target);
    mounted.push(mount(Chat, { target, props: { sessionId: "s1" } }));
    flushSync();
    return target;
  }

  it("says which tools run without asking because the coworker allows them", () => {
    const text = renderEmpty([{ name: "files.files_list", policy: "allow" }, { name: "files.file_write", policy: "ask" }, { name: "files.remove", policy: "deny" }])
      .querySelector(".empty")!.textContent!.replace(/\s+/g, " ");
    expect(text).toContain("a call asks you first, but for those marked");
    expect(text).toContain("files.files_list runs without asking, files.file_write, files.remove never runs");
  });

  it("says each call asks when the coworker answers for none, and nothing asks with approval bypass", () => {
    expect(renderEmpty([{ name: "device.battery_get", policy: "ask" }]).querySelector(".empty")!.textContent).toContain("each call asks you first, unless you chose Always or Never");
    unmount(mounted.pop()!);
    expect(renderEmpty([{ name: "device.battery_get" }], "bypass").querySelector(".empty")!.textContent).toContain("calls run without asking");
  });
});
