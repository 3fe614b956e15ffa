// Shapes of the values the Go side sends (JSON field names as in Go tags).
// Written by hand (unions, nested shapes, plain objects in tests) rather than
// the generated classes; types.check.ts fails svelte-check when one of them
// names a field that the generated models (the Go structs) lack. Event
// payloads (HarnessEvent, ApprovalClosed) are not bound methods' types, so
// the generator does not see them.
import type { HarnessEventName } from "./events";
import type { UIResourceRef } from "./types_view";

export interface Notice {
  level: "info" | "warning" | "error";
  message: string;
  /** A keyed notice replaces the one shown with its key; with no message it removes it (Go: app.NoticeKeyServers). */
  key?: string;
}

/** The window's colours: follow the OS, or always light or dark (docs/app.md#theme). */
export type Theme = "system" | "light" | "dark";

export interface AppInfo {
  version: string;
  config_dir: string;
  journal_path: string;
  log_file: string;
  coworkers_dir: string;
  model: string;
  model_error: string;
  runtime_error: string;
  approval_mode: string;
  notices: Notice[] | null;
  start_coworker: string;
  /** The saved theme (docs/app.md#theme); absent from older fixtures. */
  theme?: Theme;
  /** Show the first-run setup (docs/app.md#first-run); absent from older fixtures. */
  first_run?: boolean;
  /** Why the OS keychain cannot keep an API key here (only on a first start); absent when it can. */
  keychain_error?: string;
}

/** What the first-run setup found of a local Ollama (Go: app.OllamaFound, docs/app.md#first-run). */
export interface OllamaFound {
  /** Something answered at url; false when nothing listens (Ollama is not running). */
  running: boolean;
  /** Where Ollama was asked, without /v1. */
  url: string;
  /** The OpenAI-compatible base URL chats use (url + "/v1"). */
  base_url: string;
  models: string[] | null;
  /** Why no list came back, and what to do; "" when it did. */
  error: string;
}

/** Where a call goes (docs/consent.md#placement): PLACEMENT_LOCAL or a remote host name. */
export const PLACEMENT_LOCAL = "on this computer";

export interface ResolvedToolInfo {
  name: string;
  provider: string;
  placement: string;
  /** The program its stdio provider runs, as resolved (docs/mcp.md#finding-the-program); absent otherwise. */
  program_path?: string;
  /** "runs with your full access" or "sandboxed: …" (docs/sandbox.md#in-words); absent for a remote provider. */
  access?: string;
}

/** A whole provider's tool left out because the model cannot take its name. */
export interface LeftOutInfo {
  tool: string;
  message: string;
}

export interface CoworkerInfo {
  id: string;
  name: string;
  description: string;
  version: string;
  dir: string;
  tools: ResolvedToolInfo[] | null;
  left_out: LeftOutInfo[] | null;
  /** The installed extensions its tools come from (docs/app.md#coworkers); absent from older fixtures. */
  extensions?: ExtensionUse[] | null;
  /** Its providers are still starting: tools are not listed yet, the resolved list follows (docs/app.md#starting). */
  starting?: boolean;
  /** The longest start bound of its MCP providers, in seconds (0: none). */
  start_bound?: number;
}

/** An installed .mcpb extension a coworker's tools come from (Go: app.ExtensionUse). */
export interface ExtensionUse {
  name: string;
  display_name: string;
  version: string;
  namespace: string;
}

/** A bundle that did not load (id empty) or did not resolve (id and name set). */
export interface BrokenBundle {
  id: string;
  name: string;
  dir: string;
  file: string;
  line: number;
  col: number;
  message: string;
  fix: string;
  /** The MCP provider that did not start or list its tools ("" for other failures). */
  provider?: string;
}

export interface CoworkerList {
  dir: string;
  coworkers: CoworkerInfo[] | null;
  broken: BrokenBundle[] | null;
  error: string;
  /** Set when the folder (given or picked) is a coworker itself (Go's FolderHint). */
  hint?: FolderHint | null;
}

/** A folder picked as the coworkers folder that is a coworker itself (app/folderhint.go). */
export interface FolderHint {
  kind: "bundle" | "coworker_subfolder";
  picked: string;
  bundle: string;
  parent: string;
  message: string;
}

