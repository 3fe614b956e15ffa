import { describe, expect, it } from "vitest";
import { decisionForKey } from "./consentkeys";
import { shortcutForKey, shortcutLabel, shortcuts, stepChat, type ShortcutKey } from "./shortcuts";

const key = (o: Partial<ShortcutKey>): ShortcutKey => ({
  key: "", code: "", altKey: false, metaKey: false, ctrlKey: false, shiftKey: false, isComposing: false, ...o,
});

describe("shortcutForKey", () => {
  it("maps Ctrl on Linux and Windows", () => {
    expect(shortcutForKey(key({ key: "n", code: "KeyN", ctrlKey: true }), false, false)).toBe("new-chat");
    expect(shortcutForKey(key({ key: ",", code: "Comma", ctrlKey: true }), false, false)).toBe("settings");
    expect(shortcutForKey(key({ key: "l", code: "KeyL", ctrlKey: true }), false, false)).toBe("focus-composer");
    expect(shortcutForKey(key({ key: "Tab", code: "Tab", ctrlKey: true }), false, false)).toBe("next-chat");
    expect(shortcutForKey(key({ key: "Tab", code: "Tab", ctrlKey: true, shiftKey: true }), false, false)).toBe("previous-chat");
    expect(shortcutForKey(key({ key: "PageDown", code: "PageDown", ctrlKey: true }), false, false)).toBe("next-chat");
    expect(shortcutForKey(key({ key: "PageUp", code: "PageUp", ctrlKey: true }), false, false)).toBe("previous-chat");
  });

  it("maps ⌘ on macOS, and Ctrl there does nothing but switch chats", () => {
    expect(shortcutForKey(key({ key: "n", code: "KeyN", metaKey: true }), true, false)).toBe("new-chat");
    expect(shortcutForKey(key({ key: ",", code: "Comma", metaKey: true }), true, false)).toBe("settings");
    expect(shortcutForKey(key({ key: "n", code: "KeyN", ctrlKey: true }), true, false)).toBeNull();
    expect(shortcutForKey(key({ key: "Tab", code: "Tab", ctrlKey: true }), true, false)).toBe("next-chat");
    expect(shortcutForKey(key({ key: "PageDown", code: "PageDown", metaKey: true }), true, false)).toBeNull();
    expect(shortcutForKey(key({ key: "n", code: "KeyN", ctrlKey: true }), false, false)).toBe("new-chat");
  });

  it("reads the letter from the key code on other layouts", () => {
    // A Cyrillic layout types "т" on the N key.
    expect(shortcutForKey(key({ key: "т", code: "KeyN", ctrlKey: true }), false, false)).toBe("new-chat");
    expect(shortcutForKey(key({ key: "n", ctrlKey: true }), false, false)).toBe("new-chat");
  });

  it("leaves text editing alone", () => {
    for (const k of ["a", "c", "v", "x", "z", "y", "ArrowLeft", "Backspace", "Enter", "Home"]) {
      const code = /^[a-z]$/.test(k) ? `Key${k.toUpperCase()}` : k;
      expect(shortcutForKey(key({ key: k, code, ctrlKey: true }), false, false), `Ctrl+${k}`).toBeNull();
      expect(shortcutForKey(key({ key: k, code, metaKey: true }), true, false), `⌘${k}`).toBeNull();
      expect(shortcutForKey(key({ key: k, code }), false, false), k).toBeNull();
    }
    expect(shortcutForKey(key({ key: "N", code: "KeyN", ctrlKey: true, shiftKey: true }), false, false)).toBeNull();
    expect(shortcutForKey(key({ key: "Tab", code: "Tab" }), false, false)).toBeNull(); // focus moves as usual
    expect(shortcutForKey(key({ key: "/", code: "Slash" }), false, false)).toBeNull();
  });

  it("never matches Alt, AltGr or an input method, so the consent answers stay the dialog's", () => {
    expect(shortcutForKey(key({ key: "n", code: "KeyN", ctrlKey: true, altKey: true }), false, false)).toBeNull(); // AltGr
    expect(shortcutForKey(key({ key: "n", code: "KeyN", ctrlKey: true, isComposing: true }), false, false)).toBeNull();
    for (const letter of ["O", "S", "A", "D"]) {
      for (const mac of [false, true]) {
        const ev = key({ key: letter.toLowerCase(), code: `Key${letter}`, altKey: !mac, metaKey: mac });
        expect(decisionForKey(ev, mac), `${letter} mac=${mac}`).not.toBeNull();
        expect(shortcutForKey(ev, mac, false), `${letter} mac=${mac}`).toBeNull();
      }
    }
  });

  it("is off while a dialog is open", () => {
    for (const s of [key({ key: "n", code: "KeyN", ctrlKey: true }), key({ key: ",", code: "Comma", ctrlKey: true }), key({ key: "Tab", code: "Tab", ctrlKey: true })]) {
      expect(shortcutForKey(s, false, true)).toBeNull();
    }
  });
});

describe("stepChat", () => {
  it("walks the chats in order and wraps", () => {
    expect(stepChat(["a", "b", "c"], "a", 1)).toBe("b");
    expect(stepChat(["a", "b", "c"], "c", 1)).toBe("a");
    expect(stepChat(["a", "b", "c"], "a", -1)).toBe("c");
    expect(stepChat(["a", "b", "c"], null, 1)).toBe("a");
    expect(stepChat(["a", "b", "c"], null, -1)).toBe("c");
    expect(stepChat(["a", "b", "c"], "gone", 1)).toBe("a");
    expect(stepChat([], null, 1)).toBe("");
  });
});

describe("shortcut labels", () => {
  it("name each action on both platforms", () => {
    expect(shortcutLabel("new-chat", false)).toBe("Ctrl+N");
    expect(shortcutLabel("new-chat", true)).toBe("⌘N");
    expect(shortcutLabel("settings", false)).toBe("Ctrl+,");
    expect(new Set(shortcuts.map((s) => s.action)).size).toBe(shortcuts.length);
  });
});
