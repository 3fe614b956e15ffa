package servers

import (
	"fmt"
	"strings"

	"github.com/openworker/desktop/harness/internal/jsonfile"
)

// misspelt names a key of entry that looks like a misspelling of one of
// want ("comand" for "command": another case, or at most two letters
// added, dropped or changed), as the fix of a missing key; "" when none does.
func misspelt(entry *jsonfile.Node, want ...string) string {
	for _, f := range entry.Fields {
		for _, w := range want {
			if f.Key != w && (strings.EqualFold(f.Key, w) || editDistance(f.Key, w) <= 2) {
				return fmt.Sprintf("%q (line %d) looks like a misspelling of %q: rename it", f.Key, f.Line, w)
			}
		}
	}
	return ""
}

// editDistance is the Levenshtein distance of two short ASCII keys.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
