package autostart

import (
	"encoding/xml"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

var testEntry = Entry{Name: "openworker", ID: "dev.openworker.desktop", DisplayName: "OpenWorker",
	Exec: []string{"/opt/Open Worker/openworker", "--background"}}

// TestDesktopEntryOnDisk writes, rewrites and removes the Linux entry in
// a temporary HOME: the file is where XDG says, holds exactly the entry,
// and no temporary file is left beside it.
func TestDesktopEntryOnDisk(t *testing.T) {
	if runtime.GOOS == "darwin" || runtime.GOOS == "windows" {
		t.Skip("the XDG entry is the Linux and BSD one")
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	want := filepath.Join(home, ".config", "autostart", "openworker.desktop")
	if p, _ := testEntry.Where(); p != want {
		t.Fatalf("Where() = %q, want %q", p, want)
	}
	if on, err := testEntry.Enabled(); on || err != nil {
		t.Fatalf("Enabled() before = %v, %v; want false, nil", on, err)
	}
	if err := testEntry.Enable(); err != nil {
		t.Fatal(err)
	}
	e2 := testEntry
	e2.Exec = []string{"/usr/bin/openworker", "--background"}
	if err := e2.Enable(); err != nil { // replaces the first
		t.Fatal(err)
	}
	got, err := os.ReadFile(want)
	if err != nil {
		t.Fatal(err)
	}
	wantBody := "[Desktop Entry]\nType=Application\nName=OpenWorker\nExec=/usr/bin/openworker --background\nTerminal=false\nX-GNOME-Autostart-enabled=true\n"
	if string(got) != wantBody {
		t.Fatalf("entry =\n%s\nwant\n%s", got, wantBody)
	}
	if fi, _ := os.Stat(want); fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", fi.Mode().Perm())
	}
	names, _ := os.ReadDir(filepath.Dir(want))
	if len(names) != 1 {
		t.Errorf("autostart folder holds %d files, want only the entry (no temporary file)", len(names))
	}
	if on, err := testEntry.Enabled(); !on || err != nil {
		t.Fatalf("Enabled() = %v, %v; want true", on, err)
	}
	for range 2 { // a second Disable finds nothing and is fine
		if err := testEntry.Disable(); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(want); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("after Disable: %v, want the file gone", err)
	}
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "xdg"))
	if p, _ := testEntry.Where(); p != filepath.Join(home, "xdg", "autostart", "openworker.desktop") {
		t.Fatalf("with XDG_CONFIG_HOME: Where() = %q", p)
	}
}

// TestDesktopExecQuoting follows the Desktop Entry Specification's Exec
// rules: reserved characters quoted, '%' doubled, then the string escapes.
func TestDesktopExecQuoting(t *testing.T) {
	e := testEntry
	e.Exec = []string{"/opt/Open Worker/ow", "--config-dir", `/h/100% "x" $y\z`}
	got := string(desktopFile(e))
	want := `Exec="/opt/Open Worker/ow" --config-dir "/h/100%% \\"x\\" \\$y\\\\z"`
	if !strings.Contains(got, want+"\n") {
		t.Fatalf("desktopFile = %s\nwant the line %s", got, want)
	}
}

// TestLaunchAgent checks the macOS property list: well-formed XML with
// the label, the arguments escaped, RunAtLoad.
func TestLaunchAgent(t *testing.T) {
	e := testEntry
	e.Exec = []string{"/Applications/OpenWorker.app/Contents/MacOS/openworker", "--background", "<&>"}
	body := launchAgent(e)
	var doc struct {
		Dict struct {
			Keys    []string `xml:"key"`
			Strings []string `xml:"string"`
			Args    []string `xml:"array>string"`
		} `xml:"dict"`
	}
	if err := xml.Unmarshal(body, &doc); err != nil {
		t.Fatalf("plist is not XML: %v\n%s", err, body)
	}
	if strings.Join(doc.Dict.Keys, ",") != "Label,ProgramArguments,RunAtLoad,ProcessType" || doc.Dict.Strings[0] != e.ID {
		t.Errorf("plist keys %v strings %v", doc.Dict.Keys, doc.Dict.Strings)
	}
	if strings.Join(doc.Dict.Args, "|") != strings.Join(e.Exec, "|") {
		t.Errorf("ProgramArguments = %q, want %q", doc.Dict.Args, e.Exec)
	}
}

func TestEntryCheck(t *testing.T) {
	for _, e := range []Entry{
		{ID: "a", DisplayName: "A", Exec: []string{"/x"}},
		{Name: "a", ID: "a", DisplayName: "A", Exec: []string{"x"}},
		{Name: "a/../b", ID: "a", DisplayName: "A", Exec: []string{"/x"}},
	} {
		if err := e.Enable(); !errors.Is(err, ErrInvalid) {
			t.Errorf("Enable(%+v) = %v, want ErrInvalid", e, err)
		}
	}
}
