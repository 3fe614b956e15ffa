import { describe, expect, it } from "vitest";
import {
  changed, effectLabel, emptyDraft, generalProblems, giveName, listWhole, missingTools, normalize, policyOf, problemsOf, problemText,
  providerHeading, providerState, selected, setPolicy, setTool, setTools, toolsOfProviders, usedByText, usersOf,
} from "./editor";
import type { CoworkerList } from "./types";
import type { Draft, ToolProvider } from "./types_editor";

const draft = (d: Partial<Draft> = {}): Draft => ({ ...emptyDraft(), id: "notes", name: "Notes", ...d });
const kit: ToolProvider = {
  namespace: "kit", provider: "mcp:kit", kind: "server", title: "Kit", source: "servers.json", error: "",
  tools: [
    { name: "kit.echo", description: "Echo", effect: "read_only" },
    { name: "kit.wipe", description: "Wipe", effect: "destructive" },
    { name: "kit.xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", description: "long", effect: "unknown", refused: "too long" },
  ],
};
const files: ToolProvider = { namespace: "files", provider: "mcp:files", kind: "builtin", title: "files", source: "", error: "",
  tools: [{ name: "files.read", description: "Read", effect: "read_only" }] };

describe("policies", () => {
  it("is ask without an entry, the * entry's without its own, its own otherwise", () => {
    expect(policyOf(draft(), "kit.echo")).toBe("ask");
    expect(policyOf(draft({ policy: { "*": "allow" } }), "kit.echo")).toBe("allow");
    expect(policyOf(draft({ policy: { "*": "allow", "kit.echo": "deny" } }), "kit.echo")).toBe("deny");
  });
  it("writes an entry only when it differs from what the tool has without one", () => {
    let d = setPolicy(draft(), "kit.echo", "allow");
    expect(d.policy).toEqual({ "kit.echo": "allow" });
    d = setPolicy(d, "kit.echo", "ask");
    expect(d.policy).toEqual({});
    d = setPolicy(draft({ policy: { "*": "deny" } }), "kit.echo", "ask");
    expect(d.policy).toEqual({ "*": "deny", "kit.echo": "ask" });
    expect(setPolicy(d, "kit.echo", "deny").policy).toEqual({ "*": "deny" });
  });
});

describe("selecting tools", () => {
  it("adds and removes, dropping the policy and a sampling entry no tool needs any more", () => {
    let d = setTool(draft(), "kit.echo", true);
    d = setTool(d, "files.read", true);
    d = { ...setPolicy(d, "kit.echo", "allow"), sampling: ["kit"] };
    expect(d.tools).toEqual(["kit.echo", "files.read"]);
    d = setTool(d, "kit.echo", false);
    expect(d.tools).toEqual(["files.read"]);
    expect(d.policy).toEqual({});
    expect(d.sampling).toEqual([]);
  });
  it("selects a whole provider's selectable tools, and reports all, some or none", () => {
    expect(providerState(draft(), kit)).toBe("none");
    let d = setTools(draft(), toolsOfProviders([kit, files], ["kit"]), true);
    expect(d.tools).toEqual(["kit.echo", "kit.wipe"]);
    expect(providerState(d, kit)).toBe("all");
    d = setTool(d, "kit.wipe", false);
    expect(providerState(d, kit)).toBe("some");
  });
  it("counts a whole provider as selecting each of its tools, and lists it into names", () => {
    const d = draft({ wholeProviders: ["kit", "gone"] });
    expect(selected(d, "kit.wipe")).toBe(true);
    const listed = listWhole(d, [kit]);
    expect(listed.tools).toEqual(["kit.echo", "kit.wipe"]);
    expect(listed.wholeProviders).toEqual(["gone"]);
  });
  it("names the selected tools the catalog does not offer", () => {
    expect(missingTools(draft({ tools: ["kit.echo", "old.tool"] }), [kit, files])).toEqual(["old.tool"]);
  });
});

describe("words", () => {
  it("says each effect", () => {
    expect(effectLabel("read_only").text).toBe("reads only");
    expect(effectLabel("changes_data").text).toBe("changes data");
    expect(effectLabel("destructive").text).toBe("can delete data");
    expect(effectLabel("unknown").text).toBe("no hints");
  });
  it("heads each kind of provider", () => {
    expect(providerHeading(files)).toBe("files (built in)");
    expect(providerHeading(kit)).toBe("Kit (kit) (MCP server from servers.json)");
    expect(providerHeading({ ...kit, kind: "extension", title: "Echo 1.0.0", namespace: "echo" })).toBe("Echo 1.0.0 (extension echo)");
    expect(providerHeading({ ...kit, kind: "agent", title: "travel", namespace: "travel" })).toBe("travel (A2A agent)");
  });
  it("prints a problem as check does, and sorts problems by field", () => {
    const probs = [
      { field: "name", file: "/c/notes/coworker/manifest.md", line: 3, col: 7, message: "name is empty", fix: "give it a name" },
      { field: "", file: "/c/notes/coworker/tools.json", line: 0, col: 0, message: "tools.json is missing", fix: "" },
    ];
    expect(problemText(probs[0])).toBe("coworker/manifest.md:3:7: name is empty; give it a name");
    expect(problemText(probs[1])).toBe("coworker/tools.json: tools.json is missing");
    expect(problemsOf(probs, "name")).toHaveLength(1);
    expect(generalProblems(probs)).toEqual([probs[1]]);
  });
  it("names a new coworker after its provider", () => {
    expect(giveName("echo")).toBe("Echo");
    expect(giveName("  ")).toBe("New coworker");
  });
});

describe("who uses a provider", () => {
  const list: CoworkerList = { dir: "/c", error: "", broken: [], coworkers: [
    { id: "a", name: "Ann", description: "", version: "", dir: "/c/a", tools: [{ name: "kit.echo", provider: "mcp:kit", placement: "" }], left_out: [], extensions: [] },
    { id: "b", name: "", description: "", version: "", dir: "/c/b", tools: [{ name: "kit.wipe", provider: "mcp:kit", placement: "" }, { name: "notification.show", provider: "native", placement: "" }], left_out: [], extensions: [] },
    { id: "c", name: "Cy", description: "", version: "", dir: "/c/c", tools: [], left_out: [], extensions: [] },
  ] } as CoworkerList;
  it("lists the coworkers whose tools come from it", () => {
    expect(usersOf(list, "kit")).toEqual([{ id: "a", name: "Ann" }, { id: "b", name: "b" }]);
    expect(usersOf(list, "notification")).toEqual([{ id: "b", name: "b" }]);
    expect(usedByText(usersOf(list, "kit"))).toBe("Used by Ann and b.");
    expect(usedByText([])).toBe("No coworker uses it yet.");
  });
});

describe("changes", () => {
  it("sees a change of any field, not of null against empty lists", () => {
    const a = draft({ tools: null, policy: null, sampling: null });
    expect(changed(a, normalize(a))).toBe(false);
    expect(changed(a, { ...a, instructions: "x" })).toBe(true);
  });
});
