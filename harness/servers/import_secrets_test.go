package servers

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zalando/go-keyring"
)

// claudeWithSecrets is another client's file with a token and an
// Authorization header written as they are.
const claudeWithSecrets = `{"mcpServers": {
  "github": {"command": "github-mcp", "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "ghp_abcdefghijklmnopqrstuvwxyz0123456789", "LOG_LEVEL": "debug"}},
  "crm": {"type": "http", "url": "https://crm.example.com/mcp", "headers": {"Authorization": "Bearer crm-secret-0123456789", "Accept": "application/json"}}
}}`

func planSecretsImport(t *testing.T) (*ImportPlan, string) {
	t.Helper()
	dir := t.TempDir()
	from := filepath.Join(dir, "claude_desktop_config.json")
	if err := os.WriteFile(from, []byte(claudeWithSecrets), 0o600); err != nil {
		t.Fatal(err)
	}
	dest := filepath.Join(dir, "servers.json")
	p, err := PlanImport(readFixture(t, from, &ConfigOptions{Format: FormatClaudeDesktop}), nil, dest)
	if err != nil {
		t.Fatal(err)
	}
	return p, dest
}

// Importing moves each literal secret of env and headers to the keychain:
// servers.json holds ${input:ID} instead, and reading it with the keychain
// gives the server the secret.
func TestImportMovesSecretsToKeychain(t *testing.T) {
	keyring.MockInit()
	p, dest := planSecretsImport(t)
	var ids []string
	for _, s := range p.Secrets() {
		ids = append(ids, s.Namespace+" "+s.Field+" "+s.Input)
	}
	if got, want := strings.Join(ids, "; "), "github env.GITHUB_PERSONAL_ACCESS_TOKEN github-GITHUB_PERSONAL_ACCESS_TOKEN; crm headers.Authorization crm-header-Authorization"; got != want {
		t.Fatalf("Secrets() = %s, want %s", got, want)
	}
	if err := p.WriteMoving(nil, SetInput); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(dest)
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"ghp_abcdefghijklmnopqrstuvwxyz0123456789", "crm-secret-0123456789"} {
		if strings.Contains(string(data), secret) {
			t.Fatalf("servers.json holds the secret %q:\n%s", secret, data)
		}
	}
	for _, want := range []string{`"${input:github-GITHUB_PERSONAL_ACCESS_TOKEN}"`, `"Bearer ${input:crm-header-Authorization}"`, `"debug"`, `"application/json"`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("servers.json lacks %s:\n%s", want, data)
		}
	}
	cfg, err := ReadConfig(dest, &ConfigOptions{Inputs: KeychainInputs(nil, nil)})
	if err != nil {
		t.Fatal(err)
	}
	byNS := map[string]ConfigEntry{}
	for _, e := range cfg.Entries {
		if e.Err != nil {
			t.Fatalf("%s: %v", e.Name, e.Err)
		}
		byNS[e.Server.Namespace] = e
	}
	if got := byNS["github"].Server.Env["GITHUB_PERSONAL_ACCESS_TOKEN"]; got != "ghp_abcdefghijklmnopqrstuvwxyz0123456789" {
		t.Errorf("github's token from the keychain = %q", got)
	}
	if got := byNS["crm"].Server.Headers["Authorization"]; got != "Bearer crm-secret-0123456789" {
		t.Errorf("crm's Authorization from the keychain = %q", got)
	}
}

// A secret the person keeps as written stays in servers.json; the others
// still move.
func TestImportKeepsUntickedSecretLiteral(t *testing.T) {
	keyring.MockInit()
	p, dest := planSecretsImport(t)
	if err := p.WriteMoving(map[string]bool{"crm-header-Authorization": true}, SetInput); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(dest)
	if !strings.Contains(string(data), `"Bearer crm-secret-0123456789"`) || strings.Contains(string(data), "ghp_") {
		t.Fatalf("servers.json:\n%s", data)
	}
	if strings.Contains(string(data), "crm-header-Authorization") {
		t.Errorf("an input definition for the secret kept as written:\n%s", data)
	}
}

// Without a keychain, nothing is written and the error says what to do.
func TestImportWithoutKeychainWritesNothing(t *testing.T) {
	keyring.MockInitWithError(os.ErrPermission)
	t.Cleanup(keyring.MockInit)
	p, dest := planSecretsImport(t)
	err := p.WriteMoving(nil, SetInput)
	if err == nil || !strings.Contains(err.Error(), `env.GITHUB_PERSONAL_ACCESS_TOKEN of server "github"`) || !strings.Contains(err.Error(), "untick") {
		t.Fatalf("WriteMoving without a keychain = %v", err)
	}
	if _, err := os.Stat(dest); !os.IsNotExist(err) {
		t.Errorf("servers.json written: %v", err)
	}
}

// A moved secret missing from the keychain (another computer, a cleared
// keychain) makes its entry fail, naming the file, the server and the input.
func TestImportedSecretMissingFromKeychain(t *testing.T) {
	keyring.MockInit()
	p, dest := planSecretsImport(t)
	if err := p.WriteMoving(nil, func(id, description, value string) error { return nil }); err != nil {
		t.Fatal(err)
	}
	cfg, err := ReadConfig(dest, &ConfigOptions{Inputs: KeychainInputs(nil, nil)})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range cfg.Entries {
		if e.Server.Namespace != "github" {
			continue
		}
		msg := ""
		if e.Err != nil {
			msg = e.Err.Error()
		}
		for _, want := range []string{dest, `"github"`, "github-GITHUB_PERSONAL_ACCESS_TOKEN", "answer it"} {
			if !strings.Contains(msg, want) {
				t.Errorf("error of github = %q, want it to name %q", msg, want)
			}
		}
	}
}

// A header made of a scheme and a reference ("Bearer ${env:TOKEN}") holds
// no secret: nothing moves.
func TestImportSchemeBeforeReferenceStays(t *testing.T) {
	dir := t.TempDir()
	from := filepath.Join(dir, "mcp.json")
	os.WriteFile(from, []byte(`{"servers": {"gh": {"type": "http", "url": "https://mcp.example.com/", "headers": {"Authorization": "Bearer ${env:GH_TOKEN}"}}}}`), 0o600)
	p, err := PlanImport(readFixture(t, from, &ConfigOptions{Format: FormatVSCode, LookupEnv: func(string) (string, bool) { return "", false }}), nil, filepath.Join(dir, "servers.json"))
	if err != nil {
		t.Fatal(err)
	}
	if s := p.Secrets(); len(s) != 0 {
		t.Errorf("Secrets() = %+v, want none", s)
	}
}