/** What a bundle folder holds before it is added (app/addcoworker.go). */
export interface CoworkerPreview {
  source: string;
  id: string;
  name: string;
  description: string;
  version: string;
  tools: string[] | null;
  errors: BrokenBundle[] | null;
  dest: string;
  exists: boolean;
  refused: string;
  can_link: boolean;
  /** With refused: the bundle whose coworker/ folder was given, to preview instead ("Use the parent folder"). */
  use_instead?: string;
}

/** The payload of AppEvent.ExtensionOpened (Go's ExtensionOpened): a .mcpb or
 * .dxt file opened from the command line, a second start or macOS; error says
 * what is wrong with it and how to fix it (docs/app.md#opening-an-extension). */
export interface ExtensionOpened {
  path: string;
  name: string;
  size: number; // bytes, 0 with an error
  error?: string;
}

/** The payload of AppEvent.BundleDropped. */
export interface BundleDropped {
  paths: string[] | null;
}

export interface ToolInfo {
  name: string;
  description: string;
  provider: string;
  risk: string;
  classification: string;
  /** The coworker's own answer for it (its manifest's policy): "ask", "allow" (runs without asking) or "deny". */
  policy?: string;
}

export interface ChatInfo {
  session_id: string;
  coworker: string;
  coworker_name: string;
  identity: string;
  model: string; // what the next turn uses: opened with, or chosen by the picker (docs/app.md#model-in-a-chat)
  /** The model name alone (the chat's model picker's value). */
  model_name: string;
  approval_mode: string;
  running: boolean;
  /** It runs on its own: approvals park in the Inbox (docs/app.md#run-on-its-own). */
  unattended: boolean;
  tools: ToolInfo[] | null;
}

/** The chat's model picker's list (Go: app.ChatModelList, docs/app.md#model-in-a-chat). */
export interface ChatModelList {
  current: string;
  models: string[] | null;
  /** Why the server's list could not be read; models then holds current alone. */
  error?: string;
}

/** One argument of a ChatPrompt; values are strings. */
export interface PromptArg {
  name: string;
  title: string;
  description: string;
  required: boolean;
}

/** An MCP prompt the composer offers as a "/" command (docs/app.md#prompts). */
export interface ChatPrompt {
  name: string; // namespace.prompt
  title: string;
  description: string;
  arguments: PromptArg[] | null;
}

export interface HarnessEvent {
  type: HarnessEventName;
  session_id: string;
  turn_id?: string;
  call_id?: string;
  invocation_id?: string;
  tool?: string;
  alias?: string;
  text?: string;
  arguments?: unknown;
  data?: unknown;
  status?: string;
  error?: string;
  code?: string; // machine-readable reason of an error, warning or failed turn
  /** approval.decided: who decided ("policy:user" for a saved "always allow", "prompt", "grant", "bypass", ...). */
  source?: string;
  duration_ms?: number;
  attempt?: number;
  /** tool.finished of a succeeded call: its structured value (docs/mcp.md#results). */
  structured?: unknown;
  /** tool.finished of a succeeded call: its blocks, in the provider's order. */
  content?: ResultBlock[];
  /** tool.finished: the images of the image blocks, in order (app.ChatEvent). */
  image_urls?: ImageURL[];
  /** tool.finished of a call whose tool has an app view (docs/mcp-apps.md). */
  ui_resource?: UIResourceRef;
  /** Set on the events of a call asked by an app view: "view:<invocation id>" (docs/mcp-apps.md). */
  origin?: string;
}

/** One content block of a tool result (Go: tool.Block; docs/mcp.md#results). */
export interface ResultBlock {
  type: "text" | "image" | "audio" | "resource_link" | "resource" | string;
  text?: string;
  uri?: string;
  name?: string;
  title?: string;
  description?: string;
  mime_type?: string;
  /** Decoded size of an image, audio clip or binary resource; declared size of a link. */
  bytes?: number;
}

/** An image of a tool result as a data: URL (Go: app.ImageURL). */
export interface ImageURL {
  mime_type: string;
  url: string;
}

