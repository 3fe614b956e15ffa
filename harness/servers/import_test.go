package servers

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func itemNamed(t *testing.T, p *ImportPlan, name string) ImportItem {
	t.Helper()
	for _, it := range p.Items {
		if it.Name == name {
			return it
		}
	}
	t.Fatalf("no item %q in %+v", name, p.Items)
	return ImportItem{}
}

// Importing Claude Desktop's file into an existing servers.json keeps the
// current entries, adds the good ones as written ($$ stays literal), skips
// the broken one with its line, keeps a backup, and a second import adds
// nothing.
func TestImportClaudeDesktop(t *testing.T) {
	dir := t.TempDir()
	dest := filepath.Join(dir, "servers.json")
	const current = `{
  // mine
  "servers": {
    "lights": {"transport": "streamable_http", "url": "http://127.0.0.1:8931/mcp"},
    "filesystem": {"transport": "stdio", "command": "my-fs"}
  }
}
`
	if err := os.WriteFile(dest, []byte(current), 0o600); err != nil {
		t.Fatal(err)
	}
	from := readFixture(t, filepath.Join("testdata", "configs", "claude-desktop", "claude_desktop_config.json"), nil)
	p, err := PlanImport(from, readFixture(t, dest, nil), dest)
	if err != nil {
		t.Fatal(err)
	}
	if p.Format != "claude-desktop" || p.Kept != 2 {
		t.Fatalf("format %q, kept %d; want claude-desktop, 2", p.Format, p.Kept)
	}
	aws := itemNamed(t, p, "awslabs.core-mcp-server")
	if aws.Action != ImportAdd || aws.Namespace != "awslabs_core-mcp-server" || aws.Transport != "stdio" ||
		aws.Target != "uvx awslabs.core-mcp-server@latest" || strings.Join(aws.EnvKeys, ",") != "DB_PASSWORD,FASTMCP_LOG_LEVEL,NOTE" ||
		aws.Placement != "on this computer" {
		t.Fatalf("awslabs item: %+v", aws)
	}
	if len(aws.Notices) == 0 {
		t.Errorf("no notice for the derived namespace and the ignored _comment: %+v", aws)
	}
	fs := itemNamed(t, p, "filesystem")
	if fs.Action != ImportSkip || !strings.Contains(fs.Why, dest+":5") || !strings.Contains(fs.Why, "rename") {
		t.Fatalf("filesystem (taken namespace): %+v", fs)
	}
	bad := itemNamed(t, p, "no-command")
	if bad.Action != ImportSkip || !strings.Contains(bad.Why, "claude_desktop_config.json:") {
		t.Fatalf("no-command: %+v", bad)
	}
	if len(p.Notices) == 0 {
		t.Errorf("no notice for the ignored top-level keys")
	}
	if p.Added() != 1 {
		t.Fatalf("added %d, want 1", p.Added())
	}
	if err := p.Write(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(dest + ".bak"); string(b) != current {
		t.Fatalf("backup = %q, want the file as it was", b)
	}
	after := readFixture(t, dest, nil)
	if after.Format != "openworker" || len(after.Entries) != 3 {
		t.Fatalf("written file: format %q, %d entries", after.Format, len(after.Entries))
	}
	for _, e := range after.Entries {
		if e.Err != nil {
			t.Fatalf("written entry %q: %v", e.Name, e.Err)
		}
		if e.Name == "awslabs_core-mcp-server" {
			if got := e.Server.Env["DB_PASSWORD"]; got != "pa$$word" {
				t.Errorf("DB_PASSWORD = %q after the round trip, want pa$$word", got)
			}
			if got := e.Server.Env["NOTE"]; got != "$HOME and ${HOME}" {
				t.Errorf("NOTE = %q after the round trip, want it verbatim", got)
			}
		}
	}

	again, err := PlanImport(from, after, dest)
	if err != nil {
		t.Fatal(err)
	}
	if again.Added() != 0 || itemNamed(t, again, "awslabs.core-mcp-server").Action != ImportSame {
		t.Fatalf("second import: %+v", again.Items)
	}
	before, _ := os.ReadFile(dest)
	if err := again.Write(); err != nil {
		t.Fatal(err)
	}
	if now, _ := os.ReadFile(dest); string(now) != string(before) {
		t.Fatal("a plan that adds nothing rewrote the file")
	}
}

// Secrets never appear in what the plan shows, and inputs stay references.
func TestImportShowsNoSecret(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "mcp.json")
	os.WriteFile(src, []byte(`{"mcpServers": {
  "remote": {"url": "https://user:hunter22@mcp.example.com/mcp?key=s3cr3tkey", "headers": {"Authorization": "Bearer tok-abcdef"}},
  "local": {"command": "srv", "args": ["--token", "tok-abcdef"], "env": {"API_TOKEN": "tok-abcdef"}}
}}`), 0o600)
	p, err := PlanImport(readFixture(t, src, nil), nil, filepath.Join(dir, "out", "servers.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range p.Items {
		for _, s := range []string{"hunter22", "s3cr3tkey", "tok-abcdef"} {
			if strings.Contains(it.Target, s) {
				t.Errorf("%s: target %q shows %q", it.Name, it.Target, s)
			}
		}
	}
	if r := itemNamed(t, p, "remote"); r.Placement != "mcp.example.com" || r.Target != "https://mcp.example.com/mcp" {
		t.Errorf("remote: %+v", r)
	}
	if err := p.Write(); err != nil { // the dest folder does not exist yet
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "out", "servers.json.bak")); err == nil {
		t.Error("a backup of a file that did not exist")
	}
}

