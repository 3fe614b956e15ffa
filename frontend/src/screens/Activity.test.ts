import { afterEach, describe, expect, it, vi } from "vitest";
import { flushSync, mount, unmount } from "svelte";
import type { JournalSession, SessionDetail, SessionPage } from "../lib/types";
import { eventually } from "../testing/eventually";

// The Go side, as the bound methods answer (api.ts wraps them).
const session = (id: string, more: Partial<JournalSession> = {}): JournalSession => ({
  id, coworker: "notes-helper", coworker_version: "1.0.0", identity: "sha256:" + "0".repeat(64), provider: "openai",
  model: "m", approve: "ask", status: "closed", error: "", created_at: "2026-11-30T10:00:00Z", updated_at: "", first_prompt: "note " + id, ...more,
});
const detail = (id: string): SessionDetail => ({ ...session(id), turns: [], messages: [], invocations: [], approvals: [], warnings: [] });
const fake = vi.hoisted(() => ({ sessionPage: vi.fn(), needsAttention: vi.fn(), sessionDetail: vi.fn(), reconcile: vi.fn(), runTokens: vi.fn(), coworkerTokens: vi.fn() }));
vi.mock("../lib/api", () => ({ api: fake }));

const { default: Activity } = await import("./Activity.svelte");
const { app } = await import("../lib/state.svelte");

const mounted: ReturnType<typeof mount>[] = [];
afterEach(() => {
  mounted.splice(0).forEach((c) => unmount(c));
  vi.clearAllMocks();
});

// pages answers SessionPage like the journal: 100 a page, newest first,
// "needs attention" keeping only sessions with unreconciled calls.
function pages(all: JournalSession[]) {
  fake.sessionPage.mockImplementation(async (before: string, attention: boolean): Promise<SessionPage> => {
    const list = attention ? all.filter((s) => s.unreconciled) : all;
    const start = before ? Number(before) : 0;
    const end = start + 100;
    return { sessions: list.slice(start, end), next: end < list.length ? String(end) : "" };
  });
  fake.needsAttention.mockResolvedValue({ sessions: all.filter((s) => s.unreconciled).length, calls: 0 });
  fake.sessionDetail.mockImplementation(async (id: string) => detail(id));
}

async function render(): Promise<HTMLElement> {
  const target = document.createElement("div");
  document.body.append(target);
  mounted.push(mount(Activity, { target }));
  await eventually(() => expect(fake.sessionDetail).toHaveBeenCalled());
  flushSync();
  return target;
}

const rows = (root: HTMLElement) => root.querySelectorAll("button.row-item");
const button = (root: HTMLElement, text: string) =>
  [...root.querySelectorAll("button")].find((b) => b.textContent?.trim().startsWith(text)) as HTMLButtonElement;