/** A journaled result (Invocation.result): what the model got, the blocks, image digests. */
export interface JournaledResult {
  structured?: unknown;
  text?: string;
  content?: ResultBlock[];
  images?: { mime_type: string; digest: string; bytes: number }[];
}

export interface TurnResult {
  turn_id: string;
  status: string;
  reason?: string;
  text: string;
  attempts: number;
  calls: number;
}

/** The five answers to a prompt (Go: consent.Decisions; docs/consent.md). */
export type Decision = "allow_once" | "allow_session" | "allow_always" | "deny" | "deny_always";

export interface ConsentRequest {
  session_id: string;
  turn_id: string;
  call_id: string;
  coworker: string;
  coworker_name: string;
  tool: string;
  description: string;
  provider: string;
  /** "on this computer" (a sandboxed provider's sandbox in words after it) or the remote host name. */
  placement: string;
  /** Local calls: "runs with your full access" or "sandboxed: …" (docs/sandbox.md#in-words); absent for remote ones. */
  access?: string;
  classification: string;
  risk: string;
  arguments: unknown;
  /** Set when an MCP server asks the session's model for a completion (docs/consent.md#sampling). */
  sampling?: SamplingRequest;
  /** Who asks, when not the model: "the app view of TOOL" (docs/mcp-apps.md). */
  origin?: string;
}

/** What a sampling prompt shows: the messages sent, the model that answers. */
export interface SamplingRequest {
  namespace: string;
  server_name?: string;
  messages: { role: string; text: string }[];
  system_prompt?: string;
  max_tokens: number;
  asked_max_tokens: number;
  model: string;
  invocation: string;
  seq: number;
}

export interface PendingApproval {
  id: string;
  request: ConsentRequest;
  deadline: string;
}

export interface ApprovalClosed {
  id: string;
  session_id: string;
  decision: Decision;
  reason: string;
}

export interface ProviderSettings {
  base_url: string;
  model: string;
}

/** A session's approval mode (Go: consent.Modes; docs/consent.md). */
export type ApprovalMode = "ask" | "bypass";

export interface Settings {
  provider: "openai" | "anthropic";
  openai: ProviderSettings;
  anthropic: ProviderSettings;
  coworkers_dir: string;
  servers_path: string;
  approval_mode: ApprovalMode;
  /** "" is "system"; only SetTheme changes it (docs/app.md#theme). */
  theme?: Theme | "";
  /** Only SetUpdateChecks changes it (docs/update.md). */
  updates_off?: boolean;
  /** The default limits; only SetDefaultLimits changes them (docs/limits.md#budgets). */
  limits?: import("./limits").Limits;
  /** The first-run setup was completed or skipped; only FinishSetup changes it (docs/app.md#first-run). */
  setup_done?: boolean;
  /** Only SetBackground changes these three (docs/app.md#running-in-the-background). */
  keep_running?: boolean;
  start_at_login?: boolean;
  question_wait_seconds?: number;
}

/** Settings → Background (Go: app.BackgroundSettings; docs/app.md#running-in-the-background). */
export interface BackgroundSettings {
  keep_running: boolean;
  start_at_login: boolean;
  /** 10 to 3600; reads 60 when unset. */
  question_wait_seconds: number;
  /** Where the login entry is: a file, or on Windows a registry value. */
  autostart_entry: string;
}

/** The update switch and the background check (Go: app.UpdateStatus; docs/update.md). */
export interface UpdateStatus {
  on: boolean;
  state: "idle" | "checking" | "up_to_date" | "downloading" | "ready" | "not_updatable" | "error";
  current: string;
  latest?: string;
  notes?: string;
  done: number;
  total: number;
  error?: string;
  checked?: string;
}

