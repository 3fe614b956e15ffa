package launch

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf16"
)

// Command line limits, in UTF-16 code units (docs/mcp.md#cmd-and-bat-shims).
const (
	// CmdLineMax is the longest command line cmd.exe reads.
	CmdLineMax = 8191
	// ExeLineMax is the longest command line CreateProcess takes, without
	// its terminating NUL.
	ExeLineMax = 32766
)

// CmdLine builds the Windows command line that runs the batch file script
// (.cmd or .bat, such as npx.cmd) with args through cmd.exe, each argument
// reaching the batch file literally (docs/mcp.md#cmd-and-bat-shims):
//
//	cmd.exe /e:ON /v:OFF /d /s /c ""C:\nodejs\npx.cmd" -y "a&b""
//
// The caller runs %SystemRoot%\System32\cmd.exe with this line as
// syscall.SysProcAttr.CmdLine. The rule is Rust std's fix of
// CVE-2024-24576 ("BatBadBut", library/std/src/sys/args/windows.rs,
// make_bat_command_line): /d skips AutoRun, /v:OFF keeps "!" literal, /e:ON
// keeps the "%" trick below working, /s strips exactly the outer quotes.
// An argument is quoted unless it is non-empty, has no trailing "\" and
// holds only ASCII letters, digits and # $ * + - . / : ? @ \ _ (and
// non-ASCII, non-control characters); inside the quotes & | < > ^ ( ) are
// literal, a '"' is doubled (with the backslashes before it doubled, as
// CommandLineToArgvW wants), the backslashes before the closing quote are
// doubled, and each "%" becomes "%%cd:~,%" (the empty substring of %cd%
// after a literal "%"), so %PATH% is never expanded.
//
// Refused, with an error naming the argument's position: a carriage
// return, line feed or NUL in an argument (cmd.exe ends the command
// there), a script path holding '"', "%", a line break, or ending
// in "\", and a built line longer than CmdLineMax (8191 UTF-16 units).
func CmdLine(script string, args []string) (string, error) {
	if strings.ContainsAny(script, "\"%\r\n\x00") || strings.HasSuffix(script, `\`) {
		return "", fmt.Errorf("batch file path %q cannot be run through cmd.exe: it holds '\"', '%%' or a line break, or ends in '\\'; move the program to a folder without them", script)
	}
	var b strings.Builder
	b.WriteString(`cmd.exe /e:ON /v:OFF /d /s /c ""`)
	b.WriteString(script)
	b.WriteByte('"')
	for i, a := range args {
		if strings.ContainsAny(a, "\r\n\x00") {
			return "", fmt.Errorf("argument %d (%q) of %s holds a line break or NUL, which cmd.exe cannot pass to a batch file; remove it from \"args\", or run the program the batch file starts (such as node.exe) directly", i+1, a, script)
		}
		b.WriteByte(' ')
		appendBatchArg(&b, a)
	}
	b.WriteByte('"')
	if n := utf16Len(b.String()); n > CmdLineMax {
		return "", fmt.Errorf("the command line of %s with its %d arguments is %d characters, over cmd.exe's limit of %d; give fewer or shorter \"args\", or run the program the batch file starts (such as node.exe) directly", script, len(args), n, CmdLineMax)
	}
	return b.String(), nil
}

// CheckExeLine refuses the command line os/exec would build for program
// (an .exe or .com) and args with QuoteArg when it is longer than
// ExeLineMax (32766 UTF-16 units), CreateProcess's limit of 32767 with
// the NUL; the error names the limit.
func CheckExeLine(program string, args []string) error {
	n := utf16Len(QuoteArg(program))
	for _, a := range args {
		n += 1 + utf16Len(QuoteArg(a))
	}
	if n > ExeLineMax {
		return fmt.Errorf("the command line of %s with its %d arguments is %d characters, over Windows' limit of 32767; give fewer or shorter \"args\"", program, len(args), n)
	}
	return nil
}

// utf16Len is the length of s in UTF-16 code units, as Windows counts.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// batchSafe are the ASCII symbols an argument may hold without quotes
// (Rust std's UNQUOTED).
const batchSafe = `#$*+-./:?@\_`

func appendBatchArg(b *strings.Builder, a string) {
	quote := batchNeedsQuotes(a)
	if quote {
		b.WriteByte('"')
	}
	backslashes := 0
	for _, r := range a {
		switch r {
		case '\\':
			backslashes++
			b.WriteRune(r)
			continue
		case '"':
			b.WriteString(strings.Repeat(`\`, backslashes)) // 2n backslashes before a quote
			b.WriteString(`""`)
		case '%':
			b.WriteString(`%%cd:~,%`)
		default:
			b.WriteRune(r)
		}
		backslashes = 0
	}
	if quote {
		b.WriteString(strings.Repeat(`\`, backslashes))
		b.WriteByte('"')
	}
}

// batchNeedsQuotes reports whether a needs quotes on a batch file's
// command line: it is empty, ends in a backslash, or holds an ASCII
// symbol other than batchSafe's, a space or a control character.
func batchNeedsQuotes(a string) bool {
	if a == "" || strings.HasSuffix(a, `\`) {
		return true
	}
	for _, r := range a {
		if r <= unicode.MaxASCII && !batchPlain(r) || unicode.IsControl(r) {
			return true
		}
	}
	return false
}

// batchPlain reports whether the ASCII rune r needs no quotes: a letter,
// a digit or one of batchSafe.
func batchPlain(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune(batchSafe, r)
}

// QuoteArg quotes one argument of a program other than a batch file by
// the rules CommandLineToArgvW and the C runtime read it back with. It is
// Go's syscall.EscapeArg (which os/exec uses for .exe programs on
// Windows) ported to every OS, so that the rule is tested everywhere:
// quotes only around an argument with a space or tab (or an empty one), a
// '"' as \" with the backslashes before it doubled, and the backslashes
// before a closing quote doubled.
func QuoteArg(s string) string {
	if s == "" {
		return `""`
	}
	needsBackslash := strings.ContainsAny(s, `"\`)
	hasSpace := strings.ContainsAny(s, " \t")
	if !needsBackslash && !hasSpace {
		return s
	}
	if !needsBackslash {
		return `"` + s + `"`
	}
	var b strings.Builder
	if hasSpace {
		b.WriteByte('"')
	}
	slashes := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		default:
			slashes = 0
		case '\\':
			slashes++
		case '"':
			b.WriteString(strings.Repeat(`\`, slashes+1))
		}
		b.WriteByte(c)
	}
	if hasSpace {
		b.WriteString(strings.Repeat(`\`, slashes))
		b.WriteByte('"')
	}
	return b.String()
}
