import { afterEach, describe, expect, it } from "vitest";
import { flushSync, mount, unmount } from "svelte";
import ImportPreview from "./ImportPreview.svelte";
import { reactiveProps } from "./testprops.svelte";
import type { ImportItem, ImportPlan } from "../lib/types";

const mounted: ReturnType<typeof mount>[] = [];
afterEach(() => mounted.splice(0).forEach((c) => unmount(c)));

function render(plan: ImportPlan, current = ""): HTMLElement {
  const target = document.createElement("div");
  mounted.push(mount(ImportPreview, { target, props: { plan, current } }));
  flushSync();
  return target;
}

const from = "/home/ann/.config/Claude/claude_desktop_config.json";
const item = (it: Partial<ImportItem>): ImportItem => ({
  name: "", line: 1, namespace: "", transport: "stdio", target: "", env_keys: null, placement: "on this computer",
  disabled: false, inputs: null, action: "add", why: "", notices: null, ...it,
});

// A plan as app.PreviewImport returns it for a Claude Desktop file.
const plan: ImportPlan = {
  from, format: "claude-desktop", dest: "/home/ann/.config/OpenWorker/servers.json", kept: 0, digest: "sha256:00",
  notices: [from + `:2: top-level key "globalShortcut" is ignored: it is not about MCP servers OpenWorker reads (Claude Desktop format)`],
  items: [
    item({ name: "awslabs.core-mcp-server", line: 4, namespace: "awslabs_core-mcp-server", target: "uvx awslabs.core-mcp-server@latest",
      env_keys: ["DB_PASSWORD"], notices: [from + `:4: server "awslabs.core-mcp-server" gets the namespace "awslabs_core-mcp-server"`,
        from + `:4: "autoApprove" of server "awslabs.core-mcp-server" is ignored: approvals are asked in OpenWorker`] }),
    item({ name: "remote <b>x</b>", line: 5, namespace: "remote_b_x_b", transport: "streamable_http", target: "https://mcp.example.com/mcp",
      placement: "mcp.example.com", env_keys: ["Authorization"], inputs: ["api-token"] }),
    item({ name: "off", line: 6, namespace: "off", target: "srv", disabled: true }),
    item({ name: "filesystem", line: 7, namespace: "filesystem", action: "same", target: "npx -y @modelcontextprotocol/server-filesystem" }),
    item({ name: "no-command", line: 8, namespace: "no-command", transport: "", placement: "", action: "skip",
      why: from + `:8:5: server "no-command" has neither "command" nor "url"; add "command"` }),
  ],
};

describe("ImportPreview", () => {
  it("shows each entry: action, name, namespace, transport, where it runs, command or URL", () => {
    const el = render(plan);
    const rows = Array.from(el.querySelectorAll("tr.item")).map((r) => Array.from(r.querySelectorAll("td")).map((td) => td.textContent?.trim()));
    expect(rows).toEqual([
      ["add", "awslabs.core-mcp-server", "awslabs_core-mcp-server", "stdio", "this computer", "uvx awslabs.core-mcp-server@latest"],
      ["add", "remote <b>x</b>", "remote_b_x_b", "HTTP", "mcp.example.com", "https://mcp.example.com/mcp"],
      ["add, off", "off", "off", "stdio", "this computer", "srv"],
      ["already there", "filesystem", "filesystem", "stdio", "this computer", "npx -y @modelcontextprotocol/server-filesystem"],
      ["skip", "no-command", "no-command", "—", "—", "—"],
    ]);
    expect(el.querySelector("tr.item .runs.remote")?.textContent).toBe("mcp.example.com");
    // Names from the file are text, never HTML.
    expect(el.querySelector("td b")).toBeNull();
  });

  it("says why an entry is skipped, what is ignored, what is asked later, and which values are set, by line", () => {
    const el = render(plan);
    const text = el.textContent ?? "";
    expect(el.querySelector(".why")?.textContent).toBe(`Skipped: line 8:5: server "no-command" has neither "command" nor "url"; add "command"`);
    expect(text).toContain(`line 4: "autoApprove" of server "awslabs.core-mcp-server" is ignored: approvals are asked in OpenWorker`);
    expect(text).toContain(`line 2: top-level key "globalShortcut" is ignored`);
    expect(el.querySelector(".inputs")?.textContent).toContain("Asks for api-token: answer it in Settings after the import");
    expect(text).toContain("Sets DB_PASSWORD (values not shown).");
    expect(text).toContain("environment variables and inputs stay references");
    expect(text).toContain("servers.json.bak");
  });

  it("says where the servers go and which file Settings use afterwards", () => {
    let el = render(plan, "/home/ann/claude_desktop_config.json");
    expect(el.textContent).toContain("Settings will use this servers file from now on, instead of /home/ann/claude_desktop_config.json.");
    el = render({ ...plan, kept: 2 }, plan.dest);
    expect(el.textContent).not.toContain("from now on");
    expect(el.textContent).toContain("The 2 servers already in it stay as they are.");
    el = render({ ...plan, items: plan.items!.filter((it) => it.action !== "add") }, plan.dest);
    expect(el.textContent).toContain("Nothing to add");
  });
});

describe("ImportPreview secrets", () => {
  const withSecrets: ImportPlan = {
    ...plan,
    items: [item({ name: "github", namespace: "github", env_keys: ["GITHUB_TOKEN"], secrets: [{ namespace: "github", field: "env.GITHUB_TOKEN", input: "github-GITHUB_TOKEN" }] })],
  };

  it("ticks each literal secret to move to the keychain, and unticking keeps it as written", () => {
    const target = document.createElement("div");
    const state = reactiveProps({ keep: {} as Record<string, boolean> });
    const props = { plan: withSecrets, current: "", get keep() { return state.keep; }, set keep(v) { state.keep = v; } };
    mounted.push(mount(ImportPreview, { target, props }));
    flushSync();
    const box = target.querySelector<HTMLInputElement>("li.secret input[type=checkbox]")!;
    expect(box.checked).toBe(true);
    expect(target.querySelector("li.secret")?.textContent).toContain("GITHUB_TOKEN (environment) moves to the keychain");
    expect(target.querySelector("li.secret")?.textContent).toContain("${input:github-GITHUB_TOKEN}");
    box.checked = false;
    box.dispatchEvent(new Event("change", { bubbles: true }));
    flushSync();
    expect(state.keep).toEqual({ "github-GITHUB_TOKEN": true });
    expect(target.querySelector("li.secret .warning-text")?.textContent).toContain("Kept in servers.json as written");
  });

  it("says when there is no keychain", () => {
    const el = render({ ...withSecrets, no_keychain: "there is no OS keychain on this computer (no Secret Service)" });
    expect(el.querySelector(".no-keychain")?.textContent).toContain("The secrets cannot move: there is no OS keychain");
  });
});
