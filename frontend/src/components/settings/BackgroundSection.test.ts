/// <reference types="vite/client" />
import { afterEach, describe, expect, it, vi } from "vitest";
import css from "../../app.css?raw";
import { flushSync, mount, unmount } from "svelte";
import { eventually } from "../../testing/eventually";

const fake = vi.hoisted(() => ({ background: vi.fn(), setBackground: vi.fn(), quit: vi.fn() }));
vi.mock("../../lib/api", () => ({ api: fake }));
const { default: BackgroundSection, parseWait } = await import("./BackgroundSection.svelte");
const { app } = await import("../../lib/state.svelte");

const style = document.createElement("style");
style.textContent = css; // the shipped stylesheet: the computed layout is the window's
document.head.append(style);

const byId = (id: string) => document.getElementById(id) as HTMLInputElement;
const button = (text: string) => [...document.querySelectorAll("button")].find((b) => b.textContent?.trim() === text) as HTMLButtonElement;
const initial = { keep_running: false, start_at_login: false, question_wait_seconds: 60, autostart_entry: "/home/me/.config/autostart/openworker.desktop" };

describe("BackgroundSection", () => {
  let comp: ReturnType<typeof mount> | undefined;
  afterEach(() => {
    if (comp) unmount(comp);
    comp = undefined;
    document.body.innerHTML = "";
    vi.resetAllMocks();
  });
  async function render() {
    comp = mount(BackgroundSection, { target: document.body });
    await eventually(() => expect(byId("keep-running").disabled).toBe(false));
  }

  it("saves each switch at once, with the rest as saved", async () => {
    fake.background.mockResolvedValue(initial);
    fake.setBackground.mockImplementation(async (b) => b);
    const notify = vi.spyOn(app, "notify");
    await render();
    expect(byId("question-wait").value).toBe("60");
    expect(document.body.textContent).toContain("/home/me/.config/autostart/openworker.desktop");
    byId("keep-running").click();
    await eventually(() => expect(fake.setBackground).toHaveBeenCalledWith({ ...initial, keep_running: true }));
    await eventually(() => expect(notify).toHaveBeenCalledWith("info", expect.stringContaining("hides it")));
    await eventually(() => expect(byId("start-at-login").disabled).toBe(false));
    byId("start-at-login").click();
    await eventually(() => expect(fake.setBackground).toHaveBeenLastCalledWith({ ...initial, keep_running: true, start_at_login: true }));
  });

  it("refuses a wait out of bounds before sending, then saves a good one", async () => {
    fake.background.mockResolvedValue(initial);
    fake.setBackground.mockImplementation(async (b) => b);
    await render();
    const f = byId("question-wait");
    f.value = "5";
    f.dispatchEvent(new Event("input", { bubbles: true }));
    flushSync();
    expect(document.getElementById("question-wait-error")?.textContent).toBe("5 seconds is out of range. Write 10 to 3600 seconds.");
    expect(f.getAttribute("aria-invalid")).toBe("true");
    expect(button("Save wait").disabled).toBe(true);
    f.value = "300";
    f.dispatchEvent(new Event("input", { bubbles: true }));
    flushSync();
    f.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true })); // Enter saves, as the button does
    await eventually(() => expect(fake.setBackground).toHaveBeenCalledWith({ ...initial, question_wait_seconds: 300 }));
  });

  it("shows a refusal and reads the section again", async () => {
    fake.background.mockResolvedValue(initial);
    fake.setBackground.mockRejectedValue(new Error("start at login was not changed: permission denied"));
    const notify = vi.spyOn(app, "notify");
    await render();
    byId("start-at-login").click();
    await eventually(() => expect(notify).toHaveBeenCalledWith("error", "start at login was not changed: permission denied"));
    await eventually(() => expect(byId("start-at-login").checked).toBe(false));
    expect(fake.background).toHaveBeenCalledTimes(2);
  });

  it("quits through the window service", async () => {
    fake.background.mockResolvedValue(initial);
    fake.quit.mockResolvedValue(undefined);
    await render();
    button("Quit OpenWorker").click();
    await eventually(() => expect(fake.quit).toHaveBeenCalled());
  });

  it("lays each switch out as box then text on one line, the whole label a target (label.check)", async () => {
    fake.background.mockResolvedValue(initial);
    fake.setBackground.mockImplementation(async (b) => b);
    await render();
    for (const id of ["keep-running", "start-at-login"]) {
      const box = byId(id);
      const label = box.parentElement!;
      expect(label.tagName).toBe("LABEL");
      expect(label.classList.contains("check")).toBe(true);
      expect(label.firstElementChild).toBe(box); // the box first, then its text
      // Not the global label column (box above text): a block whose box hangs in its padding.
      expect(getComputedStyle(label).display).toBe("block");
      expect(getComputedStyle(box).position).toBe("absolute");
      expect(getComputedStyle(label).paddingLeft).toBe("25px");
    }
    // A click on the text toggles the box.
    const label = byId("keep-running").parentElement!;
    label.click();
    await eventually(() => expect(fake.setBackground).toHaveBeenCalledWith({ ...initial, keep_running: true }));
  });

  it("parses the wait", () => {
    expect(parseWait(" 10 ")).toEqual({ value: 10, error: "" });
    expect(parseWait("3601").error).toContain("out of range");
    expect(parseWait("1.5").error).toBe('"1.5" is not a whole number of seconds. Write 10 to 3600.');
  });
});
