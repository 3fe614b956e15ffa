import { describe, expect, it } from "vitest";
import { addApproval, callTime, closeApproval, decisionLabel, emptyChat, formatArgs, formatDuration, formatResult, formatTime, historyState, isAgentCall, reduce, resolvedLine, type ChatState } from "./chat";
import { HarnessEventType as T } from "./events";
import type { HarnessEvent, Invocation, PendingApproval, SessionDetail } from "./types";

const ev = (e: Partial<HarnessEvent> & { type: HarnessEvent["type"] }): HarnessEvent => ({ session_id: "s", turn_id: "t1", ...e });
const run = (events: HarnessEvent[], s: ChatState = emptyChat(), clock = () => 1000) => events.reduce((st, e) => reduce(st, e, clock), s);

describe("reduce", () => {
  it("streams assistant text and settles it", () => {
    const s = run([
      ev({ type: T.TurnStarted, text: "hi" }),
      ev({ type: T.Text, text: "Hel", attempt: 1 }),
      ev({ type: T.Text, text: "lo", attempt: 1 }),
    ]);
    expect(s.running).toBe(true);
    expect(s.items).toEqual([
      { kind: "user", key: "u:t1", text: "hi", at: 1000 },
      { kind: "assistant", key: "a:t1:1", text: "Hello", streaming: true, at: 1000 },
    ]);
    // The settled message keeps the time its first text arrived.
    const done = run([ev({ type: T.AssistantMessage, text: "Hello!", attempt: 1 }), ev({ type: T.TurnFinished, status: "completed" })], s, () => 9000);
    expect(done.running).toBe(false);
    expect(done.items[1]).toEqual({ kind: "assistant", key: "a:t1:1", text: "Hello!", streaming: false, at: 1000 });
    expect(done.items).toHaveLength(2);
  });

  it("follows a tool call through approval, progress and result", () => {
    const s = run([
      ev({ type: T.TurnStarted, text: "go" }),
      ev({ type: T.ToolProposed, invocation_id: "inv1", call_id: "c1", alias: "test__echo", arguments: { text: "x" } }),
      ev({ type: T.ApprovalRequired, invocation_id: "inv1", tool: "test.echo" }),
    ]);
    const card = s.items[1];
    expect(card).toMatchObject({ kind: "tool", key: "inv1", tool: "test.echo", status: "awaiting_approval" });
    const s2 = run([
      ev({ type: T.ApprovalDecided, invocation_id: "inv1", status: "allow_once", text: "you allowed this call" }),
      ev({ type: T.ToolStarted, invocation_id: "inv1" }),
      ev({ type: T.ToolProgress, invocation_id: "inv1", text: "50%" }),
      ev({ type: T.ToolFinished, invocation_id: "inv1", status: "succeeded", text: '{"echo":"x"}', duration_ms: 1500 }),
    ], s);
    expect(s2.items[1]).toMatchObject({
      status: "succeeded", decision: "allow_once", progress: [{ text: "50%" }], result: '{"echo":"x"}', durationMs: 1500,
    });
  });

  it("shows a refused call and a stopped turn", () => {
    const s = run([
      ev({ type: T.TurnStarted, text: "go" }),
      ev({ type: T.ToolProposed, invocation_id: "i", alias: "a__b" }),
      ev({ type: T.ToolFinished, invocation_id: "i", status: "refused", error: "you denied this call" }),
      ev({ type: T.TurnFinished, status: "stopped", error: "budget spent" }),
    ]);
    expect(s.items[1]).toMatchObject({ status: "refused", error: "you denied this call" });
    expect(s.items[2]).toMatchObject({ kind: "notice", level: "error", text: "Turn stopped: budget spent" });
  });

  it("shows a retry as a notice, not a second copy of the prompt, and its own failure once", () => {
    const failed = run([
      ev({ type: T.TurnStarted, text: "go" }),
      ev({ type: T.Error, error: "model down" }),
      ev({ type: T.TurnFinished, status: "failed", error: "model down" }),
    ]);
    const again = run([
      ev({ type: T.TurnStarted, turn_id: "t2", text: "go", status: "retry" }),
      ev({ type: T.TurnFinished, turn_id: "t2", status: "failed", error: "still down" }),
    ], failed);
    expect(again.items.filter((i) => i.kind === "user")).toHaveLength(1);
    expect(run([ev({ type: T.TurnStarted, turn_id: "t2", text: "go", status: "retry" })], failed).items.at(-1))
      .toMatchObject({ kind: "notice", key: "r:t2", level: "info", text: "Retrying…" });
    expect(again.items.at(-2)).toMatchObject({ kind: "notice", key: "r:t2", level: "info", text: "Retried." });
    // The earlier turn's error is not taken for this one's: it gets its own notice.
    expect(again.items.at(-1)).toMatchObject({ kind: "notice", level: "error", text: "Turn failed: still down" });
    expect(again.lastStatus).toBe("failed");
    const ok = run([
      ev({ type: T.TurnStarted, turn_id: "t3", text: "go", status: "retry" }),
      ev({ type: T.AssistantMessage, turn_id: "t3", text: "fine", attempt: 1 }),
      ev({ type: T.TurnFinished, turn_id: "t3", status: "completed" }),
    ], again);
    expect(ok.lastStatus).toBe("completed");
    expect(ok.items.at(-1)).toMatchObject({ kind: "assistant", text: "fine" });
    // The successful retry leaves no "Retrying…" strip behind.
    expect(ok.items.some((i) => i.kind === "notice" && i.key === "r:t3")).toBe(false);
    expect(ok.items.filter((i) => i.kind === "notice" && i.text === "Retrying…")).toHaveLength(0);
  });

  it("reports a model failure once and keeps the chat usable", () => {
    const s = run([
      ev({ type: T.TurnStarted, text: "go" }),
      ev({ type: T.Error, error: "model request to http://127.0.0.1:1/v1 failed" }),
      ev({ type: T.TurnFinished, status: "failed", error: "model request failed" }),
    ]);
    const notices = s.items.filter((i) => i.kind === "notice");
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ level: "error", text: "model request to http://127.0.0.1:1/v1 failed" });
    expect(s.lastStatus).toBe("failed");
    expect(s.running).toBe(false);
  });

  it("caps progress lines", () => {
    let s = run([ev({ type: T.TurnStarted }), ev({ type: T.ToolProposed, invocation_id: "i" })]);
    for (let i = 0; i < 100; i++) s = reduce(s, ev({ type: T.ToolProgress, invocation_id: "i", text: String(i) }));
    expect(s.items[1].kind === "tool" && s.items[1].progress.length).toBe(64);
  });

  it("ignores events for unknown cards", () => {
    const s = run([ev({ type: T.TurnStarted })]);
    expect(reduce(s, ev({ type: T.ToolFinished, invocation_id: "nope", status: "succeeded" }))).toBe(s);
  });
});