describe("Activity", () => {
  const all = Array.from({ length: 250 }, (_, i) => session("ses_" + String(i).padStart(3, "0"), i % 60 === 7 ? { unreconciled: 2 } : {}));

  it("pages through any number of sessions", async () => {
    pages(all);
    const root = await render();
    expect(rows(root)).toHaveLength(100);
    button(root, "Show older sessions").click();
    await eventually(() => expect(rows(root)).toHaveLength(200));
    button(root, "Show older sessions").click();
    await eventually(() => expect(rows(root)).toHaveLength(250));
    expect(button(root, "Show older sessions")).toBeUndefined();
    expect(fake.sessionPage).toHaveBeenLastCalledWith("200", false);
  });

  it("filters the sessions that need attention and counts them", async () => {
    pages(all);
    const root = await render();
    const filter = button(root, "Needs attention");
    expect(filter.textContent).toContain("5"); // sessions 7, 67, 127, 187, 247
    expect(root.textContent).toContain("2 to check");
    filter.click();
    await eventually(() => expect(rows(root)).toHaveLength(5));
    expect(filter.getAttribute("aria-pressed")).toBe("true");
    expect(fake.sessionPage).toHaveBeenLastCalledWith("", true);
  });

  it("says when nothing needs attention", async () => {
    pages([session("ses_a")]);
    const root = await render();
    button(root, "Needs attention").click();
    await eventually(() => expect(root.textContent).toContain("Nothing needs attention"));
  });

  it("keeps a session shown after its last unknown call is resolved under Needs attention", async () => {
    const one = [session("ses_u", { unreconciled: 1 })];
    pages(one);
    const inv = { id: "inv_u", session_id: "ses_u", turn_id: "t", call_id: "c", tool: "notes.append", alias: "notes__append", provider: "native",
      risk: "write", arguments: {}, status: "unknown", effect: "", reconciled: "", duration_ms: 0, created_at: "" };
    let reconciled = false;
    fake.sessionDetail.mockImplementation(async (id: string) =>
      ({ ...detail(id), invocations: [{ ...inv, reconciled: reconciled ? "not_applied" : "", reconciled_by: reconciled ? "you" : "" }] }));
    fake.reconcile.mockImplementation(async () => {
      reconciled = true;
      one[0] = session("ses_u"); // no longer needs attention
    });
    const root = await render();
    button(root, "Needs attention").click();
    await eventually(() => expect(button(root, "It was not applied")).toBeTruthy());
    button(root, "It was not applied").click();
    await eventually(() => expect(root.textContent).toContain("Nothing needs attention"));
    // The list is empty now, but the session stays on screen with its resolved call.
    await eventually(() => expect(root.querySelector(".pill.resolved")).not.toBeNull());
  });

  it("says a resolved call's reason without 'needs reconciliation', and clears the sidebar's attention dot", async () => {
    const why = "the app stopped while this call was running; it needs reconciliation";
    const one = [session("ses_r", { unreconciled: 1 })];
    pages(one);
    app.chatList = [session("ses_r", { unreconciled: 1 }), session("ses_other", { unreconciled: 2 })];
    const inv = { id: "inv_r", session_id: "ses_r", turn_id: "t", call_id: "c", tool: "notes.append", alias: "notes__append", provider: "native",
      risk: "non_idempotent_write", arguments: {}, status: "unknown", effect: "", reconciled: "", error: why, duration_ms: 0, created_at: "" };
    let reconciled = false;
    fake.sessionDetail.mockImplementation(async (id: string) => ({ ...detail(id), invocations: [{ ...inv, reconciled: reconciled ? "applied" : "" }] }));
    fake.reconcile.mockImplementation(async () => {
      reconciled = true;
      one[0] = session("ses_r");
    });
    const root = await render();
    await eventually(() => expect(root.querySelector("td .error")?.textContent).toBe(why));
    button(root, "It was applied").click();
    await eventually(() => expect(root.querySelector(".pill.resolved")).not.toBeNull());
    expect(root.querySelector("td .error")).toBeNull();
    expect(root.querySelector("td .stopped")?.textContent).toBe("the app stopped while this call was running");
    expect(app.chatList.find((s) => s.id === "ses_r")?.unreconciled).toBeUndefined();
    expect(app.chatList.find((s) => s.id === "ses_other")?.unreconciled).toBe(2);
    app.chatList = [];
  });

  it("does not ask whether a read-only call was applied: it offers Mark as checked", async () => {
    pages([session("ses_ro", { unreconciled: 1 })]);
    const inv = { id: "inv_ro", session_id: "ses_ro", turn_id: "t", call_id: "c", tool: "notes.read", alias: "notes__read", provider: "native",
      risk: "read_only", arguments: {}, status: "unknown", effect: "", reconciled: "", error: "the app stopped while this call was running; it needs reconciliation", duration_ms: 0, created_at: "" };
    fake.sessionDetail.mockImplementation(async (id: string) => ({ ...detail(id), invocations: [inv] }));
    fake.reconcile.mockResolvedValue(undefined);
    const root = await render();
    await eventually(() => expect(button(root, "Mark as checked")).toBeTruthy());
    expect(root.textContent).not.toContain("Did it happen?");
    expect(button(root, "It was applied")).toBeUndefined();
    expect(root.textContent).not.toContain("needs reconciliation");
    expect(root.textContent).toContain("It only reads, so nothing changed however it ended.");
    button(root, "Mark as checked").click();
    await eventually(() => expect(fake.reconcile).toHaveBeenCalledWith("inv_ro", "not_applied"));
  });

  it("names coworkers and a session by name and title, ids in tooltips", async () => {
    app.coworkers = { dir: "/c", broken: null, error: "", coworkers: [
      { id: "notes-helper", name: "Notes Helper", description: "", version: "1", dir: "/c/n", tools: null, left_out: null },
    ] };
    pages([session("ses_n", { title: "Plan the week" })]);
    const root = await render();
    await eventually(() => expect(root.querySelector(".detail h2")?.textContent).toContain("Notes Helper"));
    const h2 = root.querySelector<HTMLElement>(".detail h2")!;
    expect(h2.textContent).toContain("“Plan the week”");
    expect(h2.textContent).not.toContain("ses_n");
    expect(h2.title).toContain("ses_n");
    const strong = rows(root)[0].querySelector<HTMLElement>("strong")!;
    expect(strong.textContent).toBe("Notes Helper");
    expect(strong.title).toContain("notes-helper");
    app.coworkers = null;
  });
});

