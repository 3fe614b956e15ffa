import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { flushSync, mount, unmount } from "svelte";
import type { PendingApproval } from "../lib/types";
import { decisionForKey, isMacPlatform } from "../lib/consentkeys";
import { reactiveProps } from "./testprops.svelte";

// The Go side, as api.ts wraps it: only respondApproval is used.
const fake = vi.hoisted(() => ({ respondApproval: vi.fn() }));
vi.mock("../lib/api", () => ({ api: fake }));

const { default: ConsentModal } = await import("./ConsentModal.svelte");

const pending = (id = "ap1"): PendingApproval => ({
  id, deadline: "0001-01-01T00:00:00Z",
  request: {
    session_id: "s1", turn_id: "t1", call_id: "c1", coworker: "helper", coworker_name: "Helper",
    tool: "files.write", description: "Writes a file", provider: "mcp:files", placement: "on this computer",
    classification: "External", risk: "non_idempotent_write", arguments: { path: "/tmp/x" },
  },
});

const mounted: ReturnType<typeof mount>[] = [];
beforeEach(() => {
  vi.useFakeTimers();
  fake.respondApproval.mockResolvedValue(undefined);
});
afterEach(() => {
  mounted.splice(0).forEach((c) => unmount(c));
  document.body.innerHTML = "";
  vi.clearAllMocks();
  vi.useRealTimers();
});

/** Mounts the dialog as App.svelte does, in the document so it can take the focus. */
function render(props: { mac?: boolean; pending?: PendingApproval } = {}) {
  const target = document.createElement("div");
  document.body.append(target);
  const p = reactiveProps({ pending: props.pending ?? pending(), waiting: 1, mac: props.mac ?? false });
  mounted.push(mount(ConsentModal, { target, props: p }));
  flushSync();
  const dialog = target.querySelector<HTMLElement>("[role=alertdialog]")!;
  return { target, dialog, props: p, buttons: Array.from(target.querySelectorAll("button")) };
}

/** press sends a keydown to the focused element (or el), as a person's key does. */
function press(key: string, init: KeyboardEventInit = {}, el: Element | null = document.activeElement): KeyboardEvent {
  const code = /^[a-z]$/i.test(key) ? `Key${key.toUpperCase()}` : key;
  const ev = new KeyboardEvent("keydown", { key, code, bubbles: true, cancelable: true, ...init });
  el!.dispatchEvent(ev);
  flushSync();
  return ev;
}

/** wait advances the fake clock and lets the answer's promise settle. */
async function wait(ms: number) {
  await vi.advanceTimersByTimeAsync(ms);
  flushSync();
}

