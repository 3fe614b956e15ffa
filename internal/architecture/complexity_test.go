package architecture

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/fzipp/gocyclo"
)

// Complexity bounds of non-test code (docs/architecture.md#complexity):
// no function over maxComplexity, at most maxOverSoft functions over
// softComplexity.
const (
	maxComplexity  = 25
	softComplexity = 15
	maxOverSoft    = 40
)

// TestComplexity holds the cyclomatic complexity of the module's
// non-test functions (gocyclo, as `gocyclo -over N` counts it) to the
// bounds above, so a new feature decomposes its functions as it lands.
func TestComplexity(t *testing.T) {
	stats := gocyclo.Analyze([]string{root(t)}, regexp.MustCompile(`_test\.go$|node_modules`)).SortAndFilter(-1, softComplexity)
	var over []string
	for _, s := range stats {
		line := fmt.Sprintf("%d %s %s %s", s.Complexity, s.PkgName, s.FuncName, s.Pos)
		if s.Complexity > maxComplexity {
			t.Errorf("complexity %d is over %d: split it into named steps (docs/architecture.md#complexity): %s", s.Complexity, maxComplexity, line)
		}
		over = append(over, line)
	}
	if len(over) > maxOverSoft {
		t.Errorf("%d functions are over complexity %d, at most %d may be (docs/architecture.md#complexity); decompose some of:\n%s",
			len(over), softComplexity, maxOverSoft, strings.Join(over, "\n"))
	}
	t.Logf("%d functions over %d", len(over), softComplexity)
}
