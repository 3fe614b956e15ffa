package cli

import (
	"runtime"
	"strings"
	"unicode"
	"unicode/utf8"
)

// shellJoin joins args into a command line the person's shell reads
// back as args (shellJoinFor of this system).
func shellJoin(args []string) string { return shellJoinFor(runtime.GOOS, args) }

// shellJoinFor joins args for the shells of goos. Words of letters,
// digits and -_./=:@%+ stay as they are (and a comma, but not on
// Windows, where PowerShell reads a,b as two arguments). Elsewhere than
// Windows any other word is quoted for a POSIX shell ('…'). On Windows a
// backslash is plain too (C:\Users\ann\journal.db is left as it is), and
// any other word is put in double quotes, which cmd.exe and PowerShell
// both read (single quotes are no quotes to cmd.exe, which passed 'C:\…'
// on with its quotes); a double quote in it is written \" (no file name
// has one). A word with $ or ` is single-quoted for PowerShell, Windows'
// default shell, which expands $name and escapes with ` inside double
// quotes. cmd.exe expands a set %NAME% whatever the quotes: such a word is
// printed as it is.
func shellJoinFor(goos string, args []string) string {
	plain := "-_./=:@%+,"
	if goos == "windows" {
		plain = "-_./=:@%+" + `\`
	}
	out := make([]string, len(args))
	for i, a := range args {
		safe := a != ""
		for _, r := range a {
			if !(r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune(plain, r))) {
				safe = false
				break
			}
		}
		switch {
		case safe:
			out[i] = a
		case goos == "windows" && strings.ContainsAny(a, "$`"):
			out[i] = "'" + strings.ReplaceAll(a, "'", "''") + "'"
		case goos == "windows":
			out[i] = `"` + strings.ReplaceAll(a, `"`, `\"`) + `"`
		default:
			out[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return strings.Join(out, " ")
}
