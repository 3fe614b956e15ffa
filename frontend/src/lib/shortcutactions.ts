// What each app-wide shortcut does (docs/app.md#keys); the keys are in
// shortcuts.ts.
import { app } from "./state.svelte";
import { stepChat, type ShortcutAction } from "./shortcuts";

/** runShortcut carries out action on the app state. */
export function runShortcut(action: ShortcutAction, doc: Document = document) {
  const v = app.view;
  const current = v.name === "chat" ? v.sessionId : null;
  switch (action) {
    case "new-chat": {
      const c = current ? app.chats[current] : undefined;
      if (c) void app.openChat(c.info.coworker);
      else app.view = { name: "coworkers" };
      return;
    }
    case "next-chat":
    case "previous-chat": {
      const id = stepChat(app.chatOrder, current, action === "next-chat" ? 1 : -1);
      if (id) app.view = { name: "chat", sessionId: id };
      return;
    }
    case "settings":
      app.view = { name: "settings" };
      return;
    case "focus-composer":
      doc.querySelector<HTMLTextAreaElement>(".composer textarea")?.focus();
      return;
  }
}