describe("approvals queue", () => {
  const p = (id: string) => ({ id, request: {}, deadline: "" }) as unknown as PendingApproval;
  it("adds once and removes on close", () => {
    let q = addApproval([], p("a"));
    q = addApproval(q, p("b"));
    q = addApproval(q, p("a"));
    expect(q.map((x) => x.id)).toEqual(["a", "b"]);
    q = closeApproval(q, { id: "a", session_id: "s", decision: "deny", reason: "" });
    expect(q.map((x) => x.id)).toEqual(["b"]);
  });
});

describe("formatting", () => {
  it("formats arguments and durations", () => {
    expect(formatArgs('{"a":1}')).toBe('{\n  "a": 1\n}');
    expect(formatArgs("not json")).toBe("not json");
    expect(formatArgs(null)).toBe("{}");
    expect(formatDuration(850)).toBe("850 ms");
    expect(formatDuration(2400)).toBe("2.4 s");
  });
});

describe("historyState", () => {
  const session = {
    id: "s", coworker: "helper", coworker_version: "1", identity: "sha256:x", provider: "openai", model: "m",
    approve: "ask", status: "closed", error: "", created_at: "", updated_at: "",
  };
  const inv = (id: string, call: string, status: string, extra: Partial<Invocation> = {}): Invocation => ({
    id, session_id: "s", turn_id: "t1", call_id: call, tool: "test.echo", alias: "test__echo", provider: "native", risk: "read_only",
    arguments: { text: call }, status, effect: "", reconciled: "", duration_ms: 12, created_at: "", ...extra,
  });
  const detail: SessionDetail = {
    ...session,
    turns: [
      { id: "t1", seq: 1, prompt: "first", status: "completed" },
      { id: "t2", seq: 2, prompt: "second", status: "stopped", reason: "the tool failed" },
    ],
    messages: [
      { id: 1, turn_id: "t1", role: "user", content: { role: "user", text: "first" } },
      { id: 2, turn_id: "t1", role: "assistant", content: { role: "assistant", text: "Let me look.", tool_calls: [
        { id: "c1", name: "test__echo", arguments: '{"text":"c1"}' }, { id: "c2", name: "test__echo", arguments: '{"text":"c2"}' }] } },
      { id: 3, turn_id: "t1", role: "tool", content: { role: "tool", tool_call_id: "c1", text: '{"echo":"c1"}' } },
      { id: 4, turn_id: "t1", role: "tool", content: { role: "tool", tool_call_id: "c2", text: "outcome unknown: …", is_error: true } },
      { id: 5, turn_id: "t1", role: "assistant", content: { role: "assistant", text: "Done." } },
      { id: 6, turn_id: "t2", role: "user", content: { role: "user", text: "second" } },
      { id: 7, turn_id: "t2", role: "assistant", content: { role: "assistant", tool_calls: [{ id: "c3", name: "test__gone", arguments: "{not json" }] } },
      { id: 8, turn_id: "t2", role: "tool", content: { role: "tool", tool_call_id: "c3", text: "error (not_selected): no such tool", is_error: true } },
    ],
    invocations: [inv("inv1", "c1", "succeeded"), inv("inv2", "c2", "executing", { error: "" })],
    approvals: [{ invocation_id: "inv1", tool: "test.echo", decision: "allow_once", source: "prompt", reason: "you allowed this call" }],
    warnings: null,
  };

  it("rebuilds prompts, texts, tool cards and unfinished turns in order", () => {
    const s = historyState(detail);
    expect(s.running).toBe(false);
    expect(s.items.map((i) => i.kind)).toEqual(["user", "assistant", "tool", "tool", "assistant", "user", "tool", "notice"]);
    expect(s.items[0]).toEqual({ kind: "user", key: "u:t1", text: "first" });
    expect(s.items[2]).toMatchObject({
      kind: "tool", key: "inv1", tool: "test.echo", status: "succeeded", result: '{"echo":"c1"}', decision: "allow_once", durationMs: 12, args: { text: "c1" },
    });
    // A call the journal still has as executing ran in a dead process: unknown.
    expect(s.items[3]).toMatchObject({ key: "inv2", status: "unknown", error: "outcome unknown: …", result: undefined });
    // A call with no invocation row: its answer says how it went; bad JSON arguments stay text.
    expect(s.items[6]).toMatchObject({ kind: "tool", tool: "test__gone", status: "refused", args: "{not json", error: "error (not_selected): no such tool" });
    // With the chat's tools, an alias reads as the tool's name.
    expect(historyState(detail, [{ name: "test.gone" }]).items[6]).toMatchObject({ tool: "test.gone" });
    expect(s.items[7]).toEqual({ kind: "notice", key: "t:t2", level: "error", text: "Turn stopped: the tool failed" });
    expect(s.lastStatus).toBe("stopped"); // Retry is offered in the continued chat
    expect(new Set(s.items.map((i) => i.key)).size).toBe(s.items.length);
  });

  it("pairs repeated call IDs in order and never repeats a key", () => {
    const twice: SessionDetail = {
      ...session, turns: [{ id: "t1", seq: 1, prompt: "go", status: "completed" }],
      messages: [
        { id: 1, turn_id: "t1", role: "user", content: { role: "user", text: "go" } },
        { id: 2, turn_id: "t1", role: "assistant", content: { role: "assistant", tool_calls: [{ id: "call_0", name: "test__echo", arguments: "{}" }] } },
        { id: 3, turn_id: "t1", role: "tool", content: { role: "tool", tool_call_id: "call_0", text: "A" } },
        { id: 4, turn_id: "t1", role: "assistant", content: { role: "assistant", tool_calls: [{ id: "call_0", name: "test__echo", arguments: "{}" }] } },
        { id: 5, turn_id: "t1", role: "tool", content: { role: "tool", tool_call_id: "call_0", text: "B" } },
      ],
      invocations: [inv("inv1", "call_0", "succeeded"), inv("inv2", "call_0", "succeeded")],
      approvals: null, warnings: null,
    };
    const s = historyState(twice);
    const cards = s.items.filter((i) => i.kind === "tool");
    expect(cards.map((c) => [c.key, c.result])).toEqual([["inv1", "A"], ["inv2", "B"]]);
    // Even a journal with one invocation ID twice gives distinct keys.
    const dup = historyState({ ...twice, invocations: [inv("inv1", "call_0", "succeeded")] });
    expect(new Set(dup.items.map((i) => i.key)).size).toBe(dup.items.length);
  });

  it("shows retried turns: one prompt, each failure once, then the answer", () => {
    const retried: SessionDetail = {
      ...session,
      turns: [
        { id: "t1", seq: 1, prompt: "go", status: "failed", reason: "model down" },
        { id: "t2", seq: 2, prompt: "go", status: "failed", reason: "still down" },
        { id: "t3", seq: 3, prompt: "go", status: "completed" },
      ],
      messages: [
        { id: 1, turn_id: "t1", role: "user", content: { role: "user", text: "go" } },
        { id: 2, turn_id: "t3", role: "assistant", content: { role: "assistant", text: "Here." } },
      ],
      invocations: null, approvals: null, warnings: null,
    };
    const s = historyState(retried);
    expect(s.items.map((i) => (i.kind === "notice" ? i.text : i.kind))).toEqual(
      ["user", "Turn failed: model down", "Turn failed: still down", "assistant"]);
    expect(s.lastStatus).toBe("completed");
  });

  it("is empty for a session without messages", () => {
    expect(historyState({ ...session, turns: null, messages: null, invocations: null, approvals: null, warnings: null }).items).toEqual([]);
  });
});

