// App-wide reactive state (Svelte 5 runes) and the wiring of Go events to it.
import { browserPage, trackWindowFocus } from "./windowfocus";
import { api } from "./api";
import { AppEvent, HarnessEventType } from "./events";
import { addApproval, closeApproval, emptyChat, historyState, reduce, type ChatState } from "./chat";
import { addNotice, clearViewNotices, dismissNotice, expireNotices, INFO_TTL_MS, realClock, retimeNotices, type Clock, type NoticeAction, type NoticeScope, type ShownNotice } from "./notices";
import { appendPage, chatTitle, SEARCH_DEBOUNCE_MS, upsertChat } from "./chatlist";
import { asTheme, theme } from "./theme";
import { modals } from "./modals.svelte";
import { extensionNotice } from "./extension";
import { addQuestion, closeQuestion } from "./elicit";
import type { ElicitationClosed, PendingElicitation } from "./types";
import type { CoworkerDraft } from "./types_editor";
import type { ApprovalClosed, AppInfo, BundleDropped, ChatInfo, ExtensionOpened, Grant, CoworkerList, HarnessEvent, JournalSession, Notice, PendingApproval, SignInRequest } from "./types";

export type View = { name: "coworkers" } | { name: "chat"; sessionId: string } | { name: "activity" } | { name: "settings" } | { name: "editor"; key: number } | { name: "inbox" } | { name: "schedules" } | { name: "diagnostics" };

export interface OpenChat {
  info: ChatInfo;
  state: ChatState;
  error: string;
  /** The chat's session grants (the header lists them); refreshed after each answer and turn. */
  grants: Grant[];
}

/** sameView is true when a and b show the same screen (and chat). */
export function sameView(a: View, b: View): boolean {
  return a.name === b.name && (a.name !== "chat" || (b.name === "chat" && a.sessionId === b.sessionId));
}

class AppState {
  #view = $state<View>({ name: "coworkers" });
  info = $state<AppInfo | null>(null);
  /** The first-run setup is open (docs/app.md#first-run): at a first start, or from Settings. */
  setup = $state(false);
  /** The section Settings shows (components/settings/sections.ts); kept while other screens are shown. */
  settingsSection = $state("model");
  coworkers = $state<CoworkerList | null>(null);
  chats = $state<Record<string, OpenChat>>({});
  chatOrder = $state<string[]>([]);
  approvals = $state<PendingApproval[]>([]);
  /** Servers' questions waiting for the person, oldest first (lib/elicit.ts); the dialog shows the first. */
  questions = $state<PendingElicitation[]>([]);
  notices = $state<ShownNotice[]>([]);
  /** The app's keyed notices as the app has them now, kept after their toast goes (Settings reads them). */
  standing = $state<Record<string, Notice>>({});
  /** Sessions with calls waiting for reconciliation (the Activity badge). */
  waiting = $state(0);
  /** Open inbox items (the Inbox badge, docs/app.md#inbox). */
  inboxOpen = $state(0);
  /** Bumped on every inbox change: the Inbox screen reads its items again. */
  inboxChanged = $state(0);
  /** The inbox item whose notification was clicked: the Inbox shows it first ("" none). */
  inboxItem = $state("");
  /** Bumped when schedules ran: the Schedules screen reads its list again. */
  schedulesChanged = $state(0);
  /** The time source of the notices (info ones expire); tests set their own. */
  clock: Clock = realClock;
  /** An external link waiting for "Open this external link?" (LinkConfirm). */
  link = $state<string | null>(null);
  /** Sign-ins waiting for "Sign in to HOST for NS?" (docs/app.md#sign-in), oldest first. */
  signIns = $state<SignInRequest[]>([]);
  /** What app views ask the person (a chat message to send, a link to open), oldest first; the dialog shows the first (docs/mcp-apps.md). */
  viewAsks = $state<ViewAskItem[]>([]);
  #viewAskSeq = 0;
  /** A folder dropped on the window, for the Coworkers screen to preview. */
  dropped = $state<string | null>(null);
  /** Files and folders dropped on the window that are no coworker bundle: agents and skills to import (docs/app.md#import-agents). */
  droppedAgents = $state<string[] | null>(null);
  /** Extension files to show in the install dialog, first one shown
   * (docs/app.md#opening-an-extension); several open one after the other. */
  extensionQueue = $state<{ id: number; path: string }[]>([]);
  #extensionSeq = 0;
  /** Counts installs and removals: Settings → Extensions lists again. */
  extensionsChanged = $state(0);
  /** The coworker the editor shows (view "editor", docs/app.md#coworker-editor). */
  editing = $state<CoworkerDraft | null>(null);
  #editSeq = 0;

