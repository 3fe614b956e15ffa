// Package termsafe makes text from models, servers, tools, bundles and
// configuration files safe to print on a terminal: every character a
// terminal could act on (C0 and C1 controls, ESC and so every CSI, OSC
// and DCS sequence, DEL, bidirectional overrides and other invisible
// format characters) is rendered visibly as its \uXXXX escape, and every
// byte that is not UTF-8 as \xNN. The \u form means the same character
// inside a JSON string, so JSON output stays valid JSON with the same
// meaning. See docs/cli.md#sanitised-output.
package termsafe

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Visible reports whether r may reach a terminal as it is. keepLines lets
// newline and tab through (text of several lines); without it they are
// escaped too (one line of a table or a log).
func Visible(r rune, keepLines bool) bool {
	switch {
	case r == '\n' || r == '\t':
		return keepLines
	case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0:
		return false // C0, DEL, C1 (0x9b is CSI on 8-bit terminals)
	case r == 0x200d:
		return true // zero-width joiner: emoji sequences, harmless
	case r == 0x2028 || r == 0x2029:
		return false // line and paragraph separators
	case unicode.Is(unicode.Bidi_Control, r), unicode.Is(unicode.Cf, r):
		return false // bidi overrides and isolates, zero-width and tag characters
	case r == utf8.RuneError:
		return true // an encoded U+FFFD; invalid bytes are handled by the caller
	}
	return true
}

// Text returns s with newlines and tabs kept and everything else a
// terminal could act on escaped.
func Text(s string) string { return render(s, true) }

// Line returns s as one line: newlines, tabs and every other control
// character escaped, so a server cannot forge lines of an audit view.
func Line(s string) string { return render(s, false) }

// Cut is Line cut to at most n runes, ending in "…" when cut; the cut
// never splits an escape.
func Cut(s string, n int) string {
	if n <= 0 {
		return ""
	}
	var pieces []string
	for i := 0; i < len(s); {
		piece, size := escapeAt(s, i, false)
		pieces = append(pieces, piece)
		i += size
		if len(pieces) > n {
			break
		}
	}
	if len(pieces) <= n {
		return strings.Join(pieces, "")
	}
	return strings.Join(pieces[:n-1], "") + "…"
}

func render(s string, keepLines bool) string {
	clean := true
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || !Visible(r, keepLines) {
			clean = false
			break
		}
		i += size
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		piece, size := escapeAt(s, i, keepLines)
		b.WriteString(piece)
		i += size
	}
	return b.String()
}

// escapeAt returns the rendering of the rune (or invalid byte) at s[i:]
// and how many bytes it took.
func escapeAt(s string, i int, keepLines bool) (string, int) {
	r, size := utf8.DecodeRuneInString(s[i:])
	switch {
	case r == utf8.RuneError && size == 1:
		return fmt.Sprintf(`\x%02x`, s[i]), 1
	case Visible(r, keepLines):
		return s[i : i+size], size
	case r > 0xffff: // as JSON spells it: a UTF-16 surrogate pair
		hi, lo := utf16.EncodeRune(r)
		return fmt.Sprintf(`\u%04x\u%04x`, hi, lo), size
	}
	return fmt.Sprintf(`\u%04x`, r), size
}

// FirstRaw returns the byte offset of the first character in s that a
// terminal could act on, or -1 when there is none: what tests assert of
// every command's output.
func FirstRaw(s string, keepLines bool) int {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || !Visible(r, keepLines) {
			return i
		}
		i += size
	}
	return -1
}