// A servers file in use whose entry cannot be written again stops the
// import before anything is written.
func TestImportRefusesToLoseAnEntry(t *testing.T) {
	dir := t.TempDir()
	dest := filepath.Join(dir, "servers.json")
	os.WriteFile(dest, []byte(`{"servers": {"broken": {"transport": "stdio"}}}`), 0o600)
	from := readFixture(t, filepath.Join("testdata", "configs", "claude-desktop", "claude_desktop_config.json"), nil)
	_, err := PlanImport(from, readFixture(t, dest, nil), dest)
	if err == nil || !strings.Contains(err.Error(), dest+":1") || !strings.Contains(err.Error(), "broken") {
		t.Fatalf("err = %v, want one naming %s:1 and the entry", err, dest)
	}
}

// Credentials in arguments are hidden in what the plan shows (they are
// still written as they are: the file is the person's own, mode 0600).
func TestImportHidesCredentialsInArguments(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "mcp.json")
	os.WriteFile(src, []byte(`{"mcpServers": {
  "db": {"command": "npx", "args": ["-y", "@x/srv", "--api-key", "KEYVALUE1234", "--token=TOKVALUE5678", "postgresql://admin:PGPASSsecret@db.internal/app", "sk-live-ARGKEY123456789", "--verbose", "plain"]}
}}`), 0o600)
	p, err := PlanImport(readFixture(t, src, nil), nil, filepath.Join(dir, "servers.json"))
	if err != nil {
		t.Fatal(err)
	}
	got := itemNamed(t, p, "db").Target
	want := "npx -y @x/srv --api-key [redacted] --token=[redacted] postgresql://admin:[redacted]@db.internal/app [redacted] --verbose plain"
	if got != want {
		t.Fatalf("target\n got %s\nwant %s", got, want)
	}
}

// An entry that could never load from the written file is skipped with
// its own error; one that only waits for a value is added; a namespace the
// binary has already is skipped, naming what holds it.
func TestImportSkipsWhatWouldNotLoad(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "mcp.json")
	os.WriteFile(src, []byte(`{"mcpServers": {
  "remote": {"url": "http://10.1.2.3:8080/mcp"},
  "waits": {"command": "srv", "env": {"K": "${UNSET_FOR_THIS_TEST}"}},
  "device": {"command": "other-device"}
}}`), 0o600)
	from, err := ReadConfig(src, &ConfigOptions{Format: FormatClaudeCode, LookupEnv: func(string) (string, bool) { return "", false }})
	if err != nil {
		t.Fatal(err)
	}
	p, err := PlanImportInto(from, nil, filepath.Join(dir, "servers.json"), map[string]string{"device": "the built-in MCP provider"})
	if err != nil {
		t.Fatal(err)
	}
	if r := itemNamed(t, p, "remote"); r.Action != ImportSkip || !strings.Contains(r.Why, src+":2:") || !strings.Contains(r.Why, "10.1.2.3") {
		t.Errorf("remote: %+v", r)
	}
	if w := itemNamed(t, p, "waits"); w.Action != ImportAdd {
		t.Errorf("waits (only a variable missing): %+v", w)
	}
	if d := itemNamed(t, p, "device"); d.Action != ImportSkip || !strings.Contains(d.Why, "the built-in MCP provider") || !strings.Contains(d.Why, src+":4") {
		t.Errorf("device: %+v", d)
	}
}

// A servers.json that is a symbolic link stays one: the file it points to
// is written (and backed up beside it).
func TestImportWritesThroughALink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "dotfiles", "servers.json")
	os.MkdirAll(filepath.Dir(real), 0o700)
	os.WriteFile(real, []byte(`{"servers": {}}`), 0o600)
	link := filepath.Join(dir, "servers.json")
	if err := os.Symlink(real, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	src := filepath.Join(dir, "mcp.json")
	os.WriteFile(src, []byte(`{"mcpServers": {"a": {"command": "srv"}}}`), 0o600)
	p, err := PlanImport(readFixture(t, src, nil), readFixture(t, link, nil), link)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Write(); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v %v", fi.Mode(), err)
	}
	if c := readFixture(t, real, nil); len(c.Entries) != 1 {
		t.Fatalf("the linked file has %d entries, want 1", len(c.Entries))
	}
	if _, err := os.Stat(real + ".bak"); err != nil {
		t.Fatal("no backup beside the linked file:", err)
	}
}