describe("Activity tokens", () => {
  it("shows each run's tokens and each coworker's today and over 7 days", async () => {
    const all = [session("ses_a"), session("ses_b", { coworker: "mailer" }), session("ses_c")];
    pages(all);
    fake.runTokens.mockResolvedValue({ ses_a: { input_tokens: 1240, output_tokens: 232, responses: 2 }, ses_b: { input_tokens: 90, output_tokens: 10, responses: 1 } });
    fake.coworkerTokens.mockResolvedValue({ today: "2026-12-06", days: 7, coworkers: [
      { coworker: "notes-helper", today: { input_tokens: 1240, output_tokens: 232, responses: 2 }, days: { input_tokens: 51240, output_tokens: 2232, responses: 9 } },
      { coworker: "mailer", today: { input_tokens: 0, output_tokens: 0, responses: 0 }, days: { input_tokens: 90, output_tokens: 10, responses: 1 } },
    ] });
    const root = await render();
    await eventually(() => expect(rows(root)[0].textContent).toContain("1,472 tokens (1,240 in, 232 out)"));
    expect(fake.runTokens).toHaveBeenCalledWith(["ses_a", "ses_b", "ses_c"]);
    expect(rows(root)[1].textContent).toContain("100 tokens (90 in, 10 out)");
    expect(rows(root)[2].querySelector(".run-tokens")).toBeNull(); // none reported
    await eventually(() => expect(root.querySelector(".detail")!.textContent?.replace(/\s+/g, " ")).toContain("approval ask · 1,472 tokens (1,240 in, 232 out)"));
    const tokens = button(root, "Tokens");
    tokens.click();
    await eventually(() => expect(root.querySelector("table.tokens")).not.toBeNull());
    expect(tokens.getAttribute("aria-pressed")).toBe("true");
    const cells = [...root.querySelectorAll("table.tokens tbody tr")].map((r) => [...r.querySelectorAll("td")].map((c) => c.textContent?.replace(/\s+/g, " ").trim()));
    expect(cells[0]).toEqual(["notes-helper", "1,472 1,240 in · 232 out · 2 responses", "53,472 51,240 in · 2,232 out · 9 responses"]);
    expect(cells[1][1]).toBe("0 0 in · 0 out · 0 responses");
    expect(root.textContent).toContain("today is 2026-12-06");
    (rows(root)[1] as HTMLButtonElement).click(); // back to a session
    await eventually(() => expect(root.querySelector("table.tokens")).toBeNull());
  });

  it("says when no coworker used tokens", async () => {
    pages([session("ses_a")]);
    fake.runTokens.mockResolvedValue({});
    fake.coworkerTokens.mockResolvedValue({ today: "2026-12-06", days: 7, coworkers: [] });
    const root = await render();
    button(root, "Tokens").click();
    await eventually(() => expect(root.textContent).toContain("No tokens in the last 7 days."));
  });
});
