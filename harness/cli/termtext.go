// Text from servers and models, made safe to show on a terminal.

package cli

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"unicode"
	"unicode/utf16"
)

// progressLine is what `run` prints for a progress notification
// (docs/cli.md#run-output): the server's message, made one safe line of at most
// 200 characters; without one, "N of M (P%)" when the server gave a
// total, "step N" without; "working…" when the numbers are unusable. The
// app's tool card shows the same (frontend/src/lib/progress.ts).
func progressLine(message string, data json.RawMessage) string {
	if m := oneLine(strings.TrimSpace(message), 200); m != "" {
		return m
	}
	var d struct {
		Progress *float64 `json:"progress"`
		Total    *float64 `json:"total"`
	}
	if json.Unmarshal(data, &d) != nil || d.Progress == nil || !usable(*d.Progress) {
		return "working…"
	}
	n := *d.Progress
	if d.Total != nil && usable(*d.Total) && *d.Total > 0 {
		t := *d.Total
		n = min(n, t)
		return fmt.Sprintf("%s of %s (%d%%)", number(n), number(t), int(math.Floor(n/t*100)))
	}
	return "step " + number(n)
}

// usable: a finite number from 0 to 2^53.
func usable(f float64) bool { return !math.IsNaN(f) && f >= 0 && f <= 1<<53 }

func number(f float64) string {
	if f == math.Trunc(f) {
		return fmt.Sprintf("%.0f", f)
	}
	return fmt.Sprintf("%.2f", f)
}

// visibleJSON shows JSON text on a terminal with every invisible format
// character (bidi overrides and isolates, zero-width ones, tags: Unicode
// category Cf) written as its \uXXXX escape, which means the same in
// JSON: a model cannot make the arguments of a call read differently
// from what will be sent.
func visibleJSON(s string) string {
	var b strings.Builder
	for _, r := range s {
		if !unicode.Is(unicode.Cf, r) {
			b.WriteRune(r)
			continue
		}
		for _, u := range utf16.Encode([]rune{r}) {
			fmt.Fprintf(&b, `\u%04x`, u)
		}
	}
	return b.String()
}
