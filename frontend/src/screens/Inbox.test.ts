import { afterEach, describe, expect, it, vi } from "vitest";
import { flushSync, mount, unmount } from "svelte";
import type { InboxEntry } from "../lib/types_inbox";
import { eventually } from "../testing/eventually";

const item = (id: string, more: Partial<InboxEntry> = {}): InboxEntry => ({
  id, kind: "approval", coworker: "notes-helper", session_id: "ses_1", tool: "notes.append", what: `May it run notes.append {"text":"${id}"}?`,
  created_at: new Date(Date.now() - 5 * 60_000).toISOString(), deadline: "", parked: true, answers: ["allow_once", "allow_session", "deny"], ...more,
});
const fake = vi.hoisted(() => ({ inboxItems: vi.fn(), answerInbox: vi.fn(), continueChat: vi.fn() }));
vi.mock("../lib/api", () => ({ api: fake }));

const { default: Inbox } = await import("./Inbox.svelte");
const { app } = await import("../lib/state.svelte");

const mounted: ReturnType<typeof mount>[] = [];
afterEach(() => {
  mounted.splice(0).forEach((c) => unmount(c));
  vi.clearAllMocks();
});

async function render(): Promise<HTMLElement> {
  const target = document.createElement("div");
  document.body.append(target);
  mounted.push(mount(Inbox, { target }));
  await eventually(() => expect(fake.inboxItems).toHaveBeenCalled());
  flushSync();
  return target;
}
const button = (root: HTMLElement, text: string) =>
  [...root.querySelectorAll("button")].find((b) => b.textContent?.trim() === text) as HTMLButtonElement;

describe("Inbox", () => {
  it("lists each open item with its coworker, what it asks and since when, and answers it", async () => {
    let items = [item("inb_1"), item("inb_2", { kind: "budget", what: "It reached a limit", answers: ["continue", "stop"], parked: false })];
    fake.inboxItems.mockImplementation(async () => items);
    fake.answerInbox.mockImplementation(async (id: string) => {
      items = items.filter((x) => x.id !== id);
    });
    const root = await render();
    await eventually(() => expect(root.querySelectorAll(".inbox-item")).toHaveLength(2));
    const first = root.querySelector('[data-item="inb_1"]') as HTMLElement;
    expect(first.textContent).toContain("notes-helper");
    expect(first.textContent).toContain('notes.append {"text":"inb_1"}');
    expect(first.textContent).toContain("5 min ago");
    expect(first.textContent).toContain("waiting on you");
    expect(app.inboxOpen).toBe(2);
    button(first, "Allow once").click();
    await eventually(() => expect(fake.answerInbox).toHaveBeenCalledWith("inb_1", "allow_once"));
    await eventually(() => expect(root.querySelectorAll(".inbox-item")).toHaveLength(1));
    expect(button(root, "Continue")).toBeDefined();
  });

  it("says who answered first when an answer loses, and shows the list as it is", async () => {
    let items = [item("inb_9")];
    fake.inboxItems.mockImplementation(async () => items);
    fake.answerInbox.mockImplementation(async () => {
      items = [];
      throw new Error('this approval is no longer waiting: inbox item inb_9 was already answered "deny" by cli: inbox answer');
    });
    const root = await render();
    await eventually(() => expect(root.querySelectorAll(".inbox-item")).toHaveLength(1));
    button(root, "Deny").click();
    await eventually(() => expect(root.querySelectorAll(".inbox-item")).toHaveLength(0));
    expect(app.notices.some((n) => n.message.includes("already answered"))).toBe(true);
    expect(root.textContent).toContain("Nothing waits on you.");
  });

  it("reads again when the inbox changes elsewhere", async () => {
    let items: InboxEntry[] = [];
    fake.inboxItems.mockImplementation(async () => items);
    const root = await render();
    items = [item("inb_3")];
    app.inboxChanged++;
    await eventually(() => expect(root.querySelectorAll(".inbox-item")).toHaveLength(1));
  });

  it("marks and focuses the item whose notification was clicked (inbox:open)", async () => {
    fake.inboxItems.mockImplementation(async () => [item("inb_1"), item("inb_2")]);
    app.inboxItem = "inb_2";
    const root = await render();
    await eventually(() => expect(root.querySelector(".inbox-item.opened")?.getAttribute("data-item")).toBe("inb_2"));
    expect(root.querySelector('[data-item="inb_1"]')?.classList.contains("opened")).toBe(false);
    await eventually(() => expect(document.activeElement?.closest(".inbox-item")?.getAttribute("data-item")).toBe("inb_2"));
    expect(app.inboxItem).toBe("");
  });
});

describe("Inbox hidden characters", () => {
  it("shows an item's invisible and direction-changing characters as markers, with one warning", async () => {
    fake.inboxItems.mockResolvedValue([item("inb_9", { what: 'May it run files.send {"file":"invoice_\u202egpj.exe\u202c"}?' })]);
    const root = await render();
    await eventually(() => expect(root.querySelectorAll(".inbox-item")).toHaveLength(1));
    const what = root.querySelector<HTMLElement>(".what")!;
    expect(what.textContent).toBe('May it run files.send {"file":"invoice_⟨U+202E⟩gpj.exe⟨U+202C⟩"}?');
    expect(what.getAttribute("dir")).toBe("ltr");
    expect(root.querySelector(".hidden-warning")!.textContent).toBe("This item holds 2 invisible or direction-changing characters, shown as ⟨U+…⟩.");
    expect(root.innerHTML).not.toMatch(/[\u202a-\u202e]/);
  });
});
