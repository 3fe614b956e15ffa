package cli

import (
	"regexp"
	"strings"
	"testing"
)

// psReadsBack models what PowerShell (Windows' default shell) does with
// one word of the printed command: in a "…" string $name, $(…), ${…}
// expand and ` escapes; \" does not escape (the string ends there); an
// unquoted word with a comma is an array, passed to a native program as
// several arguments. It says why the word would not come back as is.
func psReadsBack(word string) string {
	if strings.HasPrefix(word, "'") && strings.HasSuffix(word, "'") && len(word) >= 2 {
		return "" // PowerShell takes a '…' word as it is ('' for a ')
	}
	if strings.HasPrefix(word, `"`) && strings.HasSuffix(word, `"`) && len(word) >= 2 {
		in := word[1 : len(word)-1]
		switch {
		case regexp.MustCompile(`\$[A-Za-z_{(?]`).MatchString(in):
			return "PowerShell expands the $ variable inside double quotes"
		case strings.Contains(in, "`"):
			return "PowerShell takes ` for its escape inside double quotes"
		case strings.Contains(in, `\"`):
			return `PowerShell ends the string at \" (its escape is ` + "`" + `")`
		}
		return ""
	}
	if strings.Contains(word, ",") {
		return "PowerShell reads an unquoted a,b as an array: two arguments"
	}
	return ""
}

// TestShellJoinForPowerShell: Windows file names with $, ` or a comma are
// printed so that PowerShell reads them back as they are.
func TestShellJoinForPowerShell(t *testing.T) {
	for _, db := range []string{
		`C:\Users\ann\$work\journal.db`,
		`C:\Users\ann\my $work\journal.db`,
		`C:\Users\ann\a` + "`" + `b\journal.db`,
		`C:\Users\ann\Smith, Ann\journal.db`,
		`C:\Users\ann\x,y\journal.db`,
	} {
		got := shellJoinFor("windows", []string{"openworker", "journal", "list", "--db", db})
		word := strings.TrimPrefix(got, "openworker journal list --db ")
		if why := psReadsBack(word); why != "" {
			t.Errorf("%s: printed as %s: %s", db, word, why)
		}
	}
}
