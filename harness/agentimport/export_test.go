package agentimport_test

import (
	"archive/zip"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/openworker/desktop/harness/agentimport"
	"github.com/openworker/desktop/harness/bundle"
	"github.com/openworker/desktop/harness/servers"
)

// secrets are written literally in the servers file of the exporter.
var secrets = []string{"ghp_exportedTokenValue0123456789", "Bearer-less-remote-key-9876", "hunter2-password-in-url"}

// TestExportImportRoundTrip: an exported coworker holds its bundle, its
// skill and the servers entries its tools name (not the others), with no
// secret value anywhere in the zip; importing it into a second coworkers
// folder makes the same coworker, which loads, and adds the servers with
// inputs in place of the secrets. A second import of it gets a new id.
func TestExportImportRoundTrip(t *testing.T) {
	dir := t.TempDir()
	cw1 := filepath.Join(dir, "one")
	if _, err := bundle.Create(cw1, bundle.Draft{ID: "helper", Name: "Helper", Description: "Helps.", Instructions: "Help with issues.",
		Tools: []string{"github.create_issue", "remote.search", "notification.show"}, Policy: map[string]string{"github.create_issue": "allow"}}); err != nil {
		t.Fatal(err)
	}
	skill := filepath.Join(dir, "skill", "triage")
	write(t, filepath.Join(skill, "SKILL.md"), "---\nname: triage\ndescription: Triage.\n---\nLabel it.\n")
	if _, err := bundle.AttachSkill(filepath.Join(cw1, "helper"), skill); err != nil {
		t.Fatal(err)
	}
	sf1 := write(t, filepath.Join(dir, "servers1.json"), `{"servers": {
  "github": {"transport": "stdio", "command": "github-mcp", "env": {"GITHUB_TOKEN": "`+secrets[0]+`"}},
  "remote": {"transport": "streamable_http", "url": "https://user:`+secrets[2]+`@mcp.example.com/mcp", "headers": {"X-Api-Key": "`+secrets[1]+`"}},
  "unused": {"transport": "stdio", "command": "unused-mcp", "env": {"API_KEY": "not-in-the-export-0000"}}
}}`)
	out := filepath.Join(dir, "helper.zip")
	ex, err := agentimport.Export(cw1, "helper", out, &agentimport.ExportOptions{Servers: sf1, BuiltIn: func(ns string) bool { return ns == "notification" }})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ex.Servers, []string{"github", "remote"}) || len(ex.Inputs) != 3 || len(ex.LeftOut) != 1 || !strings.HasPrefix(ex.LeftOut[0], "notification: a provider built into OpenWorker") {
		t.Errorf("exported = %+v", ex)
	}
	raw, _ := os.ReadFile(out)
	zr, err := zip.OpenReader(out)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	all := string(raw)
	for _, f := range zr.File {
		names = append(names, f.Name)
		r, _ := f.Open()
		data, _ := io.ReadAll(r)
		r.Close()
		all += string(data)
	}
	zr.Close()
	for _, s := range append(secrets, "not-in-the-export-0000", "unused-mcp") {
		if strings.Contains(all, s) {
			t.Errorf("the export holds %q", s)
		}
	}
	want := []string{"openworker-export.json", "helper/coworker/", "helper/coworker/manifest.md", "helper/coworker/skills/", "helper/coworker/skills/triage/",
		"helper/coworker/skills/triage/SKILL.md", "helper/coworker/tools.json", "servers.json"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("zip entries (-want +got):\n%s", diff)
	}

	// Into a second coworkers folder and servers file.
	cw2 := filepath.Join(dir, "two")
	sf2 := filepath.Join(dir, "servers2.json")
	opts := agentimport.Options{Coworkers: cw2, Catalog: registry, Servers: target(sf2)}
	p := preview(t, []string{out}, opts)
	if p.Refused() || len(p.Coworkers) != 1 {
		t.Fatalf("plan = %+v", p)
	}
	c := p.Coworkers[0]
	if c.ID != "helper" || c.Kind != agentimport.KindExport || !slices.Equal(c.Tools, []string{"github.create_issue", "remote.search", "notification.show"}) ||
		len(c.Unmapped) != 0 || !slices.Equal(c.Skills, []string{"triage"}) {
		t.Errorf("coworker = %+v", c)
	}
	if _, err := agentimport.Apply(p); err != nil {
		t.Fatal(err)
	}
	b, err := bundle.Load(filepath.Join(cw2, "helper"))
	if err != nil || len(b.Skills) != 1 || b.Policy["github.create_issue"] != "allow" {
		t.Fatalf("imported = %+v, %v", b, err)
	}
	m1, _ := os.ReadFile(filepath.Join(cw1, "helper", "coworker", "manifest.md"))
	m2, _ := os.ReadFile(filepath.Join(cw2, "helper", "coworker", "manifest.md"))
	if string(m1) != string(m2) {
		t.Errorf("manifest.md changed on the way:\n%s\n---\n%s", m1, m2)
	}
	cfg, err := servers.ReadConfig(sf2, nil)
	if err != nil || len(cfg.Entries) != 2 || len(cfg.Inputs()) != 3 {
		t.Fatalf("servers file = %+v, %v", cfg, err)
	}
	data, _ := os.ReadFile(sf2)
	for _, s := range secrets {
		if strings.Contains(string(data), s) {
			t.Errorf("the imported servers file holds %q", s)
		}
	}

	// Again: the id is taken, so it gets another, and the servers are
	// there already.
	p = preview(t, []string{out}, opts)
	if p.Refused() || p.Coworkers[0].ID != "helper-2" || p.Servers.Added() != 0 {
		t.Fatalf("second plan = %+v %+v", p.Coworkers[0], p.Servers)
	}
	if _, err := agentimport.Apply(p); err != nil {
		t.Fatal(err)
	}
	if b, err := bundle.Load(filepath.Join(cw2, "helper-2")); err != nil || b.ID != "helper-2" {
		t.Errorf("second import = %+v, %v", b, err)
	}

	// Without the servers: the tools of servers not added are not granted,
	// and their policy entries go with them.
	p = preview(t, []string{out}, agentimport.Options{Coworkers: filepath.Join(dir, "three"), Catalog: registry})
	if p.Refused() || !slices.Equal(p.Coworkers[0].Tools, []string{"notification.show"}) || len(p.Coworkers[0].Unmapped) != 2 {
		t.Fatalf("plan without a servers file = %+v, %q", p.Coworkers[0], p.Problems)
	}
	if _, err := agentimport.Apply(p); err != nil {
		t.Fatal(err)
	}
	if b, err := bundle.Load(filepath.Join(dir, "three", "helper")); err != nil || len(b.Policy) != 0 {
		t.Errorf("import without servers = %+v, %v", b, err)
	}
}
