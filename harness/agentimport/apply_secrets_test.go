package agentimport

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A recipe's extension with a token written in "envs": with
// ServersTarget.Secrets, the token is kept there and the servers file
// names an input instead (docs/servers.md#secrets-move-to-the-keychain).
func TestApplyMovesServerSecrets(t *testing.T) {
	dir := t.TempDir()
	cw, file := filepath.Join(dir, "coworkers"), filepath.Join(dir, "servers.json")
	recipe := writeFile(t, filepath.Join(dir, "src", "recipe.yaml"), "title: Hub\ninstructions: Use GitHub.\nextensions:\n  - type: stdio\n    name: hub\n    cmd: hub-mcp\n    envs:\n      GITHUB_TOKEN: ghp_recipeSecret0123456789abcdefghijkl\n")
	kept := map[string]string{}
	p, err := Preview([]string{recipe}, &Options{Coworkers: cw, Servers: &ServersTarget{Dest: file,
		Secrets: func(id, _, value string) error { kept[id] = value; return nil }}})
	if err != nil || p.Refused() || p.Servers.Added() != 1 {
		t.Fatalf("plan = %+v, %v", p, err)
	}
	if s := p.Servers.Secrets(); len(s) != 1 || s[0].Field != "env.GITHUB_TOKEN" {
		t.Fatalf("secrets to move = %+v", s)
	}
	if _, err := Apply(p); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(file)
	if strings.Contains(string(data), "ghp_recipeSecret") || !strings.Contains(string(data), `"${input:hub-GITHUB_TOKEN}"`) {
		t.Errorf("servers.json:\n%s", data)
	}
	if kept["hub-GITHUB_TOKEN"] != "ghp_recipeSecret0123456789abcdefghijkl" {
		t.Errorf("kept = %v", kept)
	}
}
