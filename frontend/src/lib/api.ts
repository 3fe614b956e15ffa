// Typed wrappers over the generated Wails bindings (../wailsjs). Every call
// returns a promise that rejects with an Error whose message is the Go
// error's text, so screens can show it as is.
import { gatedBackend } from "./gate";
import { ClipboardSetText, EventsOn } from "../wailsjs/runtime/runtime";
import type {
  AppInfo, BackgroundSettings, ChatInfo, ChatModelList, ExtensionInstalled, ExtensionPreview, InstalledExtension, ChatPrompt, ConnectionTest, CoworkerList, CoworkerPreview, Decision, FoundServerConfig, Grant, ImportPlan, Invocation, JournalSession, ModelList, OllamaFound, Outcome,
  PendingApproval, PendingElicitation, SavedPolicy, SessionDetail, SessionPage, Settings, SettingsView, SignedInServer, Theme, ToolView, TurnResult, UpdateStatus, ViewToolResult, Waiting,
} from "./types";
import type { CoworkerDraft, CoworkerTemplate, Draft, DraftProblem, GaveTools, SavedCoworker, ServerInUse, ToolProvider, TrashedCoworker } from "./types_editor";
import type { AgentImportPreview, AgentImportResult } from "./types_agentimport";
import type { AppEventName } from "./events";
import type { InboxEntry, ScheduleInfo, ScheduleInput } from "./types_inbox";
import type { CoworkerTokens, Limits, UsageTotal } from "./limits";
import type { DiagnosticsPlan, DiagnosticsReport } from "./types_diagnostics";
import type { SettingsSectionId, WindowPaint } from "./types_settings";

/** The generated signature wants the generated class; the JSON shape is the same. */
type GoDraft = Parameters<typeof import("../wailsjs/go/app/Editor").SaveCoworker>[1];

/**
 * The bound services of the Go side (app/, docs/app.md#where-things-live),
 * each as its generated binding functions (their types only: at run time
 * every call goes through the Gate as "Service.Method", lib/gate.ts; a
 * fake in tests).
 */
export type Backend = {
  Window: typeof import("../wailsjs/go/app/Window");
  Chats: typeof import("../wailsjs/go/app/Chats");
  Coworkers: typeof import("../wailsjs/go/app/Coworkers");
  Preferences: typeof import("../wailsjs/go/app/Preferences");
  Servers: typeof import("../wailsjs/go/app/Servers");
  Extensions: typeof import("../wailsjs/go/app/Extensions");
  Activity: typeof import("../wailsjs/go/app/Activity");
  Asks: typeof import("../wailsjs/go/app/Asks");
  Views: typeof import("../wailsjs/go/app/Views");
  Editor: typeof import("../wailsjs/go/app/Editor");
  Inbox: typeof import("../wailsjs/go/app/Inbox");
  Schedules: typeof import("../wailsjs/go/app/Schedules");
};

/** The names of the services, as the Gate knows them. */
export type ServiceName = keyof Backend;

/** Subscribes to a Go event; returns the unsubscribe function. */
export type Subscribe = (name: AppEventName, cb: (payload: unknown) => void) => () => void;

/** toError turns whatever a binding rejected with into an Error. */
export function toError(e: unknown): Error {
  if (e instanceof Error) return e;
  if (typeof e === "string") return new Error(e);
  if (e && typeof e === "object" && "message" in e) return new Error(String((e as { message: unknown }).message));
  return new Error(String(e));
}

async function call<T>(p: () => Promise<unknown>): Promise<T> {
  try {
    return (await p()) as T;
  } catch (e) {
    throw toError(e);
  }
}

