import { afterEach, describe, expect, it, vi } from "vitest";
import { flushSync, mount, unmount } from "svelte";
import { eventually } from "../../testing/eventually";
import { parseLimit, tokensShort } from "../../lib/limits";

const fake = vi.hoisted(() => ({ defaultLimits: vi.fn(), setDefaultLimits: vi.fn() }));
vi.mock("../../lib/api", () => ({ api: fake }));
const { default: LimitsSection } = await import("./LimitsSection.svelte");
const { app } = await import("../../lib/state.svelte");

const field = (key: string) => document.getElementById(`limit-${key}`) as HTMLInputElement;
const saveButton = () => [...document.querySelectorAll("button")].find((b) => b.textContent?.includes("Save limits")) as HTMLButtonElement;
function type(key: string, value: string) {
  const f = field(key);
  f.value = value;
  f.dispatchEvent(new Event("input", { bubbles: true }));
  flushSync();
}

describe("LimitsSection", () => {
  let comp: ReturnType<typeof mount> | undefined;
  afterEach(() => {
    if (comp) unmount(comp);
    comp = undefined;
    document.body.innerHTML = "";
    vi.resetAllMocks();
  });

  async function render() {
    comp = mount(LimitsSection, { target: document.body });
    await eventually(() => expect(field("tokens_per_run")).not.toBeNull());
  }

  it("shows the saved defaults and saves the changed ones", async () => {
    fake.defaultLimits.mockResolvedValue({ tokens_per_run: 50000, tokens_per_day: 0, tool_calls_per_run: 20 });
    fake.setDefaultLimits.mockImplementation(async (l) => l);
    const notify = vi.spyOn(app, "notify");
    await render();
    expect(field("tokens_per_run").value).toBe("50,000");
    expect(field("tokens_per_day").value).toBe("");
    expect(field("tokens_per_day").placeholder).toBe("no limit");
    expect(field("tool_calls_per_run").value).toBe("20");
    expect(saveButton().disabled).toBe(true); // nothing changed
    type("tokens_per_day", "1 000 000");
    type("tool_calls_per_run", "");
    expect(saveButton().disabled).toBe(false);
    saveButton().click();
    await eventually(() => expect(fake.setDefaultLimits).toHaveBeenCalledWith({ tokens_per_run: 50000, tokens_per_day: 1000000, tool_calls_per_run: 0 }));
    await eventually(() => expect(field("tokens_per_day").value).toBe("1,000,000"));
    expect(notify).toHaveBeenCalledWith("info", expect.stringContaining("Default limits saved"));
  });

  it("names the field of a value that is not a whole number and sends nothing", async () => {
    fake.defaultLimits.mockResolvedValue({ tokens_per_run: 0, tokens_per_day: 0, tool_calls_per_run: 0 });
    await render();
    type("tokens_per_run", "0.5");
    const err = document.getElementById("limit-tokens_per_run-error");
    expect(err?.textContent).toContain('Tokens per run: "0.5" is not a whole number. Write a whole number of tokens from 0 to 1,000,000,000, or leave it empty.');
    expect(field("tokens_per_run").getAttribute("aria-invalid")).toBe("true");
    expect(field("tokens_per_run").getAttribute("aria-describedby")).toBe("limit-tokens_per_run-error");
    expect(saveButton().disabled).toBe(true);
    type("tokens_per_run", "500");
    type("tool_calls_per_run", "-3");
    expect(document.body.textContent).toContain('Tool calls per run: "-3" is below 0. Write a whole number of tool calls');
    type("tool_calls_per_run", "lots");
    expect(document.body.textContent).toContain('Tool calls per run: "lots" is not a number.');
    field("tool_calls_per_run").form!.requestSubmit();
    flushSync();
    expect(fake.setDefaultLimits).not.toHaveBeenCalled();
  });

  it("goes to the first field on Alt+L", async () => {
    fake.defaultLimits.mockResolvedValue({ tokens_per_run: 0, tokens_per_day: 0, tool_calls_per_run: 0 });
    await render();
    Element.prototype.scrollIntoView ??= () => {};
    const e = new KeyboardEvent("keydown", { code: "KeyL", key: "l", altKey: true, bubbles: true, cancelable: true });
    window.dispatchEvent(e);
    expect(e.defaultPrevented).toBe(true);
    expect(document.activeElement).toBe(field("tokens_per_run"));
    expect(field("tokens_per_run").getAttribute("aria-keyshortcuts")).toBe("Alt+L");
  });

  it("shows what the app refused", async () => {
    fake.defaultLimits.mockResolvedValue({ tokens_per_run: 0, tokens_per_day: 0, tool_calls_per_run: 0 });
    fake.setDefaultLimits.mockRejectedValue(new Error("the default limits were not saved: settings.json:3: bad"));
    const notify = vi.spyOn(app, "notify");
    await render();
    type("tokens_per_run", "10");
    saveButton().click();
    await eventually(() => expect(notify).toHaveBeenCalledWith("error", "the default limits were not saved: settings.json:3: bad"));
    expect(field("tokens_per_run").value).toBe("10"); // kept to try again
  });
});

describe("parseLimit and tokensShort", () => {
  it("reads what a person types", () => {
    expect(parseLimit("Tokens per run", "")).toEqual({ value: 0, error: "" });
    expect(parseLimit("Tokens per run", " 50,000 ")).toEqual({ value: 50000, error: "" });
    expect(parseLimit("Tokens per run", "2000000000").error).toBe("Tokens per run: 2,000,000,000 is over the largest limit, 1,000,000,000.");
    expect(parseLimit("Tokens per day", "1e3").error).toContain('Tokens per day: "1e3" is not a number.');
  });
  it("writes token counts short", () => {
    expect([950, 1000, 12345, 999_999, 4_500_000, 123_456].map(tokensShort)).toEqual(["950", "1k", "12.3k", "1M", "4.5M", "123k"]);
  });
});
