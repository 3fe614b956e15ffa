package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckShowsSkills: check lists the skills tools of a coworker with
// skills and prints the bundle's notices (text and --json), and the
// coworker is ok.
func TestCheckShowsSkills(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "coworkers")
	cw := filepath.Join(dir, "notes", "coworker")
	md := filepath.Join(cw, "skills", "tidy", "SKILL.md")
	os.MkdirAll(filepath.Dir(md), 0o755)
	os.WriteFile(filepath.Join(cw, "manifest.md"), []byte("---\nid: notes\nname: Notes\nversion: 1.0.0\n---\nKeep notes.\n"), 0o644)
	os.WriteFile(filepath.Join(cw, "tools.json"), []byte(`{"version": 3, "tools": []}`), 0o644)
	os.WriteFile(md, []byte("---\nname: tidy\ndescription: Keep notes tidy.\nversion: 2\n---\nTidy up.\n"), 0o644)

	code, out, errOut := runCLISplit(t, "check", "--coworkers", dir)
	if code != 0 {
		t.Fatalf("check = %d\n%s%s", code, out, errOut)
	}
	for _, want := range []string{"ok      notes (Notes, v1.0.0, tools.json v3)", "skills.load", "→ native", "(alias skills__read)",
		"          notice: " + md + `:4:1: SKILL.md front matter has the key "version", which the Agent Skills specification does not define; it is ignored`} {
		if !strings.Contains(out, want) {
			t.Errorf("check printed:\n%s\nwant it to contain %q", out, want)
		}
	}

	code, out, errOut = runCLISplit(t, "check", "--coworkers", dir, "--json")
	if code != 0 {
		t.Fatalf("check --json = %d\n%s%s", code, out, errOut)
	}
	var rep struct {
		OK []struct {
			Notices []struct {
				File string `json:"file"`
				Line int    `json:"line"`
				Msg  string `json:"msg"`
				Fix  string `json:"fix"`
			} `json:"notices"`
		} `json:"ok"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("check --json: %v\n%s", err, out)
	}
	if len(rep.OK) != 1 || len(rep.OK[0].Notices) != 1 || rep.OK[0].Notices[0].File != md || rep.OK[0].Notices[0].Line != 4 || rep.OK[0].Notices[0].Fix == "" {
		t.Errorf("check --json notices = %+v", rep.OK)
	}
}