describe("ConsentModal", () => {
  it("says how many more wait, after a space (Svelte trims a block's leading space)", () => {
    const { target, props } = render();
    props.waiting = 3;
    flushSync();
    expect(target.querySelector(".foot")!.textContent).toMatch(/Esc denies\. 2 more waiting\./);
  });

  it("opens with the focus on the labelled dialog itself, not on a button", () => {
    const { dialog } = render();
    expect(document.activeElement).toBe(dialog);
    expect(dialog.getAttribute("tabindex")).toBe("-1");
    expect(dialog.getAttribute("aria-modal")).toBe("true");
    expect(document.getElementById(dialog.getAttribute("aria-labelledby")!)?.textContent).toContain("files.write");
  });

  it("keeps the keyboard after a press on the backdrop or a blur to nothing: Esc still denies", async () => {
    const { dialog } = render();
    await wait(600);
    const overlay = dialog.parentElement!;
    const down = new MouseEvent("mousedown", { bubbles: true, cancelable: true });
    overlay.dispatchEvent(down);
    expect(down.defaultPrevented).toBe(true);
    expect(document.activeElement).toBe(dialog);
    dialog.blur(); // focus to the body, as a native dialog taking the window does
    await wait(0);
    expect(document.activeElement).toBe(dialog);
    press("Escape");
    await wait(10);
    expect(fake.respondApproval).toHaveBeenCalledWith("ap1", "deny");
  });

  it("answers nothing to bare letters typed as it opens, nor later", async () => {
    render();
    for (const k of ["a", "o", "s", "d", "A", "O"]) press(k);
    await wait(600);
    for (const k of ["a", "o", "s", "d"]) press(k);
    await wait(10);
    expect(fake.respondApproval).not.toHaveBeenCalled();
  });

  it("keeps every button disabled and dimmed for 500 ms; Alt+A within them does nothing, after them only shows Always", async () => {
    const { target, buttons } = render();
    expect(buttons).toHaveLength(4);
    expect(buttons.every((b) => b.disabled)).toBe(true);
    expect(target.querySelector(".buttons.arming")).not.toBeNull();
    press("a", { altKey: true });
    buttons[3].click();
    await wait(499);
    press("a", { altKey: true });
    expect(buttons.every((b) => b.disabled)).toBe(true);
    expect(target.querySelector("#consent-more")).toBeNull();

    await wait(1);
    expect(buttons.every((b) => !b.disabled)).toBe(true);
    expect(target.querySelector(".buttons.arming")).toBeNull();
    const ev = press("a", { altKey: true });
    expect(ev.defaultPrevented).toBe(true);
    await wait(0);
    expect(fake.respondApproval).not.toHaveBeenCalled();
    const always = target.querySelector<HTMLButtonElement>("#consent-more button")!;
    expect(always.textContent).toBe("Always for Helper");
    expect(document.activeElement).toBe(always);
    press("Enter");
    await wait(0);
    expect(fake.respondApproval).toHaveBeenCalledTimes(1);
    expect(fake.respondApproval).toHaveBeenCalledWith("ap1", "allow_always");
  });

  it("shows Alt+letter hints, and on macOS answers ⌘+letter but not Alt+letter", async () => {
    const pc = render();
    expect(pc.buttons.map((b) => b.querySelector("kbd")?.textContent)).toEqual(["Alt+O", "Alt+S", "Alt+D", "Alt+A"]);
    expect(pc.buttons[0].getAttribute("aria-keyshortcuts")).toBe("Alt+O");
    mounted.splice(0).forEach((c) => unmount(c));

    const mac = render({ mac: true });
    expect(mac.buttons.map((b) => b.querySelector("kbd")?.textContent)).toEqual(["⌘O", "⌘S", "⌘D", "⌘A"]);
    await wait(500);
    press("o", { altKey: true, key: "ø" });
    press("o");
    await wait(0);
    expect(fake.respondApproval).not.toHaveBeenCalled();
    press("o", { metaKey: true });
    await wait(0);
    expect(fake.respondApproval).toHaveBeenCalledWith("ap1", "allow_once");
  });

  it("never answers Enter on the dialog; Enter on a focused button activates only that button", async () => {
    const { dialog, buttons } = render();
    press("Enter", {}, dialog);
    await wait(600);
    press("Enter", {}, dialog);
    press(" ", {}, dialog);
    expect(fake.respondApproval).not.toHaveBeenCalled();
    // Tab from the dialog reaches the first button; the browser turns Enter
    // on a focused button into its click.
    press("Tab");
    expect(document.activeElement).toBe(buttons[0]);
    press("Tab");
    expect(document.activeElement).toBe(buttons[1]);
    buttons[1].click();
    await wait(0);
    expect(fake.respondApproval).toHaveBeenCalledTimes(1);
    expect(fake.respondApproval).toHaveBeenCalledWith("ap1", "allow_session");
  });

  it("never records Always for Tab pressed 0 to 8 times then Space, from the opening focus", async () => {
    for (let n = 0; n <= 8; n++) {
      const { target } = render();
      await wait(600);
      for (let i = 0; i < n; i++) press("Tab");
      press(" ");
      await wait(0);
      for (const [, d] of fake.respondApproval.mock.calls) {
        expect(d, `Tab ×${n}, Space`).not.toBe("allow_always");
        expect(d, `Tab ×${n}, Space`).not.toBe("deny_always");
      }
      // Tab ×4 reaches "More choices": Space only opens it.
      if (n % 4 === 0 && n > 0) expect(target.querySelector("#consent-more"), `Tab ×${n}`).not.toBeNull();
      mounted.splice(0).forEach((c) => unmount(c));
      document.body.innerHTML = "";
    }
    expect(fake.respondApproval.mock.calls.map(([, d]) => d)).toEqual(["allow_once", "allow_session", "deny", "allow_once", "allow_session", "deny"]);
  });

  it("does the same for Enter and Space on each button: presses it once, on keydown, not again on keyup or repeat", async () => {
    for (const key of ["Enter", " "]) {
      const got: string[] = [];
      for (let n = 1; n <= 3; n++) {
        const { target } = render();
        await wait(600);
        for (let i = 0; i < n; i++) press("Tab");
        const down = press(key);
        expect(down.defaultPrevented).toBe(true);
        press(key, { repeat: true });
        const up = new KeyboardEvent("keyup", { key, bubbles: true, cancelable: true });
        document.activeElement!.dispatchEvent(up);
        if (key === " ") expect(up.defaultPrevented).toBe(true);
        await wait(0);
        got.push(...fake.respondApproval.mock.calls.map(([, d]) => d as string));
        fake.respondApproval.mockClear();
        mounted.splice(0).forEach((c) => unmount(c));
        document.body.innerHTML = "";
        void target;
      }
      expect(got, JSON.stringify(key)).toEqual(["allow_once", "allow_session", "deny"]);
    }
  });

  it("answers Never only by a deliberate choice: More choices, then Tab to Never, then Space", async () => {
    const { target } = render();
    await wait(600);
    press("a", { altKey: true });
    const never = target.querySelector<HTMLButtonElement>("#consent-more button.never")!;
    expect(never.textContent).toBe("Never for Helper");
    press("Tab");
    expect(document.activeElement).toBe(never);
    press(" ");
    await wait(0);
    expect(fake.respondApproval).toHaveBeenCalledTimes(1);
    expect(fake.respondApproval).toHaveBeenCalledWith("ap1", "deny_always");
  });

  it("opens More choices by keyboard, walks into it with Tab, and closes it again", async () => {
    const { target, buttons } = render();
    await wait(600);
    for (let i = 0; i < 4; i++) press("Tab");
    const toggle = buttons[3];
    expect(document.activeElement).toBe(toggle);
    expect(toggle.getAttribute("aria-expanded")).toBe("false");
    press(" ");
    expect(toggle.getAttribute("aria-expanded")).toBe("true");
    const always = target.querySelector<HTMLButtonElement>("#consent-more button")!;
    expect(document.activeElement).toBe(always);
    expect(target.querySelector("#consent-more")!.textContent).toContain("until you revoke it in Settings, Permissions");
    const never = target.querySelector<HTMLButtonElement>("#consent-more button.never")!;
    press("Tab");
    expect(document.activeElement).toBe(never);
    press("Tab");
    expect(document.activeElement).toBe(buttons[0]);
    press("Tab", { shiftKey: true });
    expect(document.activeElement).toBe(never);
    press("Tab", { shiftKey: true });
    expect(document.activeElement).toBe(always);
    toggle.focus();
    press("Enter");
    expect(target.querySelector("#consent-more")).toBeNull();
    expect(fake.respondApproval).not.toHaveBeenCalled();
  });

  it("says the effect in plain words, with the meaning in a tooltip", () => {
    const words = (risk: string) => {
      const p = pending();
      const { target } = render({ pending: { ...p, request: { ...p.request, risk } } });
      const pill = target.querySelector<HTMLElement>(".facts .pill." + risk)!;
      mounted.splice(0).forEach((c) => unmount(c));
      document.body.innerHTML = "";
      return [pill.textContent, pill.title.length > 20];
    };
    expect(words("read_only")).toEqual(["reads only", true]);
    expect(words("idempotent_write")).toEqual(["changes data", true]);
    expect(words("non_idempotent_write")).toEqual(["can delete data", true]);
  });

  it("denies on Esc once armed, and ignores Esc in the first 500 ms", async () => {
    render();
    press("Escape");
    await wait(100);
    expect(fake.respondApproval).not.toHaveBeenCalled();
    await wait(400);
    press("Escape");
    await wait(0);
    expect(fake.respondApproval).toHaveBeenCalledWith("ap1", "deny");
  });

  it("rejects AltGr (Ctrl+Alt) and Shift, which type characters on some layouts", async () => {
    render();
    await wait(500);
    press("a", { altKey: true, ctrlKey: true });
    press("a", { altKey: true, shiftKey: true });
    press("a", { ctrlKey: true });
    await wait(0);
    expect(fake.respondApproval).not.toHaveBeenCalled();
  });

  it("disarms again and refocuses the dialog when the next prompt in the queue takes its place", async () => {
    const { dialog, buttons, props } = render();
    await wait(500);
    press("o", { altKey: true });
    await wait(0);
    expect(fake.respondApproval).toHaveBeenCalledWith("ap1", "allow_once");
    buttons[0].focus();
    props.pending = pending("ap2");
    flushSync();
    expect(document.activeElement).toBe(dialog);
    expect(buttons.every((b) => b.disabled)).toBe(true);
    press("o", { altKey: true });
    await wait(499);
    expect(fake.respondApproval).toHaveBeenCalledTimes(1);
    await wait(1);
    press("d", { altKey: true });
    await wait(0);
    expect(fake.respondApproval).toHaveBeenLastCalledWith("ap2", "deny");
  });
});