export function makeApi(b: Backend, subscribe: Subscribe) {
  return {
    info: () => call<AppInfo>(() => b.Window.Info()),
    coworkers: () => call<CoworkerList>(() => b.Coworkers.Coworkers()),
    chooseCoworkersDir: () => call<CoworkerList>(() => b.Coworkers.ChooseCoworkersDir()),
    setCoworkersDir: (dir: string) => call<CoworkerList>(() => b.Coworkers.SetCoworkersDir(dir)),
    /** The native picker for a bundle folder to add; "" when cancelled. */
    chooseCoworkerBundle: () => call<string>(() => b.Coworkers.ChooseCoworkerBundle()),
    /** What the bundle folder holds and what adding it would do; writes nothing. */
    previewCoworker: (path: string) => call<CoworkerPreview>(() => b.Coworkers.PreviewCoworker(path)),
    /** Copies ("copy") or links ("link") the bundle in; replace for a taken name. */
    addCoworker: (path: string, mode: "copy" | "link", replace: boolean) => call<CoworkerList>(() => b.Coworkers.AddCoworker(path, mode, replace)),
    /** The native picker for what to import: agent files ("files") or a folder; [] when cancelled. */
    chooseAgentImport: (kind: "files" | "folder") => call<string[]>(() => b.Coworkers.ChooseAgentImport(kind)),
    /** The plan of importing agents, recipes, skills, plugins or exports at paths; writes nothing. */
    previewAgentImport: (paths: string[]) => call<AgentImportPreview>(() => b.Coworkers.PreviewAgentImport(paths)),
    /** Writes the plan previewed under token (once); the live reload shows the new coworkers. */
    applyAgentImport: (token: string) => call<AgentImportResult>(() => b.Coworkers.ApplyAgentImport(token)),
    /** Opens a file inside the coworkers or config folder in the system's program. */
    openFile: (path: string) => call<void>(() => b.Window.OpenFile(path)),
    /** Opens an http(s) or mailto link in the system's browser; rejects saying why not. */
    openLink: (url: string) => call<void>(() => b.Window.OpenLink(url)),
    openChat: (coworker: string) => call<ChatInfo>(() => b.Chats.OpenChat(coworker)),
    resumeChat: (sessionId: string) => call<ChatInfo>(() => b.Chats.ResumeChat(sessionId)),
    send: (sessionId: string, prompt: string) => call<TurnResult>(() => b.Chats.Send(sessionId, prompt)),
    retry: (sessionId: string) => call<TurnResult>(() => b.Chats.Retry(sessionId)),
    /** The chat's "/" commands: MCP prompts of its providers, by name. */
    chatPrompts: async (sessionId: string) => (await call<ChatPrompt[] | null>(() => b.Chats.ChatPrompts(sessionId))) ?? [],
    /** A prompt's text for the composer (not sent); rejects naming a missing argument. */
    expandPrompt: (sessionId: string, name: string, args: Record<string, string>) => call<string>(() => b.Chats.ExpandPrompt(sessionId, name, args)),
    /** The models the chat can switch to (docs/app.md#model-in-a-chat). */
    chatModels: (sessionId: string) => call<ChatModelList>(() => b.Chats.ChatModels(sessionId)),
    /** The model of the chat's next turns; resolves to the chat as it is now. */
    setChatModel: (sessionId: string, model: string) => call<ChatInfo>(() => b.Chats.SetChatModel(sessionId, model)),
    chatGrants: (sessionId: string) => call<Grant[]>(() => b.Chats.ChatGrants(sessionId)),
    revokeChatGrant: (sessionId: string, tool: string) => call<void>(() => b.Chats.RevokeChatGrant(sessionId, tool)),
    cancel: (sessionId: string) => call<void>(() => b.Chats.Cancel(sessionId)),
    closeChat: (sessionId: string) => call<void>(() => b.Chats.CloseChat(sessionId)),
    respondApproval: (id: string, d: Decision) => call<void>(() => b.Asks.RespondApproval(id, d)),
    pendingApprovals: async () => (await call<PendingApproval[] | null>(() => b.Asks.PendingApprovals())) ?? [],
    answerElicitation: (id: string, action: "accept" | "decline" | "cancel", content: Record<string, unknown> | null) =>
      call<void>(() => b.Asks.AnswerElicitation(id, action, content ?? {})),
    pendingElicitations: async () => (await call<PendingElicitation[] | null>(() => b.Asks.PendingElicitations())) ?? [],
    /** The window's paint timings, for the log (docs/app.md#window-size-and-splash). */
    painted: (p: WindowPaint) => call<void>(() => b.Window.Painted(p)),
    setWindowFocused: (focused: boolean) => call<void>(() => b.Window.SetWindowFocused(focused)),
    sessions: async () => (await call<JournalSession[] | null>(() => b.Activity.Sessions())) ?? [],
    sessionPage: async (before: string, needsAttention: boolean): Promise<SessionPage> => {
      const p = await call<SessionPage>(() => b.Activity.SessionPage(before, needsAttention));
      return { sessions: p.sessions ?? [], next: p.next ?? "" };
    },
    needsAttention: () => call<Waiting>(() => b.Activity.NeedsAttention()),
    /** The tokens of each run listed, by session id (absent: none journaled). */
    runTokens: async (ids: string[]) => (ids.length ? ((await call<Record<string, UsageTotal> | null>(() => b.Activity.RunTokens(ids))) ?? {}) : {}),
    /** Each coworker's tokens today and over the last 7 days (UTC), most first. */
    coworkerTokens: () => call<CoworkerTokens>(() => b.Activity.CoworkerTokens()),
    /** One page of the sidebar's chat list (docs/app.md#chats), newest first. */
    chats: async (before: string, showHidden: boolean): Promise<SessionPage> => {
      const p = await call<SessionPage>(() => b.Chats.Chats(before, showHidden));
      return { sessions: p.sessions ?? [], next: p.next ?? "" };
    },
    /** Chats whose titles or messages hold every word of text, newest first. */
    searchChats: async (text: string, showHidden: boolean) =>
      (await call<JournalSession[] | null>(() => b.Chats.SearchChats(text, showHidden))) ?? [],
    /** For chats a search found: the line of a message around the first word found, by chat id (none when only the title matched). */
    chatSnippets: async (text: string, ids: string[]) =>
      (await call<Record<string, string> | null>(() => b.Chats.ChatSnippets(text, ids))) ?? {},
    renameChat: (sessionId: string, title: string) => call<JournalSession>(() => b.Chats.RenameChat(sessionId, title)),
    /** Hides the chat from the list (true) or shows it again (false); nothing is deleted. */
    hideChat: (sessionId: string, hidden: boolean) => call<JournalSession>(() => b.Chats.HideChat(sessionId, hidden)),
    /** Every saved "always allow" / "always deny" answer (docs/consent.md#saved-answers). */
    policies: async () => (await call<SavedPolicy[] | null>(() => b.Preferences.Policies())) ?? [],
    /** Takes back one saved answer: that tool asks again, in open chats too. */
    revokePolicy: (coworker: string, tool: string, digest: string) => call<void>(() => b.Preferences.RevokePolicy(coworker, tool, digest)),
    sessionDetail: (id: string) => call<SessionDetail>(() => b.Activity.SessionDetail(id)),
    reconcile: (invocationId: string, outcome: Outcome) =>
      call<Invocation>(() => b.Activity.Reconcile(invocationId, outcome)),
    /** Asks the A2A agent of an unknown call what its task became and records that (docs/a2a.md#durable-handles). */
    askAgent: (invocationId: string) => call<Invocation>(() => b.Activity.AskAgent(invocationId)),
    getSettings: () => call<SettingsView>(() => b.Preferences.GetSettings()),
    /**
     * The diagnostics' text (Activity.Diagnostics, no download): the report of `openworker doctor`, secrets
     * redacted (docs/app.md#diagnostics), put on the clipboard through the
     * Wails runtime; resolves to the text, rejects when the clipboard refused it.
     */
    copyDiagnostics: async () => {
      const text = await call<string>(() => b.Activity.Diagnostics());
      if (!(await ClipboardSetText(text))) throw new Error("The clipboard did not take the diagnostics.");
      return text;
    },
    /** The servers a run of the diagnostics starts, and which may download first (docs/app.md#diagnostics). */
    diagnosticsPlan: () => call<DiagnosticsPlan>(() => b.Activity.DiagnosticsPlan()),
    /** Runs the diagnostics; servers that may download start only with allowDownloads. */
    runDiagnostics: (allowDownloads: boolean) => call<DiagnosticsReport>(() => b.Activity.RunDiagnostics(allowDownloads)),
    /** Saves a report where the save dialog says; resolves to the path, "" when cancelled. */
    saveDiagnostics: (text: string) => call<string>(() => b.Activity.SaveDiagnostics(text)),
    /** Puts text on the clipboard; rejects when the clipboard refused it. */
    copyText: async (text: string) => {
      if (!(await ClipboardSetText(text))) throw new Error("The clipboard did not take the diagnostics.");
    },
    // The generated signature wants the generated class; the JSON shape is the same.
    saveSettings: (s: Settings) => call<SettingsView>(() => b.Preferences.SaveSettings(s as unknown as Parameters<Backend["Preferences"]["SaveSettings"]>[0])),
    /** Saves only the fields Settings' section owns ("model", "coworkers", "servers", "permissions"; docs/app.md#settings). */
    saveSection: (section: SettingsSectionId, s: Settings) =>
      call<SettingsView>(() => b.Preferences.SaveSection(section, s as unknown as Parameters<Backend["Preferences"]["SaveSection"]>[1])),
    setApiKey: (provider: string, key: string) => call<SettingsView>(() => b.Preferences.SetAPIKey(provider, key)),
    deleteApiKey: (provider: string) => call<SettingsView>(() => b.Preferences.DeleteAPIKey(provider)),
    /** The models of provider's server at baseUrl ("" = default); key "" uses the stored key. */
    listModels: (provider: string, baseUrl: string, key: string) => call<ModelList>(() => b.Preferences.ListModels(provider, baseUrl, key)),
    /** One tiny request; resolves with the latency or the exact failure (docs/app.md#model-picker). */
    testConnection: (provider: string, baseUrl: string, model: string, key: string) =>
      call<ConnectionTest>(() => b.Preferences.TestConnection(provider, baseUrl, model, key)),
    /** The first-run setup (docs/app.md#first-run): Ollama on this computer and its models (GET /api/tags). */
    findOllama: () => call<OllamaFound>(() => b.Preferences.FindOllama()),
    /** Saves the model the setup chose; a key goes to the OS keychain, never settings.json. */
    useModel: (provider: string, baseUrl: string, model: string, key: string) =>
      call<SettingsView>(() => b.Preferences.UseModel(provider, baseUrl, model, key)),
    /** Marks the setup completed or skipped: it does not open at start again. */
    finishSetup: () => call<void>(() => b.Preferences.FinishSetup()),
    chooseServersFile: () => call<string>(() => b.Preferences.ChooseServersFile()),
    /** Saves the theme in settings.json at once (docs/app.md#theme). */
    setTheme: (t: Theme) => call<void>(() => b.Preferences.SetTheme(t)),
    /** Settings → Limits: the default limits in use (docs/limits.md#budgets). */
    defaultLimits: () => call<Limits>(() => b.Preferences.DefaultLimits()),
    /** Saves the default limits at once; rejects naming a limit out of range. */
    setDefaultLimits: (l: Limits) => call<Limits>(() => b.Preferences.SetDefaultLimits(l)),
    /** Settings → Background (docs/app.md#running-in-the-background). */
    background: () => call<BackgroundSettings>(() => b.Preferences.GetBackground()),
    /** Saves the section; rejects naming what failed (the wait's bounds, the login entry). */
    setBackground: (s: BackgroundSettings) => call<BackgroundSettings>(() => b.Preferences.SetBackground(s)),
    /** Ends the app even with "keep running" on (it asks first when something would stop). */
    quit: () => call<void>(() => b.Window.Quit()),
    /** Settings → Updates (docs/update.md): the switch and the background check. */
    updateStatus: () => call<UpdateStatus>(() => b.Preferences.UpdateStatus()),
    setUpdateChecks: (on: boolean) => call<UpdateStatus>(() => b.Preferences.SetUpdateChecks(on)),
    setServerInput: (id: string, value: string) => call<SettingsView>(() => b.Servers.SetServerInput(id, value)),
    findServerConfigs: async () => (await call<FoundServerConfig[] | null>(() => b.Servers.FindServerConfigs())) ?? [],
    chooseImportFile: () => call<string>(() => b.Servers.ChooseImportFile()),
    previewImport: (path: string) => call<ImportPlan>(() => b.Servers.PreviewImport(path)),
    applyImport: (path: string, digest: string, keepLiteral: string[] = []) => call<SettingsView>(() => b.Servers.ApplyImport(path, digest, keepLiteral)),
    /** The native picker for a .mcpb or .dxt file; "" when cancelled. */
    chooseExtensionFile: () => call<string>(() => b.Extensions.ChooseExtensionFile()),
    /** A picker for a directory/file field of the install form ("files": several); [] when cancelled. */
    chooseExtensionPath: async (kind: "directory" | "file" | "files", title: string) =>
      (await call<string[] | null>(() => b.Extensions.ChooseExtensionPath(kind, title))) ?? [],
    /** What the extension file holds and what installing it needs; writes nothing. */
    previewExtension: (path: string) => call<ExtensionPreview>(() => b.Extensions.PreviewExtension(path)),
    /** Installs the file previewed (its digest); sensitive values go to the OS keychain. */
    installExtension: (path: string, digest: string, values: Record<string, unknown>, sandboxed: boolean) =>
      call<ExtensionInstalled>(() => b.Extensions.InstallExtension(path, digest, values, sandboxed)),
    /** The installed extensions (docs/extensions.md#installing). */
    extensions: async () => (await call<InstalledExtension[] | null>(() => b.Extensions.Extensions())) ?? [],
    /** Removes one, its keychain values too; resolves to the ones left. */
    removeExtension: async (name: string) => (await call<InstalledExtension[] | null>(() => b.Extensions.RemoveExtension(name))) ?? [],
    /** Runs it in the default sandbox (on) or with full access (off); resolves to the list. */
    setExtensionSandbox: async (name: string, on: boolean) =>
      (await call<InstalledExtension[] | null>(() => b.Extensions.SetExtensionSandbox(name, on))) ?? [],
    /** Remote MCP servers with a stored sign-in, and signing out of one (docs/app.md#sign-in). */
    signedIn: async () => (await call<SignedInServer[] | null>(() => b.Servers.SignedIn())) ?? [],
    signOut: async (ns: string) => (await call<SignedInServer[] | null>(() => b.Servers.SignOut(ns))) ?? [],
    answerSignIn: (id: string, signIn: boolean) => call<void>(() => b.Asks.AnswerSignIn(id, signIn)),
    /** The app view of an invocation of this chat (docs/mcp-apps.md); rejects when it has none or it cannot be read. */
    toolView: async (sessionId: string, invocationId: string): Promise<ToolView> => {
      const v = await call<ToolView>(() => b.Views.ToolView(sessionId, invocationId));
      return { ...v, permissions: v.permissions ?? [], csp: { connect: v.csp?.connect ?? [], resource: v.csp?.resource ?? [], frame: v.csp?.frame ?? [], base_uri: v.csp?.base_uri ?? [] } };
    },
    /**
     * A tool call asked by the view of invocationId: name is the server's
     * tool name, args the JSON object the view sent. It goes through the
     * harness as a call of this chat (selection, consent, limits, journal).
     */
    viewCallTool: (sessionId: string, invocationId: string, name: string, args: unknown) =>
      // The Go parameter is a json.RawMessage: the object is passed as is and arrives as its JSON.
      call<ViewToolResult>(() => b.Views.ViewCallTool(sessionId, invocationId, name, (args ?? {}) as unknown as number[])),
    /** Records something the window refused a view (flood, pop-up, navigation, …) in the log. */
    viewRefused: (sessionId: string, invocationId: string, what: string) => call<void>(() => b.Views.ViewRefused(sessionId, invocationId, what)),
    /** Keeps a view's document (srcdoc: the page behind the host's policy) and returns the address its frame loads. */
    serveViewPage: (doc: string, csp: string) => call<string>(() => b.Views.ServeViewPage(doc, csp)),
    /** The view is on screen at (x, y, w, h), CSS pixels of the window's viewport. */
    viewShown: (sessionId: string, invocationId: string, x: number, y: number, w: number, h: number) =>
      call<void>(() => b.Views.ViewShown(sessionId, invocationId, x, y, w, h)),
    // The coworker editor (docs/app.md#coworker-editor).
    /** The templates of "New coworker": the example bundles. */
    templates: async () => (await call<CoworkerTemplate[] | null>(() => b.Editor.Templates())) ?? [],
    /** A new coworker's draft, blank ("") or from a template; nothing is written. */
    newCoworker: (template: string) => call<CoworkerDraft>(() => b.Editor.NewCoworker(template)),
    /** The draft of the coworker in dir, as far as it reads, with its problems marked. */
    editCoworker: (dir: string) => call<CoworkerDraft>(() => b.Editor.EditCoworker(dir)),
    /** The problems of d (for the coworker in dir; "" for a new one), as `openworker check` words them. */
    checkCoworker: async (dir: string, d: Draft) => (await call<DraftProblem[] | null>(() => b.Editor.CheckCoworker(dir, d as unknown as GoDraft))) ?? [],
    /** Writes d: creates the coworker (dir "") or saves the one in dir, atomically. */
    saveCoworker: (dir: string, d: Draft) => call<SavedCoworker>(() => b.Editor.SaveCoworker(dir, d as unknown as GoDraft)),
    /** A copy of the coworker in dir under a new id, made on disk, as a draft. */
    duplicateCoworker: (dir: string) => call<CoworkerDraft>(() => b.Editor.DuplicateCoworker(dir)),
    /** Moves the coworker in dir to the trash; RestoreCoworker(token) takes it back. */
    deleteCoworker: (dir: string) => call<TrashedCoworker>(() => b.Editor.DeleteCoworker(dir)),
    restoreCoworker: (id: string, token: string) => call<CoworkerList>(() => b.Editor.RestoreCoworker(id, token)),
    /** Every provider with the tools it offers now (only namespaces', when given). */
    toolCatalog: async (namespaces: string[] = []) => (await call<ToolProvider[] | null>(() => b.Editor.ToolCatalog(namespaces))) ?? [],
    /** The native picker for a skill: a folder ("folder") or a .zip ("zip"); "" when cancelled. */
    chooseSkill: (kind: "folder" | "zip") => call<string>(() => b.Editor.ChooseSkill(kind)),
    /** Copies the skill at path into the coworker in dir; resolves to its draft as on disk. */
    attachSkill: (dir: string, path: string) => call<CoworkerDraft>(() => b.Editor.AttachSkill(dir, path)),
    /** The native folder picker for a coworker's working folder; "" when cancelled. */
    chooseWorkingFolder: (start: string) => call<string>(() => b.Editor.ChooseWorkingFolder(start)),
    /** The MCP servers of the servers file in use (Settings lists who uses each). */
    serversInUse: async () => (await call<ServerInUse[] | null>(() => b.Servers.ServersInUse())) ?? [],
    /** Gives tools to the coworker in dir, or to a new one named name (dir ""). */
    giveTools: (dir: string, name: string, tools: string[]) => call<GaveTools>(() => b.Editor.GiveTools(dir, name, tools)),
    /** The open inbox items, oldest first (docs/app.md#inbox). */
    inboxItems: async () => (await call<InboxEntry[] | null>(() => b.Inbox.Items())) ?? [],
    inboxCount: () => call<number>(() => b.Inbox.Count()),
    /** Answers an item from the Inbox; rejects saying who answered first. */
    answerInbox: (id: string, answer: string) => call<void>(() => b.Inbox.Answer(id, answer)),
    /** Switches a chat to run on its own (approvals park in the inbox) or back. */
    setUnattended: (sessionId: string, on: boolean) => call<ChatInfo>(() => b.Chats.SetUnattended(sessionId, on)),
    schedules: async () => (await call<ScheduleInfo[] | null>(() => b.Schedules.List())) ?? [],
    addSchedule: (s: ScheduleInput) => call<ScheduleInfo>(() => b.Schedules.Add(s as never)),
    editSchedule: (id: string, s: ScheduleInput) => call<ScheduleInfo>(() => b.Schedules.Edit(id, s as never)),
    removeSchedule: (id: string) => call<void>(() => b.Schedules.Remove(id)),
    on: subscribe,
  };
}

export type Api = ReturnType<typeof makeApi>;

/** The API of the running app. */
export const api: Api = makeApi(gatedBackend(), (name, cb) => EventsOn(name, cb));