describe("card text", () => {
  it("says decisions in words", () => {
    expect(decisionLabel("allow_session")).toBe("allowed for this session");
    expect(decisionLabel("deny")).toBe("denied");
    expect(decisionLabel("something_new")).toBe("something new");
  });
  it("says a call let through by a saved always-allow is always allowed, not allowed once", () => {
    expect(decisionLabel("allow_once", "policy:user")).toBe("allowed — always for this coworker");
    expect(decisionLabel("deny", "policy:user")).toBe("denied — Never for this coworker");
    expect(decisionLabel("allow_once", "prompt")).toBe("allowed once");
    expect(decisionLabel("allow_once")).toBe("allowed once");
    // The live event and the journal both carry the source to the card.
    const d = run([
      ev({ type: T.ToolProposed, invocation_id: "inv1", call_id: "c1", tool: "test.echo" }),
      ev({ type: T.ApprovalDecided, invocation_id: "inv1", tool: "test.echo", status: "allow_once", source: "policy:user", text: "you chose to always allow test.echo for this coworker" }),
    ]);
    const card = d.items.find((i) => i.kind === "tool");
    expect(card && card.kind === "tool" && decisionLabel(card.decision ?? "", card.decisionSource)).toBe("allowed — always for this coworker");
  });
  it("pretty-prints JSON results only", () => {
    expect(formatResult('{"a":1,"b":[2,3]}')).toBe('{\n  "a": 1,\n  "b": [\n    2,\n    3\n  ]\n}');
    expect(formatResult("plain text {not json")).toBe("plain text {not json");
    expect(formatResult("{broken")).toBe("{broken");
  });
});

