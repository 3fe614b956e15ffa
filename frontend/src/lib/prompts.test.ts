import { describe, expect, it } from "vitest";
import { filterPrompts, MaxShown, missingRequired, moveSelection, promptArgs, slashQuery } from "./prompts";
import type { ChatPrompt } from "./types";

const p = (name: string, title = "", args: ChatPrompt["arguments"] = []): ChatPrompt => ({ name, title, description: "", arguments: args });

describe("slashQuery", () => {
  it("is the text after a leading slash while no space follows", () => {
    expect(slashQuery("/")).toBe("");
    expect(slashQuery("/kit.br")).toBe("kit.br");
    expect(slashQuery("/kit.brief now")).toBeNull();
    expect(slashQuery("/x\n")).toBeNull();
    expect(slashQuery(" /x")).toBeNull();
    expect(slashQuery("hello /x")).toBeNull();
    expect(slashQuery("")).toBeNull();
  });
});

describe("filterPrompts", () => {
  const all = [p("everything.args-prompt", "Arguments Prompt"), p("everything.simple-prompt", "Simple Prompt"), p("kit.brief", "Brief"), p("kit.review", "Review a brief")];
  it("lists all for an empty query, in the given order", () => {
    expect(filterPrompts(all, "").map((x) => x.name)).toEqual(all.map((x) => x.name));
  });
  it("ranks a name or local-name prefix first, then a title prefix, then any match; case folded", () => {
    expect(filterPrompts(all, "BR").map((x) => x.name)).toEqual(["kit.brief", "kit.review"]);
    expect(filterPrompts(all, "kit.").map((x) => x.name)).toEqual(["kit.brief", "kit.review"]);
    expect(filterPrompts(all, "simple").map((x) => x.name)).toEqual(["everything.simple-prompt"]);
    expect(filterPrompts(all, "prompt").map((x) => x.name)).toEqual(["everything.args-prompt", "everything.simple-prompt"]);
    expect(filterPrompts(all, "zzz")).toEqual([]);
  });
  it("shows at most MaxShown", () => {
    const many = Array.from({ length: 20 }, (_, i) => p(`ns.p${String(i).padStart(2, "0")}`));
    expect(filterPrompts(many, "p")).toHaveLength(MaxShown);
  });
});

describe("moveSelection", () => {
  it("wraps both ways and is -1 for an empty list", () => {
    expect(moveSelection(0, 1, 3)).toBe(1);
    expect(moveSelection(2, 1, 3)).toBe(0);
    expect(moveSelection(0, -1, 3)).toBe(2);
    expect(moveSelection(0, 1, 0)).toBe(-1);
  });
});

describe("arguments", () => {
  const brief = p("kit.brief", "", [
    { name: "topic", title: "", description: "", required: true },
    { name: "tone", title: "", description: "", required: false },
  ]);
  it("names the required ones left blank", () => {
    expect(missingRequired(brief, {})).toEqual(["topic"]);
    expect(missingRequired(brief, { topic: "  " })).toEqual(["topic"]);
    expect(missingRequired(brief, { topic: "tides" })).toEqual([]);
  });
  it("leaves blank ones out of what is sent", () => {
    expect(promptArgs({ topic: "tides", tone: " " })).toEqual({ topic: "tides" });
  });
});
