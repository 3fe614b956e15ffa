import { afterEach, describe, expect, it, vi } from "vitest";
import { flushSync, mount, unmount } from "svelte";
import type { ScheduleInfo } from "../lib/types_inbox";
import { eventually } from "../testing/eventually";

const sched = (id: string, more: Partial<ScheduleInfo> = {}): ScheduleInfo => ({
  id, coworker: "helper", prompt: "Check the battery", when: "0 9 * * 1-5 (Europe/Berlin)", catch_up: true, created_at: "2026-12-01T09:00:00Z",
  last_run: { id: 1, schedule_id: id, slot: "2026-12-06T09:00:00Z", missed: 3, session_id: "ses_1", status: "caught up (missed 3)", claimed_at: "2026-12-06T09:00:01Z" }, next: "2026-12-08T08:00:00Z", ...more,
});
const fake = vi.hoisted(() => ({ schedules: vi.fn(), addSchedule: vi.fn(), editSchedule: vi.fn(), removeSchedule: vi.fn() }));
vi.mock("../lib/api", () => ({ api: fake }));

const { default: Schedules } = await import("./Schedules.svelte");
const { app } = await import("../lib/state.svelte");

const mounted: ReturnType<typeof mount>[] = [];
afterEach(() => {
  mounted.splice(0).forEach((c) => unmount(c));
  vi.clearAllMocks();
});
const button = (root: HTMLElement, text: string) =>
  [...root.querySelectorAll("button")].find((b) => b.textContent?.trim() === text) as HTMLButtonElement;

describe("Schedules", () => {
  it("lists each schedule with its last run, adds, edits and removes", async () => {
    app.coworkers = { dir: "", coworkers: [{ id: "helper" }, { id: "keeper" }], broken: [], error: "" } as never;
    let list = [sched("sch_1")];
    fake.schedules.mockImplementation(async () => list);
    fake.addSchedule.mockImplementation(async (s) => {
      list = [...list, sched("sch_2", { ...s, last_run: null })];
    });
    fake.removeSchedule.mockImplementation(async (id: string) => {
      list = list.filter((s) => s.id !== id);
    });
    const target = document.createElement("div");
    document.body.append(target);
    mounted.push(mount(Schedules, { target }));
    await eventually(() => expect(target.querySelectorAll(".schedule")).toHaveLength(1));
    expect(target.textContent).toContain("0 9 * * 1-5 (Europe/Berlin)");
    expect(target.textContent).toContain("caught up (missed 3)");
    expect(target.querySelector(".next-run")!.textContent).toBe(`Next run ${new Date("2026-12-08T08:00:00Z").toLocaleString()}`);

    const form = target.querySelector("form") as HTMLFormElement;
    (form.querySelector("select") as HTMLSelectElement).value = "keeper";
    form.querySelector("select")!.dispatchEvent(new Event("change"));
    const prompt = form.querySelector("textarea") as HTMLTextAreaElement;
    prompt.value = "Summarise my notes";
    prompt.dispatchEvent(new Event("input"));
    const when = form.querySelector("input:not([type])") as HTMLInputElement;
    when.value = "every 2h";
    when.dispatchEvent(new Event("input"));
    flushSync();
    form.requestSubmit();
    await eventually(() => expect(fake.addSchedule).toHaveBeenCalledWith({ coworker: "keeper", prompt: "Summarise my notes", when: "every 2h", catch_up: true }));
    await eventually(() => expect(target.querySelectorAll(".schedule")).toHaveLength(2));
    expect(target.textContent).toContain("Not run yet.");

    button(target.querySelector('[data-schedule="sch_1"]') as HTMLElement, "Edit").click();
    flushSync();
    expect(prompt.value).toBe("Check the battery");
    expect(when.value).toBe("0 9 * * 1-5");
    expect(button(target, "Save schedule")).toBeDefined();

    button(target.querySelector('[data-schedule="sch_1"]') as HTMLElement, "Remove").click();
    await eventually(() => expect(fake.removeSchedule).toHaveBeenCalledWith("sch_1"));
    await eventually(() => expect(target.querySelectorAll(".schedule")).toHaveLength(1));
  });
});
