import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { flushSync, mount, unmount } from "svelte";
import type { PendingElicitation } from "../lib/types";
import { eventually } from "../testing/eventually";

const fake = vi.hoisted(() => ({ answerElicitation: vi.fn() }));
vi.mock("../lib/api", () => ({ api: fake }));
const { default: ElicitDialog } = await import("./ElicitDialog.svelte");
const { app } = await import("../lib/state.svelte");

const form = (): PendingElicitation => ({
  coworker: "helper", coworker_name: "Helper", asked: "",
  question: {
    id: "eli_1", namespace: "signup", server_name: "Signup Server", session_id: "s1", turn_id: "t1", invocation: "inv1", call_id: "c1",
    tool: "signup.signup", mode: "form", message: "Sign up <b>now</b>", deadline: "", seq: 1,
    fields: [
      { name: "name", kind: "string", required: true, title: "Your name" },
      { name: "plan", kind: "enum", options: [{ value: "free", title: "Free" }, { value: "pro", title: "Pro" }], default: "free" },
    ],
  },
});
const link = (): PendingElicitation => ({
  ...form(),
  question: { ...form().question, mode: "url", fields: [], url: "https://xn--bcher-kva.example/login", host: "xn--bcher-kva.example", message: "Sign in" },
});

const mounted: ReturnType<typeof mount>[] = [];
beforeEach(() => {
  fake.answerElicitation.mockResolvedValue(undefined);
});
afterEach(() => {
  mounted.splice(0).forEach((c) => unmount(c));
  document.body.innerHTML = "";
  vi.clearAllMocks();
});

function render(pending: PendingElicitation, waiting = 1) {
  const target = document.createElement("div");
  document.body.append(target);
  mounted.push(mount(ElicitDialog, { target, props: { pending, waiting } }));
  flushSync();
  const button = (label: string) => Array.from(target.querySelectorAll("button")).find((b) => b.textContent?.trim() === label)!;
  return { target, dialog: target.querySelector<HTMLElement>("[role=dialog]")!, button };
}

describe("ElicitDialog", () => {
  it("says how many more wait, after a space", () => {
    const { target } = render(form(), 3);
    expect(target.querySelector(".foot")!.textContent).toMatch(/Esc cancels\. 2 more waiting\./);
  });

  it("names the chat with a space before it (Svelte trims a block's leading space)", () => {
    app.chatList = [{ id: "s1", title: "Plans" } as (typeof app.chatList)[number]];
    try {
      const { target } = render(form());
      expect(target.querySelector("#elicit-desc")!.textContent).toBe("Helper is running signup.signup in the chat “Plans”; the server asks:");
    } finally {
      app.chatList = [];
    }
  });

  it("names the server, the coworker and the call, shows the message as text, and enables Accept once valid", async () => {
    const { target, dialog, button } = render(form());
    expect(dialog.textContent).toContain("signup (Signup Server)");
    expect(dialog.textContent).toContain("Helper is running signup.signup");
    expect(target.querySelector(".message")!.textContent).toBe("Sign up <b>now</b>");
    expect(target.querySelector(".message b")).toBeNull();
    expect(target.querySelector("label[for=eli-name]")!.textContent).toContain("*");
    expect((target.querySelector("#eli-plan") as HTMLSelectElement).value).toBe("free");
    expect(document.activeElement).toBe(target.querySelector("#eli-name"));
    expect(button("Accept").disabled).toBe(true);
    const name = target.querySelector<HTMLInputElement>("#eli-name")!;
    name.value = "Ada";
    name.dispatchEvent(new Event("input", { bubbles: true }));
    flushSync();
    expect(button("Accept").disabled).toBe(false);
    button("Accept").click();
    await eventually(() => expect(fake.answerElicitation).toHaveBeenCalledWith("eli_1", "accept", { name: "Ada", plan: "free" }));
  });

  it("shows Go's refusal inline and keeps the question open", async () => {
    fake.answerElicitation.mockRejectedValueOnce(new Error("the answer does not fit the form: name: too short"));
    const p = form();
    p.question.fields![0].default = "A";
    const { target, button } = render(p);
    button("Accept").click();
    await eventually(() => expect(target.querySelector(".problem")?.textContent).toContain("name: too short"));
  });

  it("Enter in a field accepts once the form fits", async () => {
    const { target } = render(form());
    const name = target.querySelector<HTMLInputElement>("#eli-name")!;
    const enter = () => name.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true, cancelable: true }));
    enter();
    expect(fake.answerElicitation).not.toHaveBeenCalled();
    name.value = "Ada";
    name.dispatchEvent(new Event("input", { bubbles: true }));
    flushSync();
    enter();
    await eventually(() => expect(fake.answerElicitation).toHaveBeenCalledWith("eli_1", "accept", { name: "Ada", plan: "free" }));
  });

  it("Esc cancels", () => {
    const { dialog } = render(form());
    dialog.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true, cancelable: true }));
    expect(fake.answerElicitation).toHaveBeenCalledWith("eli_1", "cancel", null);
  });

  it("URL mode shows the whole URL with the host emphasised and opens only on Open", async () => {
    const { target, button } = render(link());
    expect(target.querySelector(".url")!.textContent).toBe("https://xn--bcher-kva.example/login");
    expect(target.querySelector(".url .host")!.textContent).toBe("xn--bcher-kva.example");
    expect(fake.answerElicitation).not.toHaveBeenCalled();
    button("Decline").click();
    await eventually(() => expect(fake.answerElicitation).toHaveBeenLastCalledWith("eli_1", "decline", null));
    await eventually(() => expect(button("Open").disabled).toBe(false));
    button("Open").click();
    await eventually(() => expect(fake.answerElicitation).toHaveBeenLastCalledWith("eli_1", "accept", null));
  });
});

describe("ElicitDialog hidden characters", () => {
  it("marks invisible and direction-changing characters in the message, labels, options and URL, with one warning", () => {
    const p = form();
    p.question.message = "Pay invoice_\u202egpj.exe\u202c";
    p.question.fields![0].title = "Your\u200b name";
    p.question.fields![1].options![1].title = "P\u202dro";
    const { target } = render(p);
    expect(target.querySelector(".message")!.textContent).toBe("Pay invoice_⟨U+202E⟩gpj.exe⟨U+202C⟩");
    expect(target.querySelector(".message .uc-hidden")!.getAttribute("title")).toBe("right-to-left override (can disguise text)");
    expect(target.textContent).toContain("Your⟨U+200B⟩ name");
    expect(Array.from(target.querySelectorAll("option")).map((o) => o.textContent)).toContain("P⟨U+202D⟩ro");
    expect(target.querySelector(".hidden-warning")!.textContent).toBe("This question holds 4 invisible or direction-changing characters, shown as ⟨U+…⟩.");
    expect(target.innerHTML).not.toMatch(/[\u202a-\u202e\u200b]/);

    const l = link();
    l.question.url = "https://example.com/\u202efdp.exe";
    const { target: t2 } = render(l);
    expect(t2.querySelector(".url")!.textContent).toBe("https://example.com/⟨U+202E⟩fdp.exe");
    expect(t2.querySelector(".url")!.getAttribute("dir")).toBe("ltr");
  });

  it("shows no warning for a plain question", () => {
    expect(render(form()).target.querySelector(".hidden-warning")).toBeNull();
  });
});
