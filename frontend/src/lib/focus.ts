// holdFocus keeps the keyboard in a modal dialog (docs/consent.md#answering-in-the-app):
// a press on the backdrop does not take the focus away from it, and focus
// that leaves the dialog for nothing (the page body: a press outside, a
// native dialog that took the window) comes back to it, so its keys
// (Alt+letter, Esc) keep working. Focus taken by another element, such as
// a second dialog on top, is left there. Every modal dialog uses it, so it
// also counts the dialog open (lib/modals.svelte.ts: the toasts wait).
import { modals } from "./modals.svelte";

export function holdFocus(node: HTMLElement) {
  const overlay = node.parentElement;
  modals.open++;
  const down = (e: MouseEvent) => {
    if (e.target === overlay) {
      e.preventDefault();
      node.focus();
    }
  };
  const out = (e: FocusEvent) => {
    const to = e.relatedTarget as Node | null;
    if (to && node.contains(to)) return;
    queueMicrotask(() => {
      const at = document.activeElement;
      if (node.isConnected && (at === null || at === document.body)) node.focus();
    });
  };
  overlay?.addEventListener("mousedown", down);
  node.addEventListener("focusout", out);
  return {
    destroy() {
      modals.open--;
      overlay?.removeEventListener("mousedown", down);
      node.removeEventListener("focusout", out);
    },
  };
}
