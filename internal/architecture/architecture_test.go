package architecture

import (
	"bufio"
	"bytes"
	"context"
	"os/exec"
	"sort"
	"strings"
	"testing"
	"time"
)

const module = "github.com/openworker/desktop"

// rule forbids packages matching From to depend, directly or not, on a
// package matching To (docs/architecture.md#import-rules). Patterns are
// module-relative paths: "harness/..." is the folder and everything under
// it, "harness/tool" that package alone; a pattern with a dot is an
// import path outside the module ("github.com/wailsapp/...").
type rule struct {
	From, To string
	Except   []string // From packages the rule does not apply to
	Allow    []string // To packages the rule permits after all
	Why      string
}

// rules are the layers of docs/architecture.md#import-rules, as data.
var rules = []rule{
	{From: "harness/...", To: "app/...", Why: "the harness knows no window: it declares interfaces the app implements"},
	{From: "harness/...", To: "platform/...", Why: "the harness reaches the OS only through interfaces the app or CLI fill in"},
	{From: "harness/...", To: "tools/...", Why: "tools are registered by main, never imported by the harness"},
	{From: "harness/...", To: "github.com/wailsapp/...", Why: "only app/ touches Wails"},
	{From: "app/...", To: "harness/cli/...", Why: "the CLI is a leaf: the app uses the harness packages it is built on"},
	{From: "harness/cli/...", To: "app/...", Why: "the CLI never calls back into the app"},
	{From: "harness/tool/...", To: "harness/sandbox/...", Why: "the partner SDK carries the sandbox request as plain data"},
	{From: "harness/tool/...", To: "github.com/landlock-lsm/...", Why: "the partner SDK pulls in no sandbox mechanism"},
	{From: "harness/tool/...", To: "kernel.org/pub/linux/libs/security/libcap/...", Why: "the partner SDK pulls in no cgo (psx)"},
	{From: "harness/tool/...", To: "harness/mcp/...", Why: "the partner SDK depends on nothing of the runtime"},
	{From: "harness/tool/...", To: "harness/journal/...", Why: "the partner SDK depends on nothing of the runtime"},
	{From: "harness/servers/...", To: "harness/mcp/...", Why: "server files are parsed and written without a transport: the registry hands entries to harness/mcp"},
	{From: "harness/mcp/...", To: "harness/servers/...", Why: "a transport connects what it is given and never reads a client's config file"},
	{From: "harness/journal/...", To: "harness/...", Allow: []string{"harness/internal/...", "harness/journal/...", "harness/consent"}, Why: "a leaf imports no other harness package: the runtime composes them"},
	{From: "harness/consent/...", To: "harness/...", Allow: []string{"harness/internal/...", "harness/consent/..."}, Why: "a leaf imports no other harness package: the runtime composes them"},
	{From: "harness/model/...", To: "harness/...", Allow: []string{"harness/internal/...", "harness/model/..."}, Why: "a leaf imports no other harness package: the runtime composes them"},
	{From: "harness/elicit/...", To: "harness/...", Allow: []string{"harness/internal/...", "harness/elicit/...", "harness/tool"}, Why: "a leaf imports no other harness package: the runtime composes them"},
	{From: "platform/...", To: "harness/...", Why: "adapters know nothing of the harness"},
	{From: "platform/...", To: "app/...", Why: "adapters know nothing of the app"},
	{From: "platform/...", To: "github.com/wailsapp/...", Why: "only app/ touches Wails"},
	{From: "tools/...", To: "app/...", Why: "a tool depends on harness/tool and platform only"},
	{From: "tools/...", To: "harness/mcp/...", Why: "a tool depends on harness/tool and platform only"},
	{From: "tools/...", To: "harness/journal/...", Why: "a tool depends on harness/tool and platform only"},
	{From: "internal/redact/...", To: module + "/...", Why: "the redactor is a leaf every layer may use"},
}

// match reports whether the import path pkg matches pattern.
func match(pattern, pkg string) bool {
	if !strings.Contains(strings.SplitN(pattern, "/", 2)[0], ".") {
		pattern = module + "/" + pattern
	}
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		return pkg == base || strings.HasPrefix(pkg, base+"/")
	}
	return pkg == pattern
}

// violations applies rules to a dependency graph (package → its
// transitive dependencies) and returns one line per forbidden edge.
func violations(rules []rule, deps map[string][]string) []string {
	var out []string
	for pkg, ds := range deps {
		for _, r := range rules {
			if !match(r.From, pkg) || excepted(r, pkg) {
				continue
			}
			for _, d := range ds {
				if d != pkg && match(r.To, d) && !allowed(r, d) {
					out = append(out, strings.TrimPrefix(pkg, module+"/")+" → "+strings.TrimPrefix(d, module+"/")+": "+r.Why)
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

func allowed(r rule, dep string) bool {
	for _, a := range r.Allow {
		if match(a, dep) {
			return true
		}
	}
	return false
}

func excepted(r rule, pkg string) bool {
	for _, e := range r.Except {
		if match(e, pkg) {
			return true
		}
	}
	return false
}

// graph runs go list over the module with tags and returns each
// package's transitive dependencies.
func graph(t *testing.T, tags string) map[string][]string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to list the packages with")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	args := []string{"list", "-e", "-f", "{{.ImportPath}} {{join .Deps \" \"}}"}
	if tags != "" {
		args = append(args, "-tags", tags)
	}
	cmd := exec.CommandContext(ctx, goTool, append(args, module+"/...")...)
	cmd.Dir = root(t)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	deps := map[string][]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) > 0 {
			deps[f[0]] = f[1:]
		}
	}
	if len(deps) < 30 {
		t.Fatalf("go list found only %d packages", len(deps))
	}
	return deps
}

// TestImportRules: no package depends on one the architecture forbids,
// in the plain build and in the desktop build (the tags wails build
// uses, which bring in the window's files).
func TestImportRules(t *testing.T) {
	for _, tags := range []string{"", "desktop,production"} {
		if v := violations(rules, graph(t, tags)); len(v) > 0 {
			t.Errorf("forbidden imports (tags %q), docs/architecture.md#import-rules:\n%s", tags, strings.Join(v, "\n"))
		}
	}
}

// TestRulesCatchAnEdge: the checker finds an edge of each kind the
// architecture forbids, so TestImportRules passing means something.
func TestRulesCatchAnEdge(t *testing.T) {
	m := func(p string) string { return module + "/" + p }
	for _, c := range []struct{ from, to string }{
		{"app", "harness/cli"},
		{"harness/tool", "harness/sandbox"},
		{"harness/tool", "github.com/landlock-lsm/go-landlock/landlock"},
		{"harness/tool", "kernel.org/pub/linux/libs/security/libcap/psx"},
		{"harness/mcp", "app"},
		{"harness/journal/internal/journalgen", "app"},
		{"harness", "github.com/wailsapp/wails/v2/pkg/runtime"},
		{"harness/consent", "harness/journal"},
		{"harness/journal", "harness/tool"},
	} {
		to := c.to
		if !strings.Contains(strings.SplitN(to, "/", 2)[0], ".") {
			to = m(to)
		}
		got := violations(rules, map[string][]string{m(c.from): {to, m("harness/internal/jsonenc")}})
		if len(got) == 0 {
			t.Errorf("%s → %s: no violation reported", c.from, c.to)
		}
	}
	if got := violations(rules, map[string][]string{m("app"): {m("harness"), m("harness/mcp")}, m("harness/journal"): {m("harness/internal/atomicfile")}}); len(got) != 0 {
		t.Errorf("allowed edges reported: %q", got)
	}
}
