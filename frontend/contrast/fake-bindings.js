// A stand-in for the Wails bindings (window.go.app.Gate, whose Call takes
// "Service.Method") and runtime (window.runtime.*), injected by check.mjs
// into the built frontend so each screen renders with content in a plain
// browser. Fixtures only, by method name (each is one service's): nothing
// here talks to Go. window.__fake.emit(name, payload) fires a Go event.
(() => {
  const now = new Date().toISOString();
  const tools = [
    { name: "device.battery", description: "Battery level", provider: "device", risk: "read", classification: "read_only" },
    { name: "files.write", description: "Write a file", provider: "files", risk: "write", classification: "non_idempotent_write" },
  ];
  const coworker = {
    id: "helper", name: "Device Helper", description: "Answers questions about this computer.", version: "1.0.0", dir: "/home/u/OpenWorker Coworkers/helper",
    tools: [
      { name: "device.battery", provider: "device", placement: "on this computer" },
      { name: "web.fetch", provider: "web", placement: "api.example.com" },
    ],
    left_out: [{ tool: "bad name", message: "the model cannot take this tool's name" }],
  };
  // A coworker whose tools come from an installed extension (docs/app.md#coworkers).
  const keeper = {
    id: "keeper", name: "Memory Keeper", description: "Remembers people and projects.", version: "1.2.0", dir: "/home/u/OpenWorker Coworkers/keeper",
    tools: [
      { name: "memory.create_entities", provider: "mcp:memory", placement: "on this computer (sandboxed: reads system files, its own folder and its program's folder; writes only in the workspace and its temp folder; no network)", program_path: "/usr/bin/node", access: "sandboxed: reads system files, its own folder and its program's folder; writes only in the workspace and its temp folder; no network" },
      { name: "memory.read_graph", provider: "mcp:memory", placement: "on this computer (sandboxed: reads system files, its own folder and its program's folder; writes only in the workspace and its temp folder; no network)", program_path: "/usr/bin/node", access: "sandboxed: reads system files, its own folder and its program's folder; writes only in the workspace and its temp folder; no network" },
    ],
    left_out: [],
    extensions: [{ name: "memory", display_name: "Knowledge Graph Memory", version: "0.6.3", namespace: "memory" }],
  };
  const session = {
    id: "s1", coworker: "helper", coworker_version: "1.0.0", identity: "sha256:abc", provider: "openai", model: "scripted",
    approve: "ask", status: "open", error: "", created_at: now, updated_at: now, first_prompt: "What is my battery level?", unreconciled: 1,
  };
  const invocations = [
    { id: "i1", session_id: "s1", turn_id: "t1", call_id: "c1", tool: "device.battery", alias: "device__battery", provider: "device", placement: "on this computer",
      risk: "read", arguments: {}, status: "succeeded", result: { text: "82%" }, effect: "none", reconciled: "", duration_ms: 12, created_at: now },
    { id: "i2", session_id: "s1", turn_id: "t1", call_id: "c2", tool: "files.write", alias: "files__write", provider: "files", risk: "write",
      arguments: { path: "/tmp/x" }, status: "unknown", error: "the app stopped during the call", effect: "unknown", reconciled: "", duration_ms: 0, created_at: now },
  ];
  const pending = {
    id: "p1", deadline: new Date(Date.now() + 300000).toISOString(),
    request: { session_id: "s-chat", turn_id: "t9", call_id: "c9", coworker: "helper", coworker_name: "Device Helper", tool: "files.write",
      description: "Write a file", provider: "files", placement: "on this computer (sandboxed: reads system files, its own folder and its program's folder; writes only in the workspace and its temp folder; no network)", access: "sandboxed: reads system files, its own folder and its program's folder; writes only in the workspace and its temp folder; no network", classification: "non_idempotent_write", risk: "write",
      arguments: { path: "/home/u/invoice_\u202egpj.exe\u202c", text: "hello zero\u200bwidth" } },
  };
  const params = new URLSearchParams(location.search);
  const consent = params.get("consent") === "1";
  // A server's question (docs/app.md#questions): ?elicit=form or ?elicit=url.
  const question = {
    id: "eli_1", namespace: "signup", server_name: "Signup Server", session_id: "s-chat", turn_id: "t9", invocation: "i9", call_id: "c9",
    tool: "signup.register", mode: "form", message: "Create your account. We need a few details.", deadline: new Date(Date.now() + 70000).toISOString(), seq: 1,
    problem: "email: 'ada@' is not valid email",
    fields: [
      { name: "name", title: "Your name", kind: "string", required: true, min_length: 2 },
      { name: "email", kind: "string", format: "email", required: true, description: "We send the confirmation here." },
      { name: "age", kind: "integer", minimum: 0, maximum: 150, default: 30 },
      { name: "plan", kind: "enum", options: [{ value: "free", title: "Free" }, { value: "pro", title: "Pro" }], default: "free" },
      { name: "news", title: "Send me news", kind: "boolean" },
      { name: "topics", kind: "multi", options: [{ value: "a", title: "Releases" }, { value: "b", title: "Security" }], max_items: 2 },
    ],
  };
  const urlQuestion = { ...question, mode: "url", fields: [], problem: "", message: "Sign in to Example to let the server read your calendar.",
    url: "https://xn--bcher-kva.example/oauth/authorize?client_id=openworker&state=abc123", host: "xn--bcher-kva.example" };
  const elicit = params.get("elicit");
  const pendingQuestions = elicit === "form" ? [{ question, coworker: "helper", coworker_name: "Device Helper", asked: now }]
    : elicit === "url" ? [{ question: urlQuestion, coworker: "helper", coworker_name: "Device Helper", asked: now }] : [];
  const settings = { provider: "openai", openai: { base_url: "http://127.0.0.1:11434/v1", model: "llama3.2" }, anthropic: { base_url: "", model: "" },
    coworkers_dir: "", servers_path: "/home/u/.config/OpenWorker/servers.json", approval_mode: "ask", theme: params.get("theme") || "system" };
  const view = {
    settings, effective: { openai: { base_url: "http://127.0.0.1:11434/v1", model: "llama3.2" }, anthropic: { base_url: "https://api.anthropic.com", model: "claude-sonnet-4-5" } },
    key_stored: { openai: false, anthropic: true }, keychain_errors: {}, key_from_env: {}, model: "openai llama3.2 at http://127.0.0.1:11434/v1",
    model_error: "", model_warning: "Nothing answers at http://127.0.0.1:11434: start the model server or change the base URL.",
    settings_file: "/home/u/.config/OpenWorker/settings.json", servers_loaded: settings.servers_path, servers_error: "", servers_unreadable: false,
    servers_notices: ["servers.json:4: \"disabled\" is ignored"], server_inputs: [{ id: "token", description: "API token", password: true, answered: false }],
  };
  const fixtures = {
    Info: { version: "test", config_dir: "/home/u/.config/OpenWorker", journal_path: "/home/u/.config/OpenWorker/journal.db", log_file: "/home/u/.config/OpenWorker/openworker.log",
      coworkers_dir: "/home/u/OpenWorker Coworkers", model: "openai llama3.2", model_error: "", runtime_error: "", approval_mode: "ask",
      notices: [{ level: "warning", message: "1 tool call was interrupted when the app last stopped: reconcile it in Activity.", key: "" }],
      start_coworker: params.get("chat") === "1" ? "helper" : "", theme: settings.theme },
    Coworkers: { dir: "/home/u/OpenWorker Coworkers", coworkers: [coworker, keeper], error: "",
      broken: [{ id: "", name: "", dir: "/home/u/OpenWorker Coworkers/broken", file: "manifest.md", line: 3, col: 1, message: "id is missing", fix: "add an id: line" },
        { id: "notes", name: "Notes", dir: "/home/u/OpenWorker Coworkers/notes", file: "/home/u/OpenWorker Coworkers/notes/coworker/tools.json", line: 1, col: 11,
          message: 'coworker "notes" selects "memory.read_graph": mcp provider "memory": program "node" cannot be found',
          fix: 'extension "Knowledge Graph Memory" 0.6.3 (namespace memory) cannot run on this computer: this extension needs Node.js >=18.0.0, which was not found (install it from https://nodejs.org/); then restart OpenWorker' }] },
    OpenChat: { session_id: "s-chat", coworker: "helper", coworker_name: "Device Helper", identity: "sha256:abc", model: "openai llama3.2",
      approval_mode: params.get("bypass") === "1" ? "bypass" : "ask", running: false, tools },
    ChatGrants: [{ tool: "device.battery", digest: "sha256:0123" }],
    PendingApprovals: consent ? [pending] : [],
    PendingElicitations: pendingQuestions,
    NeedsAttention: { sessions: 1, calls: 1 },
    Sessions: [session],
    SessionPage: { sessions: [session, { ...session, id: "s2", status: "closed", first_prompt: "Summarise my notes", unreconciled: 0 }], next: "" },
    // The sidebar's chat list (docs/app.md#chats): each status colour and the attention dot.
    Chats: { sessions: [
      { ...session, title: "What is my battery level?", interrupted: true, last_activity: now },
      { ...session, id: "s2", status: "closed", title: "Weekly notes (renamed)", title_set: true, unreconciled: 0, last_activity: now },
      { ...session, id: "s3", status: "failed", title: "Summarise my notes", unreconciled: 0, created_at: "2026-01-05T10:00:00Z", last_activity: "2026-01-05T10:00:00Z" },
    ], next: "s3" },
    SearchChats: [],
    SessionDetail: { ...session, turns: [{ id: "t1", seq: 1, prompt: "What is my battery level?", status: "completed" }],
      messages: [{ id: 1, turn_id: "t1", role: "user", content: { role: "user", text: "What is my battery level?" } },
        { id: 2, turn_id: "t1", role: "assistant", content: { role: "assistant", text: "It is at 82%." } }],
      invocations, approvals: [{ invocation_id: "i1", call_id: "c1", tool: "device.battery", decision: "allow", source: "prompt", reason: "" }], warnings: [] },
    Policies: [{ coworker: "helper", tool: "device.battery", descriptor_digest: "sha256:0123456789abcdef", policy: "allow", created_at: now, updated_at: now },
      { coworker: "helper", tool: "files.write", descriptor_digest: "sha256:89abcdef01234567", policy: "deny", created_at: now, updated_at: now }],
    // Settings → Limits and Background (docs/app.md#limits, #running-in-the-background).
    DefaultLimits: { tokens_per_run: 50000, tokens_per_day: 0, tool_calls_per_run: 0 },
    GetBackground: { keep_running: true, start_at_login: false, question_wait_seconds: 60, autostart_entry: "/home/u/.config/autostart/openworker.desktop" },
    // The first-run setup's model step (docs/app.md#first-run).
    FindOllama: { running: true, url: "http://127.0.0.1:11434", base_url: "http://127.0.0.1:11434/v1", models: ["llama3.2", "qwen2.5"], error: "" },
    // The Diagnostics screen (docs/app.md#diagnostics): one server that may download, one unused.
    DiagnosticsPlan: { servers: [{ namespace: "device", coworkers: ["Device Helper"], may_download: "" },
      { namespace: "fetcher", coworkers: ["Device Helper"], may_download: "npx may still be downloading the package" }], unused: ["old-notes"] },
    RunDiagnostics: { took_ms: 1840, text: "[openworker]\nversion: 1.2.3\n", sections: [
      { name: "openworker", facts: [{ key: "version", value: "1.2.3" }, { key: "os", value: "linux/amd64" }] },
      { name: "providers", facts: [{ key: "device", status: "ok", value: "started: 12 tools (0.4 s)" },
        { key: "fetcher", status: "failed", value: "did not start within 30 s: npx could not reach the registry; check the network" }] },
      { name: "model", facts: [{ key: "reachable", status: "ok", value: "yes (120 ms)" }] }] },
    // Add coworker…: the picked folder and its preview, one load error and a taken name.
    ChooseCoworkerBundle: "/home/u/Downloads/notes-keeper",
    PreviewCoworker: { source: "/home/u/Downloads/notes-keeper", id: "notes-keeper", name: "Notes Keeper", description: "Keeps notes.", version: "0.3.0",
      tools: ["device.system_info_get", "notes.*"], dest: "/home/u/OpenWorker Coworkers/notes-keeper", exists: true, refused: "", can_link: true,
      errors: [{ id: "notes-keeper", name: "Notes Keeper", dir: "/home/u/Downloads/notes-keeper", file: "tools.json", line: 2, col: 5, message: "\"tool\" is not a key of tools.json", fix: "rename it to \"tools\"" }] },
    // Settings → Extensions and the install dialog (docs/app.md#opening-an-extension).
    Extensions: [
      { name: "memory", display_name: "Memory", version: "1.0.0", namespace: "memory", signature: "self-signed", signer: "CN=MCPB Self-Signed Certificate",
        installed_at: now, sensitive: ["api_token"], sandboxed: true, access: "sandboxed: reads system files, its own folder and its program's folder; writes only in the workspace and its temp folder; no network", sandbox_unsupported: "", error: "" },
      { name: "broken", display_name: "", version: "", namespace: "", signature: "", signer: "", installed_at: "", sensitive: [],
        sandboxed: false, access: "", sandbox_unsupported: "", error: "/home/u/.config/OpenWorker/extensions/broken/installed.json: unexpected end of JSON input; remove the extension and install it again" },
    ],
    ChooseExtensionFile: "/home/u/Downloads/weather.mcpb",
    PreviewExtension: { path: "/home/u/Downloads/weather.mcpb", display_name: "Weather", name: "weather", version: "2.1.0",
      author: { name: "Acme Tools", email: "dev@acme.example", url: "https://acme.example" }, description: "Forecasts and alerts for a place.", homepage: "",
      tools: [{ name: "forecast", description: "The forecast for a place" }, { name: "alerts", description: "Weather alerts" }], tools_generated: true,
      prompts: [{ name: "week", description: "The week ahead" }], prompts_generated: false, server_type: "python", runs: "python ${__dirname}/server/main.py --days 7", environment: "CALENDAR_TOKEN=${user_config.token}",
      runtime: { name: "python", title: "Python", range: ">=3.10", url: "https://www.python.org/downloads/", found: "" }, platforms: ["darwin", "win32", "linux"],
      signature: { status: "invalid", subject: "", problem: "the archive was changed after it was signed" }, privacy_policies: ["https://acme.example/privacy"],
      namespace: "weather", installed: "", blocking: ["its signature does not verify (the archive was changed after it was signed): get the file again from its author"],
      warnings: ["it needs Python >=3.10, which was not found; install it from https://www.python.org/downloads/"], files: 12, bytes: 48213,
      fields: [
        { key: "api_key", type: "string", title: "API key", description: "Your Acme key.", required: true, default: null, multiple: false, sensitive: true, min: null, max: null, kept: false },
        { key: "cache", type: "directory", title: "Cache folder", description: "", required: false, default: "/home/u/.cache/weather", multiple: false, sensitive: false, min: null, max: null, kept: false },
        { key: "days", type: "number", title: "Days", description: "How many days ahead.", required: false, default: 3, multiple: false, sensitive: false, min: 1, max: 14, kept: false },
        { key: "metric", type: "boolean", title: "Metric units", description: "", required: false, default: true, multiple: false, sensitive: false, min: null, max: null, kept: false },
        { key: "places", type: "file", title: "Place lists", description: "", required: false, default: null, multiple: true, sensitive: false, min: null, max: null, kept: false },
      ],
      sandbox: { words: "reads system files and its own folder, writes only in the workspace, its temp folder and the folders of its settings, no network",
        note: "An extension that needs the network or other folders will fail inside it; turn the sandbox off for it in Settings → Extensions.", on: true, unsupported: "" },
      digest: "00" },
    // An app view (docs/mcp-apps.md): declared origins, a permission asked
    // for, and a page that tries a pop-up (the card lists the refusal).
    ToolView: { session_id: "s-chat", invocation_id: "i3", tool: "apps.counter_show", uri: "ui://counter/view.html", digest: "sha256:00", size: 180,
      html: '<body style="font:14px sans-serif;margin:8px"><p>Count: <b>3</b></p><button>Bump</button><script>window.open("https://example.com/pop-up")</script></body>',
      csp: { connect: ["https://api.example.com"], resource: ["https://cdn.example.com"], frame: [], base_uri: [] }, permissions: ["camera"], prefers_border: true },
    GetSettings: view, SaveSettings: view, SaveSection: view,
    // The coworker editor (docs/app.md#coworker-editor): a linked coworker
    // with a problem marked, tools of each kind of provider, a skill.
    EditCoworker: { dir: "/home/u/OpenWorker Coworkers/helper", new: false, linked_to: "/home/u/dev/helper", template: "",
      draft: { id: "helper", name: "Device Helper", description: "Answers questions about this computer.", version: "1.0.0",
        instructions: "You answer questions about **this computer**.\n\n- Use `device__system_info_get`.", tools: ["device.system_info_get", "kit.wipe", "gone.tool"],
        wholeProviders: [], policy: { "kit.wipe": "deny" }, skills: null, sampling: [], model: "", folder: "/home/u/Documents", requiresSandbox: false },
      problems: [{ field: "version", file: "/home/u/OpenWorker Coworkers/helper/coworker/manifest.md", line: 5, col: 10, message: "version must not be empty", fix: "set version: 1.0.0" }],
      skills: [{ name: "tone", description: "How to sound." }] },
    ToolCatalog: [
      { namespace: "device", provider: "mcp:device", kind: "builtin", title: "device", source: "", error: "", tools: [
        { name: "device.battery_status_get", description: "Battery charge and state.", effect: "read_only" },
        { name: "device.system_info_get", description: "OS, CPU, memory and uptime.", effect: "read_only" }] },
      { namespace: "kit", provider: "mcp:kit", kind: "server", title: "kit", source: "servers.json:3", error: "", tools: [
        { name: "kit.note_add", description: "Adds a note.", effect: "changes_data" },
        { name: "kit.wipe", title: "Wipe everything", description: "Deletes every note.", effect: "destructive" },
        { name: "kit.echo", description: "Echoes a text.", effect: "unknown" }] },
      { namespace: "memory", provider: "mcp:memory", kind: "extension", title: "Memory 0.6.3", source: "", tools: [],
        error: "mcp provider \"memory\" did not start: node was not found" }],
    Templates: [
      { id: "files-assistant", name: "Files Assistant", description: "Finds, reads and edits the files in one folder.", tools: ["files.files_list", "files.file_read"], needs_folder: true },
      { id: "notes-keeper", name: "Notes Keeper", description: "Keeps notes as Markdown files.", tools: ["files.file_write"], needs_folder: true }],
    ServersInUse: [{ namespace: "kit", name: "", source: "servers.json:3", remote: "", broken: "" },
      { namespace: "typo", name: "", source: "servers.json:9", remote: "", broken: "servers.json:9:5: unknown field \"comand\"" }],
    // The Inbox and Schedules (docs/app.md#inbox, docs/app.md#schedules).
    Items: [
      { id: "inb_1", kind: "approval", coworker: "helper", session_id: "s2", tool: "notes.append", what: 'May it run notes.append {"text":"Buy \u202eklim\u202c"}?',
        created_at: now, deadline: "", parked: true, answers: ["allow_once", "allow_session", "deny"] },
      { id: "inb_2", kind: "question", coworker: "helper", session_id: "s-chat", tool: "ask.signup", what: "ask asks: Which plan?",
        created_at: now, deadline: now, parked: false, answers: ["show"] },
      { id: "inb_3", kind: "budget", coworker: "keeper", session_id: "s3", tool: "", what: "It reached a limit: continue or stop? {\"tokens_per_run\":2000}",
        created_at: "2026-01-05T10:00:00Z", deadline: "", parked: false, answers: ["continue", "stop"] }],
    Count: 3,
    List: [
      { id: "sch_1", coworker: "helper", prompt: "Check the battery", every: 0, cron: "0 9 * * 1-5", time_zone: "Europe/Berlin", catch_up: true, created_at: now,
        when: "0 9 * * 1-5 (Europe/Berlin)", last_run: { id: 1, schedule_id: "sch_1", slot: now, missed: 3, session_id: "s2", status: "caught up (missed 3)", claimed_at: now } },
      { id: "sch_2", coworker: "keeper", prompt: "Summarise my notes", every: 7200000000000, cron: "", catch_up: false, created_at: now, when: "every 2h0m0s", last_run: null }],
    ListModels: { provider: "openai", base_url: "http://127.0.0.1:11434/v1", api: "ollama", models: ["llama3.2:latest", "qwen2.5:7b"] },
    TestConnection: { ok: true, provider: "openai", base_url: "http://127.0.0.1:11434/v1", model: "llama3.2", latency_ms: 4, via: "models",
      listed: true, models: ["llama3.2:latest", "qwen2.5:7b"], error: "", reason: "", status: 0, advice: "" },
  };
  const listeners = {};
  window.__fake = {
    emit(name, payload) { (listeners[name] || []).forEach((cb) => cb(payload)); },
    calls: [],
  };
  const answer = (name, args) => {
    window.__fake.calls.push([name, args]);
    // The view's document goes to check.mjs's server, as the app's asset server takes it (app/viewpages.go).
    if (name === "ServeViewPage") return fetch("/__view", { method: "POST", body: args[0] }).then((r) => r.text());
    return Promise.resolve(name in fixtures ? structuredClone(fixtures[name]) : null);
  };
  // The page calls the services through the Gate (app/gate.go, lib/gate.ts).
  const Gate = {
    Handshake: () => Promise.resolve("fake-token"),
    Call: (_token, method, args) => {
      const [, name] = method.split(".");
      if (!name) return Promise.reject(new Error(`the app has no method "${method}": a call names Service.Method`));
      return answer(name, args);
    },
  };
  window.go = { app: { Gate } };
  window.runtime = new Proxy({}, {
    get: (_, name) => {
      if (name === "EventsOnMultiple") return (n, cb) => { (listeners[n] ||= []).push(cb); return () => {}; };
      return () => undefined;
    },
  });
})();
