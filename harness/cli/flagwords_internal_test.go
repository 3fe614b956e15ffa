package cli

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/openworker/desktop/harness/tool"
)

// flagWordsAllowed are the hits TestHarnessNamesNoCLIFlag still lets
// through, by file (relative to harness/) and the flag or command named:
// none now.
var flagWordsAllowed = map[string][]string{}

// TestHarnessNamesNoCLIFlag: no string literal in a non-test .go file
// under harness/, outside harness/cli, names a flag harness/cli defines
// (--db, --servers, …, read from the commands themselves) or a whole
// `openworker COMMAND` of its top-level commands. The harness states the
// fix in words; harness/cli adds its flags when it prints (cliHint).
// Hits left to another branch are listed in flagWordsAllowed, and an
// entry there that no longer matches fails too, so that the list shrinks.
func TestHarnessNamesNoCLIFlag(t *testing.T) {
	root := (&config{}).rootCommand(tool.NewRegistry())
	flags, commands := cliWords(root)
	if len(flags) < 10 || !slices.Contains(flags, "db") || !slices.Contains(commands, "journal") {
		t.Fatalf("the CLI's flags %v and commands %v miss --db or journal: the walk is broken", flags, commands)
	}
	words := regexp.MustCompile(`--(` + alternation(flags) + `)(?:[^A-Za-z0-9_-]|$)|\bopenworker (` + alternation(commands) + `)\b`)

	found := map[string][]string{} // file → what it names
	fset := token.NewFileSet()
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(path, ".."+string(filepath.Separator)))
		if d.IsDir() {
			if rel == "cli" || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				t.Errorf("%s: %v", fset.Position(lit.Pos()), err)
				return true
			}
			for _, m := range words.FindAllStringSubmatch(s, -1) {
				what := "--" + m[1]
				if m[2] != "" {
					what = "openworker " + m[2]
				}
				if !slices.Contains(flagWordsAllowed[rel], what) {
					t.Errorf("%s: the string %q names %s, a CLI flag or command: state the fix in words and let harness/cli add its hint", fset.Position(lit.Pos()), s, what)
				}
				if !slices.Contains(found[rel], what) {
					found[rel] = append(found[rel], what)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for file, allowed := range flagWordsAllowed {
		for _, what := range allowed {
			if !slices.Contains(found[file], what) {
				t.Errorf("flagWordsAllowed lets %s name %s, which it no longer does: remove the entry", file, what)
			}
		}
	}
}

// cliWords are the names of every flag of root's command tree and of its
// top-level commands.
func cliWords(root *cobra.Command) (flags, commands []string) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		add := func(f *pflag.Flag) {
			if !slices.Contains(flags, f.Name) {
				flags = append(flags, f.Name)
			}
		}
		c.LocalFlags().VisitAll(add)
		c.PersistentFlags().VisitAll(add)
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	for _, c := range root.Commands() {
		commands = append(commands, c.Name())
	}
	return flags, commands
}

// alternation is names as a regexp alternation, longest first so that
// --coworkers is not read as --coworker.
func alternation(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = regexp.QuoteMeta(n)
	}
	slices.SortFunc(q, func(a, b string) int { return len(b) - len(a) })
	return strings.Join(q, "|")
}
