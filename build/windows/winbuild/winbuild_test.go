package main

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestNumericVersion(t *testing.T) {
	for in, want := range map[string]string{
		"0.1.0": "0.1.0", "1.4.2-rc.1": "1.4.2", "1.4.2+5.gabc": "1.4.2", "10.20.65535": "10.20.65535",
	} {
		if got, err := numericVersion(in); err != nil || got != want {
			t.Errorf("numericVersion(%q) = %q, %v, want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "v0.1.0", "1.2", "dev", "1.2.3.4", "1.2.70000"} {
		if got, err := numericVersion(in); err == nil {
			t.Errorf("numericVersion(%q) = %q, want an error", in, got)
		}
	}
}

func TestNSISEscape(t *testing.T) {
	if got, want := nsisEscape(`A "$x" B`), `A $\"$$x$\" B`; got != want {
		t.Errorf("nsisEscape = %s, want %s", got, want)
	}
}

// TestResourcesLinkIntoGUIExe renders the repository's real templates and
// wails.json, links the .syso into a tiny Windows program and checks the
// result with checkExe; then shows checkExe rejects a console program and a
// wrong version. Needs only the Go toolchain (no cgo, no mingw).
func TestResourcesLinkIntoGUIExe(t *testing.T) {
	root := projectCopy(t)
	p, err := loadProject(root, "9.8.7-rc.1")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	must(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module tiny\n\ngo 1.26\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644))
	nsh := filepath.Join(dir, "defines.nsh")
	must(t, p.writeResources(filepath.Join(dir, "rsrc_windows_amd64.syso"), filepath.Join(dir, "app.ico"), nsh))
	defs, err := os.ReadFile(nsh)
	must(t, err)
	for _, want := range []string{`!define VERSION "9.8.7-rc.1"`, `!define VERSION4 "9.8.7.0"`, `!define EXE_NAME "openworker.exe"`} {
		if !strings.Contains(string(defs), want) {
			t.Errorf("defines.nsh lacks %s:\n%s", want, defs)
		}
	}

	build := func(out string, ldflags string) string {
		cmd := exec.Command("go", "build", "-o", out, "-ldflags", ldflags, ".")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0", "GOFLAGS=")
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build: %v\n%s", err, b)
		}
		return filepath.Join(dir, out)
	}
	gui := build("gui.exe", "-H windowsgui")
	sum, err := checkExe(gui, "9.8.7-rc.1")
	if err != nil {
		t.Fatalf("checkExe(gui) = %v", err)
	}
	if !strings.Contains(sum, p.Info.ProductName) || !strings.Contains(sum, "Windows GUI") {
		t.Errorf("checkExe(gui) summary = %q", sum)
	}
	if _, err := checkExe(gui, "9.8.7"); err == nil || !strings.Contains(err.Error(), "ProductVersion") {
		t.Errorf("checkExe(gui, wrong version) = %v, want a ProductVersion error", err)
	}
	console := build("console.exe", "")
	if _, err := checkExe(console, "9.8.7-rc.1"); err == nil || !strings.Contains(err.Error(), "subsystem 3") {
		t.Errorf("checkExe(console) = %v, want a subsystem error", err)
	}
}

// projectCopy copies the repository's wails.json and build/windows templates
// into a temporary project and gives it a generated 64x64 build/appicon.png.
func projectCopy(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	must(t, os.MkdirAll(filepath.Join(root, "build", "windows"), 0o755))
	for _, f := range []string{"wails.json", "build/windows/info.json", "build/windows/wails.exe.manifest"} {
		data, err := os.ReadFile(filepath.Join("../../..", f))
		must(t, err)
		must(t, os.WriteFile(filepath.Join(root, f), data, 0o644))
	}
	img := image.NewNRGBA(image.Rect(0, 0, 64, 64))
	for i := range img.Pix {
		img.Pix[i] = byte(i)
	}
	var b bytes.Buffer
	must(t, png.Encode(&b, img))
	must(t, os.WriteFile(filepath.Join(root, "build", "appicon.png"), b.Bytes(), 0o644))
	return root
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
