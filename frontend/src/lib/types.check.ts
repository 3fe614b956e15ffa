// Compile-time guard for types.ts: the UI's hand-written shapes (plain
// objects, with unions and nested types the generator cannot express) must
// only name fields that the Go structs have, as the generated Wails models
// (../wailsjs/go/models.ts, from scripts/app-bindings.sh) declare them. A
// field renamed or removed in Go fails svelte-check here, naming the field.
import type { agentimport, app, bundle, consent, elicit, harness, journal, servers, settings } from "../wailsjs/go/models";
import type * as T from "./types";
import type * as E from "./types_editor";
import type * as A from "./types_agentimport";
import type * as I from "./types_inbox";
import type * as L from "./limits";

/** The data fields of a generated class (its methods left out). */
type Fields<C> = { [K in keyof C as C[K] extends (...args: never[]) => unknown ? never : K]: C[K] };

/** true when every key of Hand is a field of Gen; otherwise the missing keys. */
type Covers<Gen, Hand> = [Exclude<keyof Hand, keyof Fields<Gen>>] extends [never]
  ? true
  : { notInGo: Exclude<keyof Hand, keyof Fields<Gen>> };

export const typesMatchGo: [
  Covers<app.Notice, T.Notice>,
  Covers<app.AppInfo, T.AppInfo>,
  Covers<app.ChatModelList, T.ChatModelList>,
  Covers<app.ResolvedToolInfo, T.ResolvedToolInfo>,
  Covers<app.LeftOutInfo, T.LeftOutInfo>,
  Covers<app.CoworkerInfo, T.CoworkerInfo>,
  Covers<app.ExtensionUse, T.ExtensionUse>,
  Covers<app.ExtensionSandbox, T.ExtensionSandbox>,
  Covers<app.InstalledExtension, T.InstalledExtension>,
  Covers<app.BrokenBundle, T.BrokenBundle>,
  Covers<app.CoworkerList, T.CoworkerList>,
  Covers<app.ToolInfo, T.ToolInfo>,
  Covers<app.ChatInfo, T.ChatInfo>,
  Covers<harness.TurnResult, T.TurnResult>,
  Covers<consent.Request, T.ConsentRequest>,
  Covers<app.PendingApproval, T.PendingApproval>,
  Covers<settings.ProviderSettings, T.ProviderSettings>,
  Covers<settings.Settings, T.Settings>,
  Covers<app.SettingsView, T.SettingsView>,
  Covers<app.ServerInput, T.ServerInput>,
  Covers<app.ModelList, T.ModelList>,
  Covers<app.ConnectionTest, T.ConnectionTest>,
  Covers<app.FoundServerConfig, T.FoundServerConfig>,
  Covers<servers.ImportItem, T.ImportItem>,
  Covers<servers.ImportPlan, T.ImportPlan>,
  Covers<journal.Session, T.JournalSession>,
  Covers<journal.SessionPage, T.SessionPage>,
  Covers<app.Waiting, T.Waiting>,
  Covers<app.SavedPolicy, T.SavedPolicy>,
  Covers<consent.Grant, T.Grant>,
  Covers<journal.Invocation, T.Invocation>,
  Covers<journal.Turn, T.JournalTurn>,
  Covers<journal.Approval, T.Approval>,
  Covers<journal.Message, T.JournalMessage>,
  Covers<journal.SessionDetail, T.SessionDetail>,
  Covers<app.FolderHint, T.FolderHint>,
  Covers<app.CoworkerPreview, T.CoworkerPreview>,
  Covers<app.ChatPrompt, T.ChatPrompt>,
  Covers<app.PromptArg, T.PromptArg>,
  Covers<consent.SamplingRequest, T.SamplingRequest>,
  Covers<app.PendingElicitation, T.PendingElicitation>,
  Covers<elicit.Question, T.ElicitQuestion>,
  Covers<elicit.Field, T.ElicitField>,
  Covers<elicit.Option, T.ElicitOption>,
  Covers<app.SignedInServer, T.SignedInServer>,
  Covers<app.ToolView, T.ToolView>,
  Covers<app.ViewToolResult, T.ViewToolResult>,
  Covers<bundle.Draft, E.Draft>,
  Covers<app.DraftProblem, E.DraftProblem>,
  Covers<app.DraftSkill, E.DraftSkill>,
  Covers<app.CoworkerDraft, E.CoworkerDraft>,
  Covers<app.CoworkerTemplate, E.CoworkerTemplate>,
  Covers<harness.CatalogTool, E.CatalogTool>,
  Covers<app.ToolProvider, E.ToolProvider>,
  Covers<app.SavedCoworker, E.SavedCoworker>,
  Covers<app.TrashedCoworker, E.TrashedCoworker>,
  Covers<app.GaveTools, E.GaveTools>,
  Covers<app.ServerInUse, E.ServerInUse>,
  Covers<agentimport.Mapping, A.AgentMapping>,
  Covers<agentimport.Unmapped, A.AgentUnmapped>,
  Covers<agentimport.Ignored, A.AgentIgnored>,
  Covers<agentimport.Coworker, A.ImportedCoworker>,
  Covers<agentimport.Source, A.AgentSource>,
  Covers<agentimport.Plan, A.AgentImportPlan>,
  Covers<app.AgentImportPreview, A.AgentImportPreview>,
  Covers<app.AgentImportResult, A.AgentImportResult>,
  Covers<app.InboxEntry, I.InboxEntry>,
  Covers<app.ScheduleInput, I.ScheduleInput>,
  Covers<journal.ScheduleRun, I.ScheduleRun>,
  Covers<app.ScheduleInfo, I.ScheduleInfo>,
] = [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true];

// The budgets' and tokens' shapes (limits.ts).
export const limitsTypesMatchGo: [
  Covers<settings.Limits, L.Limits>,
  Covers<bundle.Limits, L.DraftLimits>,
  Covers<journal.UsageTotal, L.UsageTotal>,
  Covers<journal.CoworkerUsage, L.CoworkerUsage>,
  Covers<app.CoworkerTokens, L.CoworkerTokens>,
] = [true, true, true, true, true];