describe("consentkeys", () => {
  it("tells macOS from navigator.userAgentData, navigator.platform or the user agent", () => {
    expect(isMacPlatform({ userAgentData: { platform: "macOS" } })).toBe(true);
    expect(isMacPlatform({ platform: "MacIntel" })).toBe(true);
    expect(isMacPlatform({ userAgent: "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15" })).toBe(true);
    expect(isMacPlatform({ platform: "Linux x86_64" })).toBe(false);
    expect(isMacPlatform({ userAgentData: { platform: "Windows" }, platform: "MacIntel" })).toBe(false);
    expect(isMacPlatform(undefined)).toBe(false);
  });

  it("reads the letter from the key code, so Option+A (å) on macOS still answers", () => {
    const ev = { key: "å", code: "KeyA", altKey: false, metaKey: true, ctrlKey: false, shiftKey: false };
    expect(decisionForKey(ev, true)).toBe("allow_always");
    expect(decisionForKey({ ...ev, metaKey: false, altKey: true }, false)).toBe("allow_always");
    expect(decisionForKey({ ...ev, code: "KeyX" }, true)).toBeNull();
  });

  /** The dialog's facts as "Label: value" lines. */
  const facts = (target: HTMLElement) => Array.from(target.querySelectorAll(".facts dt")).map((dt) => `${dt.textContent}: ${dt.nextElementSibling?.textContent}`);
  const withPlacement = (placement: string, access?: string): PendingApproval => {
    const p = pending();
    return { ...p, request: { ...p.request, placement, access } };
  };

  it("shows a sandboxed call's Access after Runs, and the sandbox's words only there", () => {
    const words = "sandboxed: reads system files and its own folder; writes only in the workspace and its temp folder; no network";
    const { target } = render({ pending: withPlacement(`on this computer (${words})`, words) });
    const f = facts(target);
    expect(f).toContain("Runs: on this computer");
    expect(f[f.indexOf("Runs: on this computer") + 1]).toBe(`Access: ${words}`);
    expect(target.querySelector("#consent-desc")!.textContent).toContain("wants to run this tool on this computer.");
    expect(target.textContent!.split(words).length - 1).toBe(1); // said once
  });

  it("says an unsandboxed local call runs with your full access", () => {
    const { target } = render({ pending: withPlacement("on this computer", "runs with your full access") });
    expect(facts(target)).toContain("Access: runs with your full access");
    expect(target.querySelector(".facts .access.full")).not.toBeNull();
  });

  it("keeps a remote call's wording and shows no Access row", () => {
    const { target } = render({ pending: withPlacement("mcp.example.com", "") });
    expect(facts(target)).toContain("Runs: on mcp.example.com (a remote host)");
    expect(facts(target).some((l) => l.startsWith("Access"))).toBe(false);
    expect(target.querySelector("#consent-desc")!.textContent).toContain("on mcp.example.com, a remote host: the arguments below are sent there.");
  });
});


