// Keyboard rules of the consent dialog (docs/consent.md#answering-in-the-app):
// an answer needs the platform's modifier plus a letter, and nothing
// answers during the first ARM_MS milliseconds after a prompt appears.
import type { Decision } from "./types";

/** How long (milliseconds) the answers stay inert after a prompt appears. */
export const ARM_MS = 500;

/** The letter of each answer, as shown in the hints and matched on KeyboardEvent.code. */
export const answerKeys: ReadonlyArray<{ letter: string; decision: Decision }> = [
  { letter: "O", decision: "allow_once" },
  { letter: "S", decision: "allow_session" },
  { letter: "A", decision: "allow_always" },
  { letter: "D", decision: "deny" },
];

/** The parts of navigator that tell macOS apart (userAgentData is Chromium-only). */
export interface PlatformInfo {
  platform?: string;
  userAgent?: string;
  userAgentData?: { platform?: string };
}

/** isMacPlatform reports whether shortcuts use ⌘ (Meta) rather than Alt. */
export function isMacPlatform(nav: PlatformInfo | undefined = globalThis.navigator as PlatformInfo | undefined): boolean {
  if (!nav) return false;
  const p = nav.userAgentData?.platform || nav.platform || "";
  if (p) return /^mac/i.test(p);
  return /Macintosh|Mac OS X/.test(nav.userAgent || "");
}

/** shortcutHint is the visible hint for a letter: "Alt+O", or "⌘O" on macOS. */
export function shortcutHint(letter: string, mac: boolean): string {
  return mac ? `⌘${letter}` : `Alt+${letter}`;
}

/** ariaShortcut is the aria-keyshortcuts value for a letter: "Alt+O" or "Meta+O". */
export function ariaShortcut(letter: string, mac: boolean): string {
  return mac ? `Meta+${letter}` : `Alt+${letter}`;
}

/**
 * decisionForKey maps a keydown to an answer, or null. Only the platform's
 * modifier (Alt, or Meta on macOS) with no Ctrl and no Shift counts: a bare
 * letter, Shift+letter and AltGr (Ctrl+Alt on Windows, which types
 * characters) never answer. The letter is read from ev.code, because
 * Option+A on macOS and Alt+A on some layouts change ev.key.
 */
export function decisionForKey(
  ev: Pick<KeyboardEvent, "key" | "code" | "altKey" | "metaKey" | "ctrlKey" | "shiftKey">,
  mac: boolean,
): Decision | null {
  const mod = mac ? ev.metaKey && !ev.altKey : ev.altKey && !ev.metaKey;
  if (!mod || ev.ctrlKey || ev.shiftKey) return null;
  const letter = /^Key([A-Z])$/.exec(ev.code || "")?.[1] ?? (ev.key.length === 1 ? ev.key.toUpperCase() : "");
  return answerKeys.find((k) => k.letter === letter)?.decision ?? null;
}