describe("callTime and resolvedLine (Activity)", () => {
  it("gives an interrupted call the bound the journal's times give, never 0 ms", () => {
    expect(callTime({ error_code: "interrupted", duration_ms: 0, started_at: "2026-12-01T10:00:00Z", finished_at: "2026-12-01T10:00:42Z" }))
      .toBe("interrupted; found 42.0 s after it started");
    expect(callTime({ error_code: "interrupted", duration_ms: 0 })).toBe("interrupted");
    expect(callTime({ duration_ms: 1500 })).toBe("1.5 s");
  });
  it("says what was recorded for a reconciled call, by whom", () => {
    expect(resolvedLine({ reconciled: "not_applied", reconciled_by: "user:ann" })).toBe("resolved: not applied by ann");
    expect(resolvedLine({ reconciled: "" })).toBe("");
    expect(resolvedLine({ reconciled: "applied", reconciled_by: "a2a:poll" })).toBe("resolved: applied by the agent's own answer");
  });
  it("offers to ask the agent only for a call of an A2A agent", () => {
    expect(isAgentCall({ provider: "a2a:helper" })).toBe(true);
    expect(isAgentCall({ provider: "mcp:a2a" })).toBe(false);
    expect(isAgentCall({ provider: "native" })).toBe(false);
  });
});

