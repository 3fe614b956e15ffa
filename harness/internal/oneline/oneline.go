// Package oneline makes text from servers, models and files safe and
// short for one line of a terminal or a report: the CLI's tables and the
// doctor's facts use it.
package oneline

import "github.com/openworker/desktop/internal/termsafe"

// Cut returns text with its control characters (newlines, escapes) and
// bidirectional controls rendered visibly as \uXXXX escapes, cut to at
// most n runes, ending in "…" when cut (termsafe.Cut;
// docs/cli.md#sanitised-output).
func Cut(text string, n int) string { return termsafe.Cut(text, n) }