export interface SettingsView {
  settings: Settings;
  key_stored: Record<string, boolean>;
  keychain_errors: Record<string, string> | null;
  key_from_env: Record<string, boolean> | null;
  model: string;
  /** Per provider, the saved base URL and model with the defaults applied (what empty fields mean). */
  effective: Record<string, ProviderSettings> | null;
  model_error: string;
  model_warning: string;
  settings_file: string;
  servers_loaded: string;
  servers_error: string;
  servers_unreadable: boolean;
  /** What the servers file as read ignored or changed, each "PATH:LINE: ..." (docs/servers.md). */
  servers_notices: string[] | null;
  /** The ${input:ID} of the servers file in use; answers live in the OS keychain. */
  server_inputs: ServerInput[] | null;
  /** This run's flags that set a setting ("--coworkers DIR", ...): in use, not saved unless the field is changed. */
  run_flags: string[] | null;
}

/** A server's models, for the Settings model picker (Go: app.ModelList, docs/app.md#model-picker). */
export interface ModelList {
  provider: string;
  base_url: string;
  /** Which list answered: "openai", "ollama" or "anthropic". */
  api: string;
  models: string[] | null;
}

/** What Test connection found (Go: app.ConnectionTest); a failure is data, not a rejection. */
export interface ConnectionTest {
  ok: boolean;
  provider: string;
  base_url: string;
  model: string;
  latency_ms: number;
  /** "models" (the list answered) or "chat" (a 1-token request). */
  via: string;
  listed: boolean;
  models: string[] | null;
  /** The exact failure: request, reason, the server's message; never the key. */
  error: string;
  reason: string;
  status: number;
  advice: string;
}

export interface ServerInput {
  id: string;
  description: string;
  password: boolean;
  answered: boolean;
}

/** A remote MCP server with a stored sign-in: Settings shows "Sign out" (Go: app.SignedInServer, docs/app.md#sign-in). */
export interface SignedInServer {
  namespace: string;
  server: string;
  issuer: string;
}

/** "Sign in to HOST for NS?" (Go: app.SignInRequest, event signin:request; docs/app.md#sign-in). */
export interface SignInRequest {
  id: string;
  namespace: string;
  server: string;
  sign_in_host: string;
  url: string;
  scopes: string[] | null;
  again: boolean;
}

/** Another MCP client's config file at its default place (Go: app.FoundServerConfig). */
export interface FoundServerConfig {
  client: string;
  path: string;
  format: string;
  /** Its server entries, readable or not. */
  servers: number;
  /** Why it cannot be imported at all (file:line:col and the fix); "" when it reads. */
  error: string;
  in_use: boolean;
}

/** What importing one entry does (docs/servers.md#import). */
export type ImportAction = "add" | "same" | "skip";

/** One entry of the file being imported, as it becomes (Go: servers.ImportItem). */
export interface ImportItem {
  name: string;
  line: number;
  namespace: string;
  transport: string;
  /** The command line, or the URL without credentials or query. */
  target: string;
  /** Names of its environment variables and headers; values are never sent. */
  env_keys: string[] | null;
  /** PLACEMENT_LOCAL or the remote host; "" when the entry cannot be read. */
  placement: string;
  disabled: boolean;
  /** Ids of the ${input:ID} it asks for (in Settings, after the import). */
  inputs: string[] | null;
  /** Values of its env and headers written literally that look like secrets: they move to the keychain (never their values). */
  secrets?: ImportSecret[] | null;
  action: ImportAction;
  /** For "skip": the reason and the fix. */
  why: string;
  notices: string[] | null;
}

/** What an import would write (Go: servers.ImportPlan); nothing is written until ApplyImport. */
export interface ImportPlan {
  from: string;
  format: string;
  dest: string;
  /** Entries of the servers file in use, kept as they are. */
  kept: number;
  items: ImportItem[] | null;
  notices: string[] | null;
  /** Passed back to ApplyImport: it writes only the plan previewed. */
  digest: string;
  /** Why secrets cannot move to a keychain on this computer; absent when they can. */
  no_keychain?: string;
}

/** A literal secret an import moves to the OS keychain, ${input:ID} in its place (Go: servers.SharedInput). */
export interface ImportSecret {
  namespace: string;
  /** Where it is: "env.GITHUB_TOKEN", "headers.Authorization". */
  field: string;
  /** The input that replaces it; ApplyImport's keepLiteral names it to keep the value as written. */
  input: string;
}

export * from "./types_journal";
export * from "./types_view";
export * from "./types_elicit";
export * from "./types_extension";