describe("formatTime", () => {
  it("gives the time of today's message and the date of an older one; nothing without a time", () => {
    const at = new Date(2026, 11, 1, 14, 5, 9).getTime();
    expect(formatTime(at, at + 60_000)).toMatch(/(14|0?2).05.09/);
    const older = formatTime(at, at + 3 * 86_400_000);
    expect(older).toMatch(/2026/);
    expect(older).toMatch(/(14|0?2).05.09/);
    expect(formatTime(undefined)).toBe("");
  });
});

describe("a refused call of a tool the coworker was not given", () => {
  it("reads for the person, not the model", () => {
    let s = emptyChat();
    s = reduce(s, { type: T.ToolProposed, session_id: "s", invocation_id: "i1", call_id: "c1", alias: "device__wipe_disk", tool: "" } as never);
    s = reduce(s, { type: T.ToolFinished, session_id: "s", invocation_id: "i1", alias: "device__wipe_disk", status: "refused", code: "not_selected",
      error: 'there is no tool "device__wipe_disk" for this coworker; use only the tools you were given' } as never);
    const card = s.items.find((it) => it.kind === "tool");
    expect(card && card.kind === "tool" && card.error).toBe("The model asked for “device__wipe_disk”, a tool this coworker was not given, so it was refused and nothing ran.");
  });
  it("names the app view when a view asked for it", () => {
    let s = emptyChat();
    s = reduce(s, { type: T.ToolProposed, session_id: "s", invocation_id: "i2", call_id: "", alias: "secret_peek", tool: "", origin: "view:i1" } as never);
    s = reduce(s, { type: T.ToolFinished, session_id: "s", invocation_id: "i2", alias: "secret_peek", status: "refused", code: "not_selected", origin: "view:i1" } as never);
    const card = s.items.find((it) => it.kind === "tool");
    expect(card && card.kind === "tool" && card.error).toBe("The app view asked for “secret_peek”, a tool this coworker was not given, so it was refused and nothing ran.");
  });
});

