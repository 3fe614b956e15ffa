package bundle

import (
	"fmt"
	"unicode"
	"unicode/utf8"
)

// checkText refuses text that would be unsafe to show or to log: invalid
// UTF-8, control characters (tab and newline only when multiline) and the
// Unicode bidirectional formatting controls that can make text display in a
// different order than it is stored ("Trojan Source", CVE-2021-42574).
// Letters of any script, including right-to-left ones, and emoji are kept
// verbatim. max counts characters.
func checkText(field, s string, multiline bool, max int) error {
	if !utf8.ValidString(s) {
		return fmt.Errorf("%s is not valid UTF-8", field)
	}
	if n := utf8.RuneCountInString(s); n > max {
		return fmt.Errorf("%s is %d characters long; the limit is %d", field, n, max)
	}
	for i, r := range s {
		if multiline && (r == '\n' || r == '\t') {
			continue
		}
		if unicode.IsControl(r) {
			return fmt.Errorf("%s holds the control character %U at byte %d", field, r, i)
		}
		if isBidiControl(r) {
			return fmt.Errorf("%s holds the bidirectional formatting character %U at byte %d, which can disguise text", field, r, i)
		}
	}
	return nil
}

func isBidiControl(r rune) bool {
	switch {
	case r == 0x061C, r == 0x200E, r == 0x200F:
		return true
	case r >= 0x202A && r <= 0x202E:
		return true
	case r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

func decodeRune(b []byte) (rune, int) { return utf8.DecodeRune(b) }
