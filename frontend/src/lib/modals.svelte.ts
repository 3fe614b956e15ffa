// The modal dialogs open now. Each one keeps the focus with holdFocus
// (lib/focus.ts), which counts it in when it opens and out when it closes.
// While one is open the toasts wait (docs/app.md#dialogs-and-toasts):
// Notices.svelte draws none and info ones do not fade unseen
// (state.svelte.ts releaseNotices gives them their time once it closes).
export const modals = $state({ open: 0 });