// ImportKept picks the file whose entries an import keeps, and refuses
// the cases where writing dest would lose a file.
func TestImportKept(t *testing.T) {
	dir := t.TempDir()
	dest := filepath.Join(dir, "servers.json")
	claude := filepath.Join(dir, "claude_desktop_config.json")
	os.WriteFile(claude, []byte(`{"mcpServers": {"a.b": {"command": "x"}}}`), 0o600)

	if _, err := ReadConfig(dest, nil); !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), dest+" does not exist") {
		t.Errorf("ReadConfig of a missing file = %v; want fs.ErrNotExist, naming it", err)
	}
	for _, current := range []string{"", dest, filepath.Join(dir, "gone.json")} {
		if cfg, err := ImportKept(current, dest); cfg != nil || err != nil {
			t.Errorf("ImportKept(%q) with no file = %v, %v; want nothing to keep", current, cfg, err)
		}
	}
	// The app uses Claude Desktop's file: its entries move into dest.
	cfg, err := ImportKept(claude, dest)
	if err != nil || cfg == nil || cfg.Path != claude || len(cfg.Entries) != 1 {
		t.Fatalf("ImportKept(claude) = %+v, %v", cfg, err)
	}
	// ... unless dest exists too: one would be written over the other.
	os.WriteFile(dest, []byte(`{"servers": {}}`), 0o600)
	if _, err := ImportKept(claude, dest); err == nil || !strings.Contains(err.Error(), "choose "+dest+" in Settings first") {
		t.Errorf("ImportKept with both files = %v", err)
	}
	if cfg, err := ImportKept(dest, dest); err != nil || cfg == nil || cfg.Format != FormatOpenWorker {
		t.Errorf("ImportKept(dest) = %+v, %v", cfg, err)
	}
	// A destination in another client's form is never rewritten.
	if _, err := ImportKept("", claude); err == nil || !strings.Contains(err.Error(), claude+" is a claude-desktop file") {
		t.Errorf("ImportKept into Claude Desktop's file = %v", err)
	}
	os.WriteFile(dest, []byte(`{"servers": {`), 0o600)
	if _, err := ImportKept("", dest); err == nil || !strings.Contains(err.Error(), "the servers file in use: "+dest+":1") {
		t.Errorf("ImportKept of a malformed file = %v", err)
	}
}

// An entry whose input is not answered yet, or that is disabled, shows
// what it becomes: its command line with the references (in the
// product's form: ${env:X} is written ${X}), and the names of its
// variables and headers, never a value.
func TestImportShowsEntriesWithoutValues(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, ".vscode", "mcp.json")
	os.MkdirAll(filepath.Dir(src), 0o755)
	os.WriteFile(src, []byte(`{
  "inputs": [{"type": "promptString", "id": "key", "description": "API key", "password": true}],
  "servers": {
    "ask": {"type": "stdio", "command": "npx", "args": ["-y", "srv", "--key", "${input:key}", "--verbose"], "env": {"API_KEY": "${input:key}", "MODE": "fast"}},
    "web": {"type": "http", "url": "https://mcp.example.com/${input:key}/mcp", "headers": {"X-Key": "${input:key}"}},
    "off": {"type": "stdio", "command": "node", "args": ["${env:HOME_OF_SERVER}/server.js"], "env": {"DB_PASSWORD": "hunter22"}, "disabled": true}
  }
}`), 0o600)
	p, err := PlanImport(readFixture(t, src, nil), nil, filepath.Join(dir, "servers.json"))
	if err != nil {
		t.Fatal(err)
	}
	ask := itemNamed(t, p, "ask")
	if ask.Action != ImportAdd || ask.Target != "npx -y srv --key ${input:key} --verbose" || strings.Join(ask.EnvKeys, ",") != "API_KEY,MODE" || strings.Join(ask.Inputs, ",") != "key" {
		t.Errorf("ask = %+v", ask)
	}
	if web := itemNamed(t, p, "web"); web.Target != "https://mcp.example.com/${input:key}/mcp" || strings.Join(web.EnvKeys, ",") != "X-Key" {
		t.Errorf("web = %+v", web)
	}
	off := itemNamed(t, p, "off")
	if !off.Disabled || off.Target != "node ${HOME_OF_SERVER}/server.js" || strings.Join(off.EnvKeys, ",") != "DB_PASSWORD" {
		t.Errorf("off = %+v", off)
	}
	for _, it := range p.Items {
		if strings.Contains(it.Target, "hunter22") {
			t.Errorf("%s shows a value: %q", it.Name, it.Target)
		}
	}
}