describe("app views (docs/mcp-apps.md)", () => {
  it("keeps a call's ui_resource and labels the calls its view asks for", () => {
    const s = run([
      ev({ type: T.TurnStarted, text: "show the counter" }),
      ev({ type: T.ToolProposed, invocation_id: "inv1", call_id: "c1", tool: "apps.counter_show" }),
      ev({ type: T.ToolFinished, invocation_id: "inv1", status: "succeeded", ui_resource: { uri: "ui://counter/view.html", digest: "sha256:ab", size: 812 } }),
      ev({ type: T.ToolProposed, invocation_id: "inv2", call_id: "v1", tool: "apps.counter_bump", origin: "view:inv1" }),
      ev({ type: T.ApprovalRequired, invocation_id: "inv2", tool: "apps.counter_bump", origin: "view:inv1" }),
      ev({ type: T.ToolFinished, invocation_id: "inv2", status: "refused", code: "denied", error: "you denied this call", origin: "view:inv1" }),
    ]);
    expect(s.items[1]).toMatchObject({ key: "inv1", ui: { uri: "ui://counter/view.html", digest: "sha256:ab", size: 812 } });
    expect(s.items[1]).not.toHaveProperty("origin");
    expect(s.items[2]).toMatchObject({ key: "inv2", origin: "view:inv1", originTool: "apps.counter_show", status: "refused", error: "you denied this call" });
    expect(s.items[2]).not.toHaveProperty("ui");
  });

  it("updates a view's earlier call of the same tool in place: one card per tool, however many presses", () => {
    const show = [
      ev({ type: T.TurnStarted, text: "show the counter" }),
      ev({ type: T.ToolProposed, invocation_id: "inv1", call_id: "c1", tool: "apps.counter_show" }),
      ev({ type: T.ToolFinished, invocation_id: "inv1", status: "succeeded", ui_resource: { uri: "ui://counter/view.html" } }),
    ];
    const press = (n: number, status = "succeeded") => [
      ev({ type: T.ToolProposed, invocation_id: `b${n}`, call_id: `v${n}`, tool: "apps.counter_bump", origin: "view:inv1" }),
      ev({ type: T.ToolFinished, invocation_id: `b${n}`, status, text: `Count: ${n}`, origin: "view:inv1" }),
    ];
    const s = run([...show, ...press(1), ...press(2), ...press(3, "refused")]);
    expect(s.items.map((i) => i.key)).toEqual(["u:t1", "inv1", "b3"]);
    expect(s.items[2]).toMatchObject({ origin: "view:inv1", status: "refused", calls: 3 });
    // A press while the last is still running keeps its own card, and its events find it.
    const t = run([...show, ...press(1),
      ev({ type: T.ToolProposed, invocation_id: "b2", tool: "apps.counter_bump", origin: "view:inv1" }),
      ev({ type: T.ToolProposed, invocation_id: "b3", tool: "apps.counter_bump", origin: "view:inv1" }),
      ev({ type: T.ToolFinished, invocation_id: "b2", status: "succeeded", origin: "view:inv1" }),
    ]);
    expect(t.items.map((i) => i.key)).toEqual(["u:t1", "inv1", "b2", "b3"]);
    expect(t.items[2]).toMatchObject({ status: "succeeded", calls: 2 });
    expect(t.items[3]).toMatchObject({ status: "proposed" });
  });

  it("keeps a refused read's error and no digest", () => {
    const s = run([
      ev({ type: T.ToolProposed, invocation_id: "i", tool: "apps.big_show" }),
      ev({ type: T.ToolFinished, invocation_id: "i", status: "succeeded", ui_resource: { uri: "ui://big/view.html", error: "the view is 3.1 MB, over the 2 MB bound" } }),
    ]);
    expect((s.items[0] as { ui?: unknown }).ui).toEqual({ uri: "ui://big/view.html", error: "the view is 3.1 MB, over the 2 MB bound" });
  });

  it("rebuilds a view from the journal, and the view's calls after its card", () => {
    const base = {
      session_id: "s", turn_id: "t1", alias: "", provider: "mcp:apps", risk: "read_only", status: "succeeded",
      effect: "", reconciled: "" as const, duration_ms: 5, created_at: "",
    };
    const d: SessionDetail = {
      id: "s", coworker: "helper", coworker_version: "1", identity: "", provider: "openai", model: "m", approve: "ask",
      status: "closed", error: "", created_at: "", updated_at: "",
      turns: [{ id: "t1", seq: 1, prompt: "show", status: "completed" }],
      messages: [
        { id: 1, turn_id: "t1", role: "user", content: { role: "user", text: "show" } },
        { id: 2, turn_id: "t1", role: "assistant", content: { role: "assistant", tool_calls: [{ id: "c1", name: "apps__counter_show", arguments: "{}" }] } },
        { id: 3, turn_id: "t1", role: "tool", content: { role: "tool", tool_call_id: "c1", text: '{"count":1}' } },
        { id: 4, turn_id: "t1", role: "assistant", content: { role: "assistant", text: "Here it is." } },
      ],
      invocations: [
        { ...base, id: "inv1", call_id: "c1", tool: "apps.counter_show", arguments: {}, ui_uri: "ui://counter/view.html", ui_size: 812, ui_digest: "sha256:ab" },
        { ...base, id: "inv2", call_id: "view_1", tool: "apps.counter_bump", arguments: { by: 1 }, origin: "view:inv1", result: { text: '{"count":2}', structured: { count: 2 } } },
        { ...base, id: "inv3", call_id: "view_2", tool: "apps.counter_bump", arguments: { by: 1 }, origin: "view:inv1", status: "refused", error: "you denied this call" },
      ],
      approvals: [{ invocation_id: "inv3", tool: "apps.counter_bump", decision: "deny", source: "prompt", reason: "you denied this call" }],
      warnings: null,
    };
    const s = historyState(d);
    // The view's two calls of counter_bump share one card: the latest, counted.
    expect(s.items.map((i) => i.key)).toEqual(["u:t1", "inv1", "inv2", "h:4"]);
    expect(s.items[1]).toMatchObject({ ui: { uri: "ui://counter/view.html", size: 812, digest: "sha256:ab" }, status: "succeeded" });
    expect(s.items[2]).toMatchObject({ origin: "view:inv1", originTool: "apps.counter_show", status: "refused", decision: "deny", error: "you denied this call", calls: 2 });
    const one = historyState({ ...d, invocations: d.invocations!.slice(0, 2) });
    expect(one.items[2]).toMatchObject({ origin: "view:inv1", status: "succeeded", structured: { count: 2 }, args: { by: 1 } });
    expect(one.items[2]).not.toHaveProperty("calls");
  });
});
