package settings

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "settings.json")
	s, err := Load(p)
	if err != nil || s != Default() {
		t.Fatalf("missing file: %+v, %v; want defaults", s, err)
	}
	want := Settings{Provider: "anthropic", Anthropic: ProviderSettings{Model: "m"}, ApprovalMode: "bypass", CoworkersDir: dir,
		Limits:      Limits{TokensPerRun: 50000, ToolCallsPerRun: 20},
		KeepRunning: true, StartAtLogin: true, QuestionWaitSeconds: 300}
	if err := Save(p, want); err != nil {
		t.Fatal(err)
	}
	// Windows has no mode bits: Go reports 0666 for any writable file.
	if fi, _ := os.Stat(p); runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, want 0600", fi.Mode().Perm())
	}
	if got, err := Load(p); err != nil || got != want {
		t.Fatalf("round trip = %+v, %v", got, err)
	}
	for _, c := range []struct{ body, want string }{
		{"{\n  \"provider\": \"openai\",\n  \"api_key\": \"x\"\n}", ":3: "},
		{"{\n  \"provider\": \"openai\",\n  \"approval_mode\": 3\n}", ":3: "},
		{"{\n\n  \"provider\": \"openai\" \"x\"}", ":3: "},
		{`{"provider": "gemini"}`, `provider "gemini"`},
		{`{"openai": {"base_url": "ftp://x"}}`, "base URL"},
		{`{"openai": {"base_url": "http://u:p@h/v1"}}`, "password"},
		{`{"approval_mode": "yolo"}`, `approval mode "yolo"`},
		{`{"coworkers_dir": "relative"}`, "absolute"},
		{`{"question_wait_seconds": 9}`, "question_wait_seconds 9: choose 10 to 3600"},
		{`{"question_wait_seconds": 3601}`, "question_wait_seconds 3601"},
		{"{\n  \"limits\": {\"tokens_per_day\": -5}\n}", "default limit tokens_per_day is -5: write a whole number from 0 (no default) to 1000000000"},
		{"{\n  \"limits\": {\n    \"tokens_per_run\": 0.5\n  }\n}", ":3: json: cannot unmarshal number 0.5 into Go struct field Limits.limits.tokens_per_run of type int"},
		{"{\n  \"limits\": {\"tokens_per_rum\": 5}\n}", `:2: json: unknown field "tokens_per_rum"`},
	} {
		os.WriteFile(p, []byte(c.body), 0o600)
		_, err := Load(p)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), p) {
			t.Errorf("Load(%s) = %v, want an error naming the file and %q", c.body, err, c.want)
		}
	}
}

func TestResolvePathsUnderConfigDir(t *testing.T) {
	dir := t.TempDir()
	p, err := ResolvePaths(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{p.Settings, p.Journal, p.LogFile} {
		if !strings.HasPrefix(f, dir) {
			t.Errorf("%s is outside the config dir %s", f, dir)
		}
	}
}

func TestQuestionWait(t *testing.T) {
	for _, c := range []struct {
		secs int
		want time.Duration
	}{{0, time.Minute}, {10, 10 * time.Second}, {3600, time.Hour}} {
		if got := (Settings{QuestionWaitSeconds: c.secs}).QuestionWait(); got != c.want {
			t.Errorf("QuestionWait(%d) = %v, want %v", c.secs, got, c.want)
		}
	}
}
