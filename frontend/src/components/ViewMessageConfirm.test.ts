import { afterEach, describe, expect, it, vi } from "vitest";
import { flushSync, mount, unmount } from "svelte";

const fake = vi.hoisted(() => ({ openLink: vi.fn(), send: vi.fn() }));
vi.mock("../lib/api", () => ({ api: fake }));
const { default: ViewMessageConfirm } = await import("./ViewMessageConfirm.svelte");
const { app } = await import("../lib/state.svelte");

const mounted: ReturnType<typeof mount>[] = [];
afterEach(() => {
  mounted.splice(0).forEach((c) => unmount(c));
  app.viewAsks = [];
  document.body.innerHTML = "";
});

/** Shows the first question as App.svelte does. */
function showFirst(): HTMLElement {
  const q = app.viewAsks[0];
  const target = document.createElement("div");
  document.body.append(target);
  mounted.push(mount(ViewMessageConfirm, { target, props: { tool: q.tool, coworker: q.coworker, text: q.text, decided: (yes: boolean) => app.answerView(q.id, yes) } }));
  flushSync();
  return target;
}
const button = (root: ParentNode, text: string) => [...root.querySelectorAll("button")].find((b) => b.textContent?.trim() === text) as HTMLButtonElement;

describe("a chat message from an app view", () => {
  it("asks the person with the whole text; Don't send and Esc answer no, Send yes", async () => {
    app.chats = { ses_1: { info: { coworker: "helper", coworker_name: "Helper" } } } as unknown as typeof app.chats;
    const first = app.askView("message", "ses_1", "apps.counter_show", "Bump it twice,\nthen tell me the count");
    let el = showFirst();
    const dialog = el.querySelector("[role=dialog]")!;
    expect(dialog.querySelector("h2")?.textContent).toBe("The app view of apps.counter_show wants to send this message to Helper:");
    expect(dialog.querySelector("pre")?.textContent).toBe("Bump it twice,\nthen tell me the count");
    expect(document.activeElement).toBe(dialog); // neither button is the default
    button(el, "Don't send").click();
    await expect(first).resolves.toBe(false);
    expect(app.viewAsks).toEqual([]);

    const second = app.askView("message", "ses_1", "apps.counter_show", "again");
    mounted.splice(0).forEach((c) => unmount(c));
    el = showFirst();
    el.querySelector("[role=dialog]")!.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
    await expect(second).resolves.toBe(false);

    const third = app.askView("message", "ses_1", "apps.counter_show", "yes please");
    mounted.splice(0).forEach((c) => unmount(c));
    el = showFirst();
    button(el, "Send").click();
    await expect(third).resolves.toBe(true);
    expect(fake.send).not.toHaveBeenCalled(); // sending is the bridge's, after the yes
    app.chats = {};
  });
});
