//go:build unix

package servers

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/openworker/desktop/harness/mcp"
)

// TestStartErrorRedactsSubstitutedArgs: a server that prints a value
// substituted into its arguments on stderr and exits: the start error
// quotes its stderr with that value replaced by the field and variable.
func TestStartErrorRedactsSubstitutedArgs(t *testing.T) {
	fakeHome(t, t.TempDir())
	p := writeConfig(t, t.TempDir(), ".mcp.json", `{"mcpServers": {"leaky": {"command": "/bin/sh", "args": ["-c", "echo \"got $0\" >&2; exit 3", "${LEAK_TOKEN}"]}}}`)
	cfg, err := ReadConfig(p, &ConfigOptions{LookupEnv: func(k string) (string, bool) { return "tok3n-LEAK-value", k == "LEAK_TOKEN" }})
	if err != nil || cfg.Err() != nil {
		t.Fatalf("ReadConfig = %v, %v", err, cfg.Err())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	pr, err := mcp.Connect(ctx, cfg.Entries[0].Server, nil)
	if err == nil {
		pr.Close()
		t.Fatal("Connect succeeded")
	}
	if strings.Contains(err.Error(), "tok3n-LEAK-value") || !strings.Contains(err.Error(), "stderr: got [args[2] from ${LEAK_TOKEN}]") {
		t.Errorf("Connect = %v; want the value named by its field and variable", err)
	}
}
