package servers

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/openworker/desktop/harness/tool"
)

// fakeEnv replaces the environment seen by substitution for one test.
func fakeEnv(t *testing.T, env map[string]string) {
	t.Helper()
	old := lookupEnv
	lookupEnv = func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	t.Cleanup(func() { lookupEnv = old })
}

// fakeHome replaces the home folder for one test.
func fakeHome(t *testing.T, dir string) {
	t.Helper()
	old := homeDir
	homeDir = func() (string, error) { return dir, nil }
	t.Cleanup(func() { homeDir = old })
}

var testEnv = map[string]string{"ACER_TOKEN": "s3cret", "LIGHTS_TOKEN": "l1ghts", "EMPTY": ""}

// namedTool is a minimal native tool with a given qualified name.
type namedTool struct{ name string }

func (n namedTool) Descriptor() tool.Descriptor {
	return tool.Descriptor{Name: n.name, Version: "1.0.0", InputSchema: json.RawMessage(`{"type":"object"}`)}
}

func (namedTool) Call(context.Context, *tool.Call, json.RawMessage) (tool.Output, error) {
	return tool.Output{}, nil
}

func serversPath(name string) string { return filepath.Join("testdata", "servers", name) }