describe("ConsentModal for a call asked by an app view (docs/mcp-apps.md)", () => {
  it("names the view as who asks; a model's call says nothing of a view", () => {
    const p = pending();
    p.request = { ...p.request, tool: "apps.counter_bump", origin: "the app view of apps.counter_show" };
    const { target } = render({ pending: p });
    expect(target.querySelector(".consent-origin")?.textContent).toContain("Asked by the app view of apps.counter_show, not by the model");
    expect(target.querySelector("dd.origin")?.textContent).toBe("the app view of apps.counter_show");
    mounted.splice(0).forEach((c) => unmount(c));
    const { target: plain } = render();
    expect(plain.querySelector(".consent-origin, dd.origin")).toBeNull();
    expect(plain.textContent).not.toContain("app view");
  });
});

// docs/app.md#hidden-characters: a tool call cannot show something other than what it says.
describe("ConsentModal hidden characters", () => {
  const spoof = "invoice_\u202egpj.exe\u202c and zero\u200bwidth";
  const spoofed = (extra: Partial<PendingApproval["request"]> = {}): PendingApproval => {
    const p = pending();
    p.request = { ...p.request, arguments: { file: spoof }, ...extra };
    return p;
  };

  it("shows each invisible or direction-changing character as a marker, never raw, and counts them above the arguments", () => {
    const { target } = render({ pending: spoofed() });
    const args = target.querySelector<HTMLElement>("pre.args")!;
    expect(args.textContent).toContain("invoice_⟨U+202E⟩gpj.exe⟨U+202C⟩ and zero⟨U+200B⟩width");
    expect(target.innerHTML).not.toMatch(/[\u202a-\u202e\u200b]/);
    const marks = Array.from(args.querySelectorAll<HTMLElement>(".uc-hidden"));
    expect(marks.map((m) => m.textContent)).toEqual(["⟨U+202E⟩", "⟨U+202C⟩", "⟨U+200B⟩"]);
    expect(marks[0].title).toBe("right-to-left override (can disguise text)");
    expect(args.getAttribute("dir")).toBe("ltr");
    expect(args.classList.contains("uc-iso")).toBe(true);
    const warning = target.querySelector(".hidden-warning")!;
    expect(warning.textContent).toBe("These arguments hold 3 invisible or direction-changing characters, shown as ⟨U+…⟩.");
    expect(warning.compareDocumentPosition(args) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it("marks the tool's name, description and server too, and counts them with the arguments", () => {
    const { target } = render({ pending: spoofed({ tool: "files.\u202ewrite", description: "Reads\u200b a file", provider: "mcp:\u2066evil" }) });
    expect(target.querySelector("#consent-title")!.textContent).toBe("Allow files.⟨U+202E⟩write?");
    expect(target.textContent).toContain("Reads⟨U+200B⟩ a file");
    expect(target.textContent).toContain("via mcp:⟨U+2066⟩evil");
    expect(target.innerHTML).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u200b]/);
    expect(target.querySelector(".hidden-warning")!.textContent).toMatch(/^This request holds 6 invisible/);
  });

  it("shows no warning and no marker for plain arguments", () => {
    const { target } = render();
    expect(target.querySelector(".hidden-warning")).toBeNull();
    expect(target.querySelector(".uc-hidden")).toBeNull();
    expect(target.querySelector("pre.args")!.textContent).toContain('"path": "/tmp/x"');
  });
});