  /** startEditing shows d in the coworker editor. */
  startEditing(d: CoworkerDraft) {
    this.editing = d;
    this.view = { name: "editor", key: ++this.#editSeq };
  }

  /** editCoworker opens the coworker in dir (working or broken) in the editor. */
  async editCoworker(dir: string) {
    try {
      this.startEditing(await api.editCoworker(dir));
    } catch (e) {
      this.notify("error", (e as Error).message);
    }
  }

  /** duplicateCoworker copies the coworker in dir under a new id and opens the copy in the editor. */
  async duplicateCoworker(dir: string) {
    try {
      const d = await api.duplicateCoworker(dir);
      this.startEditing(d);
      this.notify("info", `Made a copy: ${d.draft.name || d.draft.id}. Change what you like and save.`);
    } catch (e) {
      this.notify("error", (e as Error).message);
    }
  }

  /**
   * deleteCoworker moves the coworker in dir to the trash, with an "Undo"
   * toast that puts it back (docs/app.md#coworker-editor).
   */
  async deleteCoworker(dir: string, name: string) {
    try {
      const t = await api.deleteCoworker(dir);
      const undo: NoticeAction = { label: "Undo", run: () => void this.restoreCoworker(t.id, t.token, t.name || name) };
      this.notify("info", `Deleted ${t.name || name}: moved to ${t.where}.`, "app", "coworker-deleted", undo);
    } catch (e) {
      this.notify("error", (e as Error).message);
    }
  }

  /** restoreCoworker puts a deleted coworker back where it was. */
  async restoreCoworker(id: string, token: string, name: string) {
    try {
      this.coworkers = await api.restoreCoworker(id, token);
      this.notify("info", `${name} is back.`);
    } catch (e) {
      this.notify("error", (e as Error).message, "app");
    }
  }

  /**
   * askView queues a question of an app view for the person: resolves true
   * when they chose Send (the message is then the caller's to send) or the
   * link opened; false when they declined.
   */
  askView(kind: "message" | "link", sessionId: string, tool: string, text: string): Promise<boolean> {
    return new Promise((resolve) => {
      const id = ++this.#viewAskSeq;
      const c = this.chats[sessionId];
      const coworker = c?.info.coworker_name || c?.info.coworker || "the coworker";
      this.viewAsks = [...this.viewAsks, { id, kind, sessionId, tool, coworker, text, resolve }];
    });
  }

  /** answerView closes the question id with the person's answer. */
  answerView(id: number, yes: boolean) {
    const q = this.viewAsks.find((x) => x.id === id);
    this.viewAsks = this.viewAsks.filter((x) => x.id !== id);
    q?.resolve(yes);
  }

  /** openExtension queues path for the install dialog. */
  openExtension(path: string) {
    this.extensionQueue = [...this.extensionQueue, { id: ++this.#extensionSeq, path }];
  }

  /** closeExtension takes the dialog of id away; the next queued one shows. */
  closeExtension(id: number) {
    this.extensionQueue = this.extensionQueue.filter((e) => e.id !== id);
  }

  /** The sidebar's chat list (lib/chatlist.ts, docs/app.md#chats): journaled sessions, newest first. */
  chatList = $state<JournalSession[]>([]);
  /** The cursor of the next (older) page of chatList; "" when all are loaded. */
  chatListNext = $state("");
  /** Why the list could not be read ("" when it could). */
  chatListError = $state("");
  /** The list shows hidden chats too (greyed, with "Show in list"). */
  showHidden = $state(false);
  /** The search box's text, and the chats the journal found for it (null: no search). */
  searchText = $state("");
  searchResults = $state<JournalSession[] | null>(null);
  /** For searchResults: the line of a message that matched, by chat id (docs/app.md#chats). */
  searchSnippets = $state<Record<string, string>>({});
  #searchSeq = 0;
  #searchTimer: void | (() => void) = undefined;

  /** The screen shown. Changing it drops the notices of the screen left. */
  get view(): View {
    return this.#view;
  }
  set view(v: View) {
    if (!sameView(this.#view, v)) this.notices = clearViewNotices(this.notices);
    this.#view = v;
  }

  /**
   * notify shows a toast. scope "view" (the default: an action on this
   * screen failed or succeeded) goes when the screen changes; "app" stays
   * until dismissed or, keyed, until a notice with its key and no message
   * removes it (its cause is gone). Info toasts go by themselves after
   * INFO_TTL_MS of being seen: while a modal dialog is open they wait
   * (lib/modals.svelte.ts, releaseNotices).
   */
  /** appNotice shows a notice of the app (Info, AppEvent.Notice) and keeps a keyed one standing. */
  appNotice(n: Notice) {
    if (n.key) {
      const { [n.key]: _, ...rest } = this.standing;
      this.standing = n.message ? { ...rest, [n.key]: n } : rest;
    }
    this.notify(n.level, n.message, "app", n.key);
  }

  notify(level: Notice["level"], message: string, scope: NoticeScope = "view", key?: string, action?: NoticeAction) {
    this.notices = addNotice(this.notices, { level, message, key, action }, scope, this.clock.now());
    if (level === "info" && message) this.clock.after(INFO_TTL_MS, this.#expire);
  }
  #expire = () => {
    if (modals.open === 0) this.notices = expireNotices(this.notices, this.clock.now());
  };
  /** releaseNotices: the last modal dialog closed (Notices.svelte); the held info toasts get their INFO_TTL_MS from now. */
  releaseNotices() {
    this.notices = retimeNotices(this.notices, this.clock.now());
    this.clock.after(INFO_TTL_MS, this.#expire);
  }

  dismiss(id: number) {
    this.notices = dismissNotice(this.notices, id);
  }

  onHarnessEvent(e: HarnessEvent) {
    const c = this.chats[e.session_id];
    if (!c) return;
    c.state = reduce(c.state, e);
    if (e.type === HarnessEventType.ToolFinished && e.status === "unknown") void this.countWaiting();
    if (e.type === HarnessEventType.ApprovalDecided || e.type === HarnessEventType.TurnFinished) void this.refreshGrants(e.session_id);
  }

  /** refreshGrants reloads the grants of one open chat, or of every one. */
  async refreshGrants(sessionId?: string) {
    for (const id of sessionId ? [sessionId] : Object.keys(this.chats)) {
      try {
        const grants = await api.chatGrants(id);
        const c = this.chats[id];
        if (c) c.grants = grants;
      } catch {
        // the chat closed meanwhile
      }
    }
  }

  /** revokeGrant takes back a chat's grant of a tool: its next call asks. */
  async revokeGrant(sessionId: string, tool: string) {
    try {
      await api.revokeChatGrant(sessionId, tool);
    } catch (e) {
      this.notify("error", (e as Error).message);
    }
    await this.refreshGrants(sessionId);
  }

  /**
   * setUnreconciled sets how many calls of a listed chat still wait for
   * reconciliation (after one was reconciled in Activity), so its
   * attention dot goes without reloading the list.
   */
  setUnreconciled(sessionId: string, n: number) {
    this.chatList = this.chatList.map((s) => (s.id === sessionId ? { ...s, unreconciled: n || undefined } : s));
  }

  /** loadChats reads the first page of the chat list from the journal. */
  async loadChats() {
    try {
      const p = await api.chats("", this.showHidden);
      this.chatList = p.sessions ?? [];
      this.chatListNext = p.next;
      this.chatListError = "";
    } catch (e) {
      this.chatListError = (e as Error).message;
    }
  }

  /** moreChats adds the next older page to the chat list. */
  async moreChats() {
    if (!this.chatListNext) return;
    try {
      const p = await api.chats(this.chatListNext, this.showHidden);
      this.chatList = appendPage(this.chatList, p.sessions ?? []);
      this.chatListNext = p.next;
    } catch (e) {
      this.notify("error", (e as Error).message);
    }
  }

  /** setShowHidden switches hidden chats on or off in the list and in search results. */
  async setShowHidden(on: boolean) {
    this.showHidden = on;
    await this.loadChats();
    if (this.searchText.trim()) this.search(this.searchText, true);
  }

  /** onChatChanged puts a chat as the journal lists it now (a chat:changed event) in the list. */
  onChatChanged(s: JournalSession) {
    if (!s || !s.id) return;
    this.chatList = upsertChat(this.chatList, s, this.showHidden, this.chatListNext === "");
    if (this.searchResults) this.searchResults = this.searchResults.map((c) => (c.id === s.id ? s : c)).filter((c) => !c.hidden || this.showHidden);
  }

  /**
   * search asks the journal for the chats whose titles or messages hold
   * every word of text, SEARCH_DEBOUNCE_MS after the last call (at once
   * when now); empty text ends the search. A slower, older answer never
   * replaces a newer one.
   */
  search(text: string, now = false) {
    this.searchText = text;
    if (this.#searchTimer) this.#searchTimer();
    this.#searchTimer = undefined;
    const seq = ++this.#searchSeq;
    if (!text.trim()) {
      this.searchResults = null;
      return;
    }
    const run = async () => {
      try {
        const found = await api.searchChats(text, this.showHidden);
        if (seq !== this.#searchSeq) return;
        this.searchResults = found;
        this.searchSnippets = {};
        const snippets = found.length ? await api.chatSnippets(text, found.map((c) => c.id)) : {};
        if (seq === this.#searchSeq) this.searchSnippets = snippets;
      } catch (e) {
        if (seq === this.#searchSeq) this.notify("error", (e as Error).message);
      }
    };
    if (now) void run();
    else this.#searchTimer = this.clock.after(SEARCH_DEBOUNCE_MS, () => void run());
  }

  /** openListedChat shows a chat of the list: as it is when open here, else continued (as Activity's Continue chat). */
  async openListedChat(sessionId: string): Promise<boolean> {
    return this.continueChat(sessionId);
  }

  /** renameChat journals a title for the chat; false (and an error toast) when refused. */
  async renameChat(sessionId: string, title: string): Promise<boolean> {
    try {
      this.onChatChanged(await api.renameChat(sessionId, title));
      return true;
    } catch (e) {
      this.notify("error", (e as Error).message);
      return false;
    }
  }

  /**
   * hideChat is the list's delete: the chat is closed if it is open here,
   * then hidden from the list (nothing is deleted: Activity still has it),
   * with an "Undo" toast that shows it again.
   */
  async hideChat(sessionId: string) {
    if (this.chats[sessionId]) await this.closeChat(sessionId);
    try {
      const s = await api.hideChat(sessionId, true);
      this.onChatChanged(s);
      const undo: NoticeAction = { label: "Undo", run: () => void this.unhideChat(sessionId) };
      this.notify("info", `Removed “${chatTitle(s)}” from the list. It stays in the journal: Activity still has it.`, "app", "chat-hidden", undo);
    } catch (e) {
      this.notify("error", (e as Error).message);
    }
  }

  /** unhideChat shows a hidden chat in the list again. */
  async unhideChat(sessionId: string) {
    try {
      this.onChatChanged(await api.hideChat(sessionId, false));
    } catch (e) {
      this.notify("error", (e as Error).message);
    }
  }

  /** countInbox refreshes the Inbox badge from the journal. */
  async countInbox() {
    try {
      this.inboxOpen = await api.inboxCount();
    } catch {
      // the journal's own banner says why
    }
  }

  /** countWaiting refreshes the Activity badge from the journal. */
  async countWaiting() {
    try {
      this.waiting = (await api.needsAttention()).sessions;
    } catch {
      // the journal's own banner says why
    }
  }

  async openChat(coworker: string) {
    try {
      const info = await api.openChat(coworker);
      this.chats[info.session_id] = { info, state: emptyChat(), error: "", grants: [] };
      this.chatOrder = [...this.chatOrder, info.session_id];
      this.view = { name: "chat", sessionId: info.session_id };
    } catch (e) {
      this.notify("error", (e as Error).message);
    }
  }

  /**
   * continueChat opens a journaled session as a chat (or shows it if it is
   * open), with its earlier messages and tool calls. A refusal (a changed
   * coworker or app, docs/identity.md) is shown as an error banner. Returns whether
   * the chat is open.
   */
  async continueChat(sessionId: string): Promise<boolean> {
    if (this.chats[sessionId]) {
      this.view = { name: "chat", sessionId };
      return true;
    }
    try {
      const info = await api.resumeChat(sessionId);
      const detail = await api.sessionDetail(sessionId);
      this.chats[info.session_id] = { info, state: historyState(detail, info.tools ?? []), error: "", grants: [] };
      this.chatOrder = [...this.chatOrder, info.session_id];
      this.view = { name: "chat", sessionId: info.session_id };
      return true;
    } catch (e) {
      this.notify("error", (e as Error).message);
      return false;
    }
  }

  async closeChat(sessionId: string) {
    try {
      await api.closeChat(sessionId);
    } catch (e) {
      this.notify("error", (e as Error).message);
    }
    delete this.chats[sessionId];
    this.chatOrder = this.chatOrder.filter((id) => id !== sessionId);
    if (this.view.name === "chat" && this.view.sessionId === sessionId) this.view = { name: "coworkers" };
  }

  /** retry runs the chat's last turn again (after it failed, stopped or was cancelled). */
  async retry(sessionId: string) {
    const c = this.chats[sessionId];
    if (!c) return;
    c.error = "";
    try {
      await api.retry(sessionId);
    } catch (e) {
      c.error = (e as Error).message;
    }
  }

  async send(sessionId: string, prompt: string) {
    const c = this.chats[sessionId];
    if (!c) return;
    c.error = "";
    try {
      await api.send(sessionId, prompt);
    } catch (e) {
      c.error = (e as Error).message;
    }
  }
}

/** A question of an app view waiting for the person (AppState.askView). */
export interface ViewAskItem {
  id: number;
  kind: "message" | "link";
  sessionId: string;
  /** The tool whose view asks. */
  tool: string;
  coworker: string;
  /** The message, or the link's URL. */
  text: string;
  resolve: (yes: boolean) => void;
}

export const app = new AppState();

/** start loads the first data and subscribes to every Go event. */
export async function start() {
  api.on(AppEvent.Harness, (p) => app.onHarnessEvent(p as HarnessEvent));
  api.on(AppEvent.ApprovalRequest, (p) => (app.approvals = addApproval(app.approvals, p as PendingApproval)));
  api.on(AppEvent.ApprovalClosed, (p) => (app.approvals = closeApproval(app.approvals, p as ApprovalClosed)));
  api.on(AppEvent.ElicitationAsked, (p) => (app.questions = addQuestion(app.questions, p as PendingElicitation)));
  api.on(AppEvent.ElicitationClosed, (p) => {
    const c = p as ElicitationClosed;
    const shown = app.questions.some((q) => q.question.id === c.id);
    app.questions = closeQuestion(app.questions, c);
    if (shown && c.reason && c.reason !== "answered") app.notify("warning", c.reason, "app");
  });
  api.on(AppEvent.InboxChanged, (p) => {
    app.inboxOpen = (p as { open: number }).open;
    app.inboxChanged++;
  });
  // A click on an item's notification (docs/app.md#notifications): the
  // Inbox, at that item.
  api.on(AppEvent.InboxOpen, (p) => {
    app.inboxItem = (p as { item: string }).item;
    app.view = { name: "inbox" };
  });
  api.on(AppEvent.SchedulesChanged, () => app.schedulesChanged++);
  api.on(AppEvent.CoworkersChanged, (p) => (app.coworkers = p as CoworkerList));
  api.on(AppEvent.SignIn, (p) => (app.signIns = [...app.signIns, p as SignInRequest]));
  api.on(AppEvent.SignInClosed, (p) => (app.signIns = app.signIns.filter((r) => r.id !== (p as string))));
  api.on(AppEvent.Notice, (p) => app.appNotice(p as Notice));
  api.on(AppEvent.BundleDropped, (p) => {
    const path = (p as BundleDropped).paths?.[0];
    if (!path) return;
    app.dropped = path;
    app.view = { name: "coworkers" };
  });
  api.on(AppEvent.AgentsDropped, (p) => {
    const paths = (p as BundleDropped).paths ?? [];
    if (!paths.length) return;
    app.droppedAgents = paths;
    app.view = { name: "coworkers" };
  });
  api.on(AppEvent.ChatChanged, (p) => app.onChatChanged(p as JournalSession));
  api.on(AppEvent.ExtensionOpened, (p) => {
    const e = p as ExtensionOpened;
    if (e.error) {
      const n = extensionNotice(e);
      app.notify(n.level, n.message, "app");
    } else app.openExtension(e.path);
  });
  // A focus move into an app view's iframe is not leaving the window (lib/windowfocus.ts).
  trackWindowFocus(browserPage(), (focused) => void api.setWindowFocused(focused));
  try {
    app.info = await api.info();
    if (app.info.theme) theme.set(asTheme(app.info.theme));
    // On a first start the setup says what to do about the model, not a warning.
    if (app.info.first_run) app.setup = true;
    for (const n of app.info.notices ?? []) if (!(app.info.first_run && n.key === "model")) app.appNotice(n);
    if (app.info.runtime_error) app.notify("error", app.info.runtime_error, "app");
    else if (app.info.model_error && !app.info.first_run) app.notify("warning", app.info.model_error, "app", "model"); // Go's NoticeKeyModel
    app.coworkers = await api.coworkers();
    app.approvals = await api.pendingApprovals();
    app.questions = await api.pendingElicitations();
    void app.countWaiting();
    void app.countInbox();
    void app.loadChats();
    if (app.info.start_coworker) await app.openChat(app.info.start_coworker);
  } catch (e) {
    app.notify("error", (e as Error).message, "app");
  }
}
