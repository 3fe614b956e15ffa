// App-wide reactive state (Svelte 5 runes) and the wiring of Go events to it.
import { api } from "./api";
import { AppEvent } from "./events";
import { addApproval, closeApproval, emptyChat, reduce, type ChatState } from "./chat";
import type { ApprovalClosed, AppInfo, ChatInfo, CoworkerList, HarnessEvent, Notice, PendingApproval } from "./types";

export type View = { name: "coworkers" } | { name: "chat"; sessionId: string } | { name: "activity" } | { name: "settings" };

export interface OpenChat {
  info: ChatInfo;
  state: ChatState;
  error: string;
}

class AppState {
  view = $state<View>({ name: "coworkers" });
  info = $state<AppInfo | null>(null);
  coworkers = $state<CoworkerList | null>(null);
  chats = $state<Record<string, OpenChat>>({});
  chatOrder = $state<string[]>([]);
  approvals = $state<PendingApproval[]>([]);
  notices = $state<Notice[]>([]);

  notify(level: Notice["level"], message: string) {
    this.notices = [...this.notices, { level, message }];
  }

  dismiss(i: number) {
    this.notices = this.notices.filter((_, j) => j !== i);
  }

  onHarnessEvent(e: HarnessEvent) {
    const c = this.chats[e.session_id];
    if (!c) return;
    c.state = reduce(c.state, e);
  }

  async openChat(coworker: string) {
    try {
      const info = await api.openChat(coworker);
      this.chats[info.session_id] = { info, state: emptyChat(), error: "" };
      this.chatOrder = [...this.chatOrder, info.session_id];
      this.view = { name: "chat", sessionId: info.session_id };
    } catch (e) {
      this.notify("error", (e as Error).message);
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

export const app = new AppState();

/** start loads the first data and subscribes to every Go event. */
export async function start() {
  api.on(AppEvent.Harness, (p) => app.onHarnessEvent(p as HarnessEvent));
  api.on(AppEvent.ApprovalRequest, (p) => (app.approvals = addApproval(app.approvals, p as PendingApproval)));
  api.on(AppEvent.ApprovalClosed, (p) => (app.approvals = closeApproval(app.approvals, p as ApprovalClosed)));
  api.on(AppEvent.CoworkersChanged, (p) => (app.coworkers = p as CoworkerList));
  api.on(AppEvent.Notice, (p) => app.notify((p as Notice).level, (p as Notice).message));
  window.addEventListener("focus", () => void api.setWindowFocused(true));
  window.addEventListener("blur", () => void api.setWindowFocused(false));
  try {
    app.info = await api.info();
    for (const n of app.info.notices ?? []) app.notify(n.level, n.message);
    if (app.info.runtime_error) app.notify("error", app.info.runtime_error);
    else if (app.info.model_error) app.notify("warning", app.info.model_error);
    app.coworkers = await api.coworkers();
    app.approvals = await api.pendingApprovals();
    if (app.info.start_coworker) await app.openChat(app.info.start_coworker);
  } catch (e) {
    app.notify("error", (e as Error).message);
  }
}
