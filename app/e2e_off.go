//go:build !e2e

package app

import (
	"log/slog"

	"github.com/openworker/desktop/harness/journal"
)

// startTestHook is a no-op outside e2e builds (see e2e_hook.go).
func startTestHook(*desktop) {}

// noteSearch is a no-op outside e2e builds (see e2e_hook.go).
func noteSearch(string, []journal.Session) {}

// noteChatsLoaded is a no-op outside e2e builds (see e2e_hook.go).
func noteChatsLoaded() {}

// noteExtensionOpened is a no-op outside e2e builds (see e2e_hook.go).
func noteExtensionOpened(ExtensionOpened) {}

// noteExtensionPreview is a no-op outside e2e builds (see e2e_hook.go).
func noteExtensionPreview(string, error) {}

// wrapOpener returns next outside e2e builds (see e2e_hook.go).
func wrapOpener(next Opener, _ *slog.Logger) Opener { return next }

// noteViewShown is a no-op outside e2e builds (see e2e_hook.go).
func noteViewShown(string, string, [4]int) {}

// noteViewRefused is a no-op outside e2e builds (see e2e_hook.go).
func noteViewRefused(string, string, string) {}

// noteProbe is a no-op outside e2e builds (see e2e_hook.go).
func noteProbe(*ModelList, *ConnectionTest) {}

// noteOllama is a no-op outside e2e builds (see e2e_hook.go).
func noteOllama(OllamaFound) {}

// noteEditor is a no-op outside e2e builds (see e2e_hook.go).
func noteEditor(string) {}

// noteCoworkers is a no-op outside e2e builds (see e2e_hook.go).
func noteCoworkers(CoworkerList) {}
