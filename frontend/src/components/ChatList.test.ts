import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { flushSync, mount, unmount } from "svelte";
import type { JournalSession } from "../lib/types";
import type { Clock } from "../lib/clock";
import { eventually } from "../testing/eventually";

// The Go side, as the bound methods answer (api.ts wraps them).
const chat = (id: string, more: Partial<JournalSession> = {}): JournalSession => ({
  id, coworker: "device", coworker_version: "1.0.0", identity: "sha256:0", provider: "openai", model: "m", approve: "ask",
  status: "closed", error: "", created_at: "2026-12-01T11:00:00Z", updated_at: "2026-12-01T11:00:00Z",
  last_activity: "2026-12-01T11:55:00Z", title: "title of " + id, ...more,
});
const fake = vi.hoisted(() => ({
  chats: vi.fn(), searchChats: vi.fn(), chatSnippets: vi.fn(async () => ({})), renameChat: vi.fn(), hideChat: vi.fn(), resumeChat: vi.fn(), sessionDetail: vi.fn(),
  closeChat: vi.fn(),
}));
vi.mock("../lib/api", () => ({ api: fake }));

const { app } = await import("../lib/state.svelte");
const { SEARCH_DEBOUNCE_MS } = await import("../lib/chatlist");
const { default: ChatList } = await import("./ChatList.svelte");
const { default: Notices } = await import("./Notices.svelte");

// A clock the test moves by hand.
let t = Date.parse("2026-12-01T12:00:00Z");
let timers: { at: number; fn: () => void }[] = [];
const clock: Clock = {
  now: () => t,
  after: (ms, fn) => {
    const timer = { at: t + ms, fn };
    timers.push(timer);
    return () => (timers = timers.filter((x) => x !== timer));
  },
};
function advance(ms: number) {
  t += ms;
  const due = timers.filter((x) => x.at <= t);
  timers = timers.filter((x) => x.at > t);
  due.forEach((x) => x.fn());
  flushSync();
}

const mounted: ReturnType<typeof mount>[] = [];
beforeEach(() => {
  app.clock = clock;
  app.chatList = [chat("ses_b", { created_at: "2026-12-01T11:30:00Z", unreconciled: 2, status: "open", interrupted: true }), chat("ses_a")];
  app.chatListNext = "";
  app.searchResults = null;
  app.searchText = "";
  app.notices = [];
});
afterEach(() => {
  mounted.splice(0).forEach((c) => unmount(c));
  vi.clearAllMocks();
  timers = [];
});

function render(): HTMLElement {
  const target = document.createElement("div");
  document.body.append(target);
  mounted.push(mount(ChatList, { target }), mount(Notices, { target }));
  flushSync();
  return target;
}
const items = (root: HTMLElement) => [...root.querySelectorAll<HTMLElement>(".chatitem")];
const titles = (root: HTMLElement) => items(root).map((i) => i.querySelector(".chat-title")?.textContent);
const byLabel = (root: HTMLElement, label: string) => root.querySelector<HTMLButtonElement>(`[aria-label^="${label}"]`)!;

