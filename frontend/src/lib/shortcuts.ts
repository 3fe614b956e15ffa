// App-wide keyboard shortcuts (docs/app.md#keys). The modifier is Ctrl on
// Linux and Windows and ⌘ (Meta) on macOS; switching chats uses Ctrl+Tab
// everywhere, as browsers do. None needs Alt, so none clashes with the
// consent dialog's answers (consentkeys.ts), and none is active while a
// dialog is open or an input method is composing.

export type ShortcutAction = "new-chat" | "next-chat" | "previous-chat" | "settings" | "focus-composer";

export type ShortcutKey = Pick<KeyboardEvent, "key" | "code" | "altKey" | "metaKey" | "ctrlKey" | "shiftKey" | "isComposing">;

/** Each shortcut: what it does, and its label on Linux/Windows and macOS. */
export const shortcuts: ReadonlyArray<{ action: ShortcutAction; what: string; pc: string; mac: string }> = [
  { action: "new-chat", what: "New chat with the coworker of this chat (elsewhere: choose a coworker)", pc: "Ctrl+N", mac: "⌘N" },
  { action: "next-chat", what: "Next chat", pc: "Ctrl+Tab or Ctrl+PageDown", mac: "⌃Tab" },
  { action: "previous-chat", what: "Previous chat", pc: "Ctrl+Shift+Tab or Ctrl+PageUp", mac: "⌃⇧Tab" },
  { action: "settings", what: "Settings", pc: "Ctrl+,", mac: "⌘," },
  { action: "focus-composer", what: "Go to the message box", pc: "Ctrl+L", mac: "⌘L" },
];

/** shortcutLabel is the label of action's keys on this platform ("Ctrl+N", "⌘N"). */
export function shortcutLabel(action: ShortcutAction, mac: boolean): string {
  const s = shortcuts.find((k) => k.action === action);
  return s ? (mac ? s.mac : s.pc) : "";
}

/**
 * shortcutForKey maps a keydown to an app-wide action, or null. dialogOpen
 * (the consent dialog or any other modal) turns every shortcut off. Letters
 * are read from ev.code, so other keyboard layouts and Shift do not change
 * them; AltGr (Ctrl+Alt) and any Alt combination never match.
 */
export function shortcutForKey(ev: ShortcutKey, mac: boolean, dialogOpen: boolean): ShortcutAction | null {
  if (dialogOpen || ev.isComposing || ev.altKey) return null;
  // Ctrl+Tab switches chats on every platform (⌘Tab belongs to macOS).
  if (ev.key === "Tab" && ev.ctrlKey && !ev.metaKey) return ev.shiftKey ? "previous-chat" : "next-chat";
  const mod = mac ? ev.metaKey && !ev.ctrlKey : ev.ctrlKey && !ev.metaKey;
  if (!mod) return null;
  if (!mac && !ev.shiftKey && (ev.key === "PageDown" || ev.key === "PageUp")) return ev.key === "PageDown" ? "next-chat" : "previous-chat";
  if (ev.shiftKey) return null;
  switch (ev.code || "") {
    case "KeyN":
      return "new-chat";
    case "Comma":
      return "settings";
    case "KeyL":
      return "focus-composer";
  }
  if (!ev.code) {
    if (ev.key === ",") return "settings";
    if (ev.key.toLowerCase() === "n") return "new-chat";
    if (ev.key.toLowerCase() === "l") return "focus-composer";
  }
  return null;
}

/**
 * stepChat is the chat after current in order (delta +1) or before it
 * (-1), wrapping around; from no chat (or one not in order), the first or
 * the last. "" when there are no chats.
 */
export function stepChat(order: readonly string[], current: string | null, delta: 1 | -1): string {
  if (order.length === 0) return "";
  const i = current === null ? -1 : order.indexOf(current);
  if (i < 0) return delta === 1 ? order[0] : order[order.length - 1];
  return order[(i + delta + order.length) % order.length];
}
