// Whether the person is in the window, for "needs your approval"
// notifications (docs/app.md#notifications). A focus move into an app
// view's iframe blurs the top window but keeps the person in it: it never
// counts as leaving. While an iframe holds the focus, the top document
// gets no event when the person then leaves for another app, so
// document.hasFocus() (true while a frame inside has the focus) is polled.

/** What trackWindowFocus needs of the page; tests pass their own. */
export interface FocusPage {
  addEventListener(type: "focus" | "blur", f: () => void): void;
  removeEventListener(type: "focus" | "blur", f: () => void): void;
  /** document.hasFocus(): true while this document or a frame in it has the focus. */
  hasFocus(): boolean;
  /** document.activeElement's tag name, upper case ("IFRAME" while a frame has the focus). */
  activeTag(): string;
  setInterval(f: () => void, ms: number): unknown;
  clearInterval(id: unknown): void;
}

/** How often (ms) hasFocus is read while an iframe holds the focus. */
export const FRAME_POLL_MS = 1000;

/**
 * trackWindowFocus reports each change of "the person is in the window" to
 * report (true on focus, false on leaving), never a blur that went into an
 * iframe of the page. It returns a function that stops it.
 */
export function trackWindowFocus(page: FocusPage, report: (focused: boolean) => void): () => void {
  let last: boolean | undefined;
  let poll: unknown;
  const say = (v: boolean) => {
    if (v !== last) report((last = v));
  };
  const stopPoll = () => {
    if (poll !== undefined) page.clearInterval(poll);
    poll = undefined;
  };
  const focus = () => {
    stopPoll();
    say(true);
  };
  const blur = () => {
    // The focus went into a frame of the page (activeElement is already the
    // iframe when blur fires; hasFocus says so too): still in the window.
    if (page.activeTag() === "IFRAME" || page.hasFocus()) {
      say(true);
      stopPoll();
      poll = page.setInterval(() => {
        if (page.activeTag() === "IFRAME" && page.hasFocus()) return;
        stopPoll();
        say(page.hasFocus());
      }, FRAME_POLL_MS);
      return;
    }
    stopPoll();
    say(false);
  };
  page.addEventListener("focus", focus);
  page.addEventListener("blur", blur);
  return () => {
    stopPoll();
    page.removeEventListener("focus", focus);
    page.removeEventListener("blur", blur);
  };
}

/** browserPage is the real window and document. */
export function browserPage(): FocusPage {
  return {
    addEventListener: (t, f) => window.addEventListener(t, f),
    removeEventListener: (t, f) => window.removeEventListener(t, f),
    hasFocus: () => document.hasFocus(),
    activeTag: () => document.activeElement?.tagName ?? "",
    setInterval: (f, ms) => setInterval(f, ms),
    clearInterval: (id) => clearInterval(id as ReturnType<typeof setInterval>),
  };
}