describe("ChatList", () => {
  it("lists every chat newest first with title, coworker, relative time, status and an attention dot", () => {
    const root = render();
    expect(titles(root)).toEqual(["title of ses_b", "title of ses_a"]);
    app.coworkers = { dir: "", coworkers: [{ id: "device", name: "Device Assistant", description: "", version: "1", dir: "", tools: [], left_out: [] }], broken: [], error: "" };
    flushSync();
    const text = (sel: string) => items(root).map((i) => i.querySelector(sel)?.textContent);
    expect(text(".chat-coworker")).toEqual(["Device Assistant", "Device Assistant"]);
    expect(text(".chat-time")).toEqual(["5 min", "5 min"]);
    expect(text(".chat-status")).toEqual(["interrupted", "closed"]);
    expect(items(root)[0].querySelector(".attn")?.getAttribute("aria-label")).toBe("2 calls need your attention");
    expect(items(root)[1].querySelector(".attn")).toBeNull();
    advance(30_000 * 20); // ten minutes later the times say so
    expect(items(root)[1].querySelector(".chat-time")?.textContent).toBe("15 min");
  });

  it("renames inline: Enter saves through the journal, Esc cancels", async () => {
    fake.renameChat.mockImplementation(async (id: string, title: string) => chat(id, { title, title_set: true }));
    const root = render();
    items(root)[1].querySelector<HTMLButtonElement>(".chat-open")!.dispatchEvent(new MouseEvent("dblclick", { bubbles: true }));
    flushSync();
    let input = root.querySelector<HTMLInputElement>("input.chat-rename")!;
    expect(input.value).toBe("title of ses_a");
    input.value = "Abandoned";
    input.dispatchEvent(new Event("input", { bubbles: true }));
    input.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
    flushSync();
    expect(root.querySelector("input.chat-rename")).toBeNull();
    expect(fake.renameChat).not.toHaveBeenCalled();

    byLabel(root, "Rename title of ses_a").click();
    flushSync();
    input = root.querySelector<HTMLInputElement>("input.chat-rename")!;
    input.value = "My machine";
    input.dispatchEvent(new Event("input", { bubbles: true }));
    input.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
    await eventually(() => expect(root.querySelector("input.chat-rename")).toBeNull());
    expect(fake.renameChat).toHaveBeenCalledWith("ses_a", "My machine");
    expect(titles(root)).toEqual(["title of ses_b", "My machine"]);
  });

  it("keeps the editor open with the journal's refusal", async () => {
    fake.renameChat.mockRejectedValue(new Error("a chat title needs at least one character that is not a space"));
    const root = render();
    byLabel(root, "Rename title of ses_a").click();
    flushSync();
    const input = root.querySelector<HTMLInputElement>("input.chat-rename")!;
    input.value = "   ";
    input.dispatchEvent(new Event("input", { bubbles: true }));
    input.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
    await eventually(() => expect(root.querySelector(".toast.error")?.textContent).toContain("at least one character"));
    expect(root.querySelector("input.chat-rename")).not.toBeNull();
  });

  it("deletes by hiding, with an Undo toast that shows the chat again", async () => {
    fake.hideChat.mockImplementation(async (id: string, hidden: boolean) => chat(id, { hidden }));
    const root = render();
    byLabel(root, "Delete title of ses_a").click();
    await eventually(() => expect(titles(root)).toEqual(["title of ses_b"]));
    expect(fake.hideChat).toHaveBeenCalledWith("ses_a", true);
    const undo = [...root.querySelectorAll<HTMLButtonElement>(".toast button")].find((b) => b.textContent === "Undo")!;
    expect(undo.closest(".toast")?.textContent).toContain("Activity still has it");
    undo.click();
    await eventually(() => expect(titles(root)).toEqual(["title of ses_b", "title of ses_a"]));
    expect(fake.hideChat).toHaveBeenLastCalledWith("ses_a", false);
    expect(root.querySelector(".toast")).toBeNull();
  });

  it("searches the journal after a pause in typing; the newest answer wins", async () => {
    fake.searchChats.mockImplementation(async (text: string) => (text === "linux" ? [chat("ses_a", { title: "What computer am I on?" })] : []));
    const root = render();
    const box = root.querySelector<HTMLInputElement>('input[type="search"]')!;
    for (const text of ["l", "li", "linux"]) {
      box.value = text;
      box.dispatchEvent(new Event("input", { bubbles: true }));
      advance(SEARCH_DEBOUNCE_MS / 2);
    }
    expect(fake.searchChats).not.toHaveBeenCalled();
    advance(SEARCH_DEBOUNCE_MS);
    expect(fake.searchChats).toHaveBeenCalledTimes(1);
    expect(fake.searchChats).toHaveBeenCalledWith("linux", false);
    await eventually(() => expect(titles(root)).toEqual(["What computer am I on?"]));
    expect(fake.chatSnippets).toHaveBeenCalledWith("linux", ["ses_a"]);
    box.value = "zebra";
    box.dispatchEvent(new Event("input", { bubbles: true }));
    advance(SEARCH_DEBOUNCE_MS);
    await eventually(() => expect(root.querySelector(".chat-empty")?.textContent).toContain("No chat matches “zebra”"));
    box.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
    flushSync();
    expect(titles(root)).toEqual(["title of ses_b", "title of ses_a"]);
  });

  it("shows the line of the message a search matched under the chat, and none outside a search", async () => {
    fake.searchChats.mockResolvedValue([chat("ses_a", { title: "What computer am I on?" }), chat("ses_b")]);
    fake.chatSnippets.mockResolvedValue({ ses_a: "…You are on Linux." });
    const root = render();
    const box = root.querySelector<HTMLInputElement>('input[type="search"]')!;
    box.value = "linux";
    box.dispatchEvent(new Event("input", { bubbles: true }));
    advance(SEARCH_DEBOUNCE_MS);
    await eventually(() => expect(root.querySelector(".chat-snippet")?.textContent).toBe("…You are on Linux."));
    expect(root.querySelectorAll(".chat-snippet")).toHaveLength(1); // ses_b matched by its title only
    box.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
    flushSync();
    expect(root.querySelector(".chat-snippet")).toBeNull();
  });

  it("continues a closed chat on click, as Activity's Continue chat", async () => {
    fake.resumeChat.mockResolvedValue({ session_id: "ses_a", coworker: "device", coworker_name: "Device", identity: "x", model: "m",
      approval_mode: "ask", running: false, tools: [] });
    fake.sessionDetail.mockResolvedValue({ ...chat("ses_a"), turns: [], messages: [], invocations: [], approvals: [], warnings: [] });
    const root = render();
    items(root)[1].querySelector<HTMLButtonElement>(".chat-open")!.click();
    await eventually(() => expect(app.view).toEqual({ name: "chat", sessionId: "ses_a" }));
    expect(fake.resumeChat).toHaveBeenCalledWith("ses_a");
    flushSync();
    expect(items(root)[1].classList.contains("active")).toBe(true);
    expect(items(root)[1].querySelector(".chat-status")?.textContent).toBe("open here");
    delete app.chats["ses_a"];
    app.chatOrder = [];
  });
});
