package mcp

import (
	"context"
	"runtime"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness/tool"
)

func TestProviderEnviron(t *testing.T) {
	env := []string{"HOME=/home/ann", "PATH=/usr/bin", "OPENAI_API_KEY=sk-x", "ANTHROPIC_API_KEY=a", "GH_TOKEN=ghp_x",
		"LC_TIME=de_DE.UTF-8", "DISPLAY=:0", "=C:=C:\\", "AWS_SECRET_ACCESS_KEY=s"}
	got := strings.Join(providerEnviron(env, "linux"), " ")
	if got != "HOME=/home/ann PATH=/usr/bin LC_TIME=de_DE.UTF-8 DISPLAY=:0" {
		t.Errorf("linux: %s", got)
	}
	win := []string{"Path=C:\\Windows", "SystemRoot=C:\\Windows", "OPENAI_API_KEY=sk-x", "UserProfile=C:\\Users\\ann", "=C:=C:\\"}
	if got := strings.Join(providerEnviron(win, "windows"), " "); got != "Path=C:\\Windows SystemRoot=C:\\Windows UserProfile=C:\\Users\\ann" {
		t.Errorf("windows: %s", got)
	}
}

// A real child sees PATH and its entry's env, never the model API keys or
// other variables of OpenWorker's environment (docs/mcp.md#environment).
func TestStdioProviderInheritsOnlyTheListedEnvironment(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("uses sh")
	}
	t.Setenv("OPENAI_API_KEY", "sk-parent-key-should-not-pass")
	t.Setenv("SOME_OTHER_SECRET", "hunter2hunter2")
	srv := tool.MCPServer{Namespace: "envdump", Program: "sh", Args: []string{"-c", "env >&2; exit 3"},
		Env: map[string]string{"GIVEN": "by-the-entry"}}
	_, err := Connect(context.Background(), srv, nil)
	if err == nil {
		t.Fatal("Connect succeeded")
	}
	msg := err.Error()
	for _, want := range []string{"PATH=", "GIVEN=by-the-entry"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the child's environment lacks %s:\n%s", want, msg)
		}
	}
	for _, bad := range []string{"OPENAI_API_KEY", "SOME_OTHER_SECRET"} {
		if strings.Contains(msg, bad) {
			t.Errorf("the child inherited %s:\n%s", bad, msg)
		}
	}
}
