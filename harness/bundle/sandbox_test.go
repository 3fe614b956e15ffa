package bundle

import (
	"strings"
	"testing"
)

// TestRequiresSandboxKey: requires_sandbox: true is read; a value that is
// not a boolean is an error at its line naming the key and what it takes.
func TestRequiresSandboxKey(t *testing.T) {
	tools := `{"version": 3, "tools": ["files.read_file"]}`
	dir := writeBundle(t, "strict", map[string]string{
		"coworker/manifest.md": "---\nid: strict\nname: Strict\nrequires_sandbox: true\n---\nHelp.\n",
		"coworker/tools.json":  tools,
	})
	if b, err := Load(dir); err != nil || !b.RequiresSandbox {
		t.Fatalf("Load = %+v, %v; want RequiresSandbox", b, err)
	}
	dir = writeBundle(t, "vague", map[string]string{
		"coworker/manifest.md": "---\nid: vague\nname: Vague\nrequires_sandbox: maybe\n---\nHelp.\n",
		"coworker/tools.json":  tools,
	})
	_, err := Load(dir)
	if err == nil || !strings.Contains(err.Error(), "manifest.md:4:") || !strings.Contains(err.Error(), "requires_sandbox must be true or false") {
		t.Errorf("Load with maybe = %v", err)
	}
}
