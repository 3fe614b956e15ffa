package journal

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestDocsListChainedTables: docs/journal.md's list of the chained tables
// (under "Hash chain and verify") names exactly the tables of
// chainedTables, the ones Verify checks.
func TestDocsListChainedTables(t *testing.T) {
	doc, err := os.ReadFile("../../docs/journal.md")
	if err != nil {
		t.Fatal(err)
	}
	const start, end = "Every insert into or update of a chained table — ", " —\nappends"
	text := strings.ReplaceAll(string(doc), "\r\n", "\n")
	i := strings.Index(text, start)
	j := strings.Index(text[max(i, 0):], end)
	if i < 0 || j < 0 {
		t.Fatalf("docs/journal.md lacks the list of chained tables (%q … %q)", start, end)
	}
	list := text[i+len(start) : i+j]
	list = list[:strings.Index(list, "(")] // the names, before "(chainedTables in …)"
	var documented []string
	for _, m := range regexp.MustCompile("`([a-z_]+)`").FindAllStringSubmatch(list, -1) {
		documented = append(documented, m[1])
	}
	var code []string
	for _, ct := range chainedTables {
		code = append(code, ct.name)
	}
	slices.Sort(documented)
	slices.Sort(code)
	if !slices.Equal(documented, code) {
		t.Errorf("docs/journal.md lists the chained tables %v; chainedTables has %v", documented, code)
	}
}
