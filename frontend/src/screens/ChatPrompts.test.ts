import { afterEach, describe, expect, it, vi } from "vitest";
import { flushSync, mount, tick, unmount } from "svelte";
import { eventually } from "../testing/eventually";

const fake = vi.hoisted(() => ({
  cancel: vi.fn(async () => undefined), send: vi.fn(async () => ({})), retry: vi.fn(async () => ({})),
  revokeChatGrant: vi.fn(async () => undefined), chatGrants: vi.fn(async () => []),
  chatPrompts: vi.fn(async () => [
    { name: "kit.brief", title: "Brief", description: "Write a brief about a topic", arguments: [
      { name: "topic", title: "", description: "what the brief is about", required: true },
      { name: "tone", title: "", description: "formal or casual", required: false }] },
    { name: "kit.review", title: "", description: "Review a screenshot", arguments: [] },
  ]),
  expandPrompt: vi.fn(async (_s: string, name: string, args: Record<string, string>) => `${name} ${JSON.stringify(args)}`),
}));
vi.mock("../lib/api", () => ({ api: fake }));

const { default: Chat } = await import("./Chat.svelte");
const { app } = await import("../lib/state.svelte");
const { emptyChat } = await import("../lib/chat");

const mounted: ReturnType<typeof mount>[] = [];
afterEach(() => {
  mounted.splice(0).forEach((c) => unmount(c));
  app.chats = {};
  vi.clearAllMocks();
});

function render(): { root: HTMLElement; box: HTMLTextAreaElement } {
  app.chats = { s1: { info: { session_id: "s1", coworker: "kit", coworker_name: "Kit", model: "m", approval_mode: "ask", tools: [] } as never, state: emptyChat(), error: "", grants: [] } };
  const root = document.createElement("div");
  document.body.append(root);
  mounted.push(mount(Chat, { target: root, props: { sessionId: "s1" } }));
  flushSync();
  return { root, box: root.querySelector("textarea")! };
}

async function type(box: HTMLTextAreaElement, text: string) {
  box.value = text;
  box.dispatchEvent(new Event("input", { bubbles: true }));
  flushSync();
  await eventually(() => expect(fake.chatPrompts).toHaveBeenCalled());
  await tick();
  flushSync();
}

const key = (el: HTMLElement, k: string) => {
  el.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true, cancelable: true }));
  flushSync();
};
const options = (root: HTMLElement) => [...root.querySelectorAll('[role="option"]')].map((o) => o.querySelector("code")!.textContent);

describe("Chat / prompts", () => {
  it("a leading / lists the chat's prompts, narrowed by what follows; Esc closes the list", async () => {
    const { root, box } = render();
    await type(box, "/");
    expect(fake.chatPrompts).toHaveBeenCalledWith("s1");
    expect(options(root)).toEqual(["/kit.brief", "/kit.review"]);
    await type(box, "/rev");
    expect(options(root)).toEqual(["/kit.review"]);
    key(box, "Escape");
    expect(root.querySelector('[role="listbox"]')).toBeNull();
    expect(fake.cancel).not.toHaveBeenCalled();
    await type(box, "hello /kit");
    expect(root.querySelector('[role="listbox"]')).toBeNull();
  });

  it("arrows and Enter choose a prompt without arguments: its text fills the box, nothing is sent", async () => {
    const { root, box } = render();
    await type(box, "/kit");
    key(box, "ArrowDown");
    expect(root.querySelector('[aria-selected="true"] code')?.textContent).toBe("/kit.review");
    key(box, "Enter");
    await eventually(() => expect(box.value).toBe("kit.review {}"));
    expect(fake.expandPrompt).toHaveBeenCalledWith("s1", "kit.review", {});
    expect(fake.send).not.toHaveBeenCalled();
  });

  it("a prompt with arguments opens a form; Insert waits for the required ones and leaves blank ones out", async () => {
    const { root, box } = render();
    await type(box, "/brief");
    key(box, "Enter");
    const form = root.querySelector<HTMLFormElement>(".prompt-form")!;
    expect(form.textContent).toContain("/kit.brief");
    const insert = [...form.querySelectorAll("button")].find((b) => b.textContent === "Insert")!;
    expect(insert.disabled).toBe(true);
    const [topic] = form.querySelectorAll("input");
    topic.value = "tides";
    topic.dispatchEvent(new Event("input", { bubbles: true }));
    flushSync();
    expect(insert.disabled).toBe(false);
    insert.click();
    await eventually(() => expect(box.value).toBe('kit.brief {"topic":"tides"}'));
    expect(root.querySelector(".prompt-form")).toBeNull();
    expect(fake.send).not.toHaveBeenCalled();
  });

  it("the server's refusal is shown in the form", async () => {
    fake.expandPrompt.mockRejectedValueOnce(new Error("kit.brief: the template store is down"));
    const { root, box } = render();
    await type(box, "/brief");
    key(box, "Tab");
    const form = root.querySelector<HTMLFormElement>(".prompt-form")!;
    const [topic] = form.querySelectorAll("input");
    topic.value = "tides";
    topic.dispatchEvent(new Event("input", { bubbles: true }));
    flushSync();
    form.requestSubmit();
    await eventually(() => expect(root.querySelector(".prompt-form")?.textContent).toContain("the template store is down"));
  });
});
