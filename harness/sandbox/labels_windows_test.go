package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness/tool"
)

// useLabelRecord moves the record of changed labels into the test's
// folder and forgets what is in memory, for this test.
func useLabelRecord(t *testing.T) string {
	t.Helper()
	old := labelRecord
	labelRecord = filepath.Join(t.TempDir(), "sandbox-labels.json")
	labelsMu.Lock()
	labels = map[string]*labelUse{}
	labelsMu.Unlock()
	t.Cleanup(func() { labelRecord = old })
	return labelRecord
}

func isLow(t *testing.T, path string) bool {
	t.Helper()
	l, err := currentLabel(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Contains(l, ";;;LW)")
}

func prepareWriting(t *testing.T, dir, temp string) {
	t.Helper()
	r := &Rules{Read: []string{systemDrive() + `\`}, Write: []string{dir}, Network: tool.SandboxNetwork{Mode: tool.NetAny}, Temp: temp}
	if err := Prepare(exec.Command(os.Getenv("SystemRoot")+`\System32\whoami.exe`), r); err != nil {
		t.Fatal(err)
	}
}

// The workspace is Low while a sandboxed program uses it and gets its own
// label back when the last one ends; the record of the change is gone
// then too.
func TestReleasePutsTheLabelBack(t *testing.T) {
	record := useLabelRecord(t)
	ws := t.TempDir()
	before, _ := currentLabel(ws)
	prepareWriting(t, ws, "temp-a")
	prepareWriting(t, ws, "temp-b")
	if !isLow(t, ws) {
		t.Fatal("the workspace is not Low while sandboxed programs run")
	}
	if b, err := os.ReadFile(record); err != nil || !strings.Contains(string(b), filepath.Base(ws)) {
		t.Fatalf("record = %s, %v; want the workspace in it", b, err)
	}
	if err := Release("temp-a"); err != nil {
		t.Fatal(err)
	}
	if !isLow(t, ws) {
		t.Fatal("the label was put back while another program still uses the workspace")
	}
	if err := Release("temp-b"); err != nil {
		t.Fatal(err)
	}
	if after, _ := currentLabel(ws); after != before || isLow(t, ws) {
		t.Fatalf("label after = %q; want %q as before", after, before)
	}
	if _, err := os.Stat(record); !os.IsNotExist(err) {
		t.Errorf("the record is still there: %v", err)
	}
}

// A run that ended without Release (a crash) leaves a record; the next
// start puts those labels back.
func TestRestoreLeftLabelsAfterACrash(t *testing.T) {
	record := useLabelRecord(t)
	ws := t.TempDir()
	before, _ := currentLabel(ws)
	prepareWriting(t, ws, "temp-crashed")
	labelsMu.Lock()
	labels = map[string]*labelUse{} // the next run knows only the file
	labelsMu.Unlock()
	if err := RestoreLeftLabels(); err != nil {
		t.Fatal(err)
	}
	if after, _ := currentLabel(ws); after != before {
		t.Fatalf("label after restore = %q; want %q", after, before)
	}
	if _, err := os.Stat(record); !os.IsNotExist(err) {
		t.Errorf("the record is still there: %v", err)
	}
}

// A folder that was Low before is not touched and stays Low.
func TestALowFolderIsLeftAlone(t *testing.T) {
	useLabelRecord(t)
	ws := t.TempDir()
	if err := labelLow(ws, true); err != nil {
		t.Fatal(err)
	}
	prepareWriting(t, ws, "temp-c")
	if err := Release("temp-c"); err != nil {
		t.Fatal(err)
	}
	if !isLow(t, ws) {
		t.Fatal("a folder that was Low before lost its label")
	}
}
