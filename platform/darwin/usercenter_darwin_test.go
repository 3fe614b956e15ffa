//go:build darwin

package darwin

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestSystemCenterOutsideBundle: a test binary is no .app, so the process
// must not touch UNUserNotificationCenter (macOS would end it).
func TestSystemCenterOutsideBundle(t *testing.T) {
	_, err := openSystemCenter()
	if !errors.Is(err, errors.ErrUnsupported) || !strings.Contains(err.Error(), ".app") {
		t.Fatalf("openSystemCenter outside a bundle = %v, want ErrUnsupported naming the .app", err)
	}
	if got := New(nil).NotificationBackend(); !strings.HasPrefix(got, "beeep (not started from an .app bundle") {
		t.Errorf("NotificationBackend = %q", got)
	}
}

// TestSystemCenterInBundle wraps this test binary in an ad-hoc signed
// .app and runs userCenterProbe in it: the delegate class registers, the
// center opens, and asking for permission answers (allowed, refused, or
// still open when nobody is at the runner) without the process crashing.
// It needs a GUI session: OPENWORKER_DESKTOP_TESTS=1 (docs/ci.md).
func TestSystemCenterInBundle(t *testing.T) {
	needDesktop(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	app := filepath.Join(t.TempDir(), "OpenWorkerProbe.app")
	exe := filepath.Join(app, "Contents", "MacOS", "probe")
	if err := os.MkdirAll(filepath.Dir(exe), 0o755); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(exe, data, 0o755); err != nil {
		t.Fatal(err)
	}
	plist := `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0"><dict>
<key>CFBundleIdentifier</key><string>dev.openworker.usercenter-probe</string>
<key>CFBundleExecutable</key><string>probe</string>
<key>CFBundleName</key><string>OpenWorkerProbe</string>
<key>CFBundlePackageType</key><string>APPL</string>
</dict></plist>
`
	if err := os.WriteFile(filepath.Join(app, "Contents", "Info.plist"), []byte(plist), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("codesign", "--force", "--sign", "-", app).CombinedOutput(); err != nil {
		t.Fatalf("codesign: %v: %s", err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*desktopGuard)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), probeEnv+"=1")
	out, err := cmd.CombinedOutput()
	t.Logf("probe in %s:\n%s", app, out)
	if err != nil {
		t.Fatalf("the probe in the .app failed: %v", err)
	}
	if !strings.Contains(string(out), "open: ok") {
		t.Fatal("the center did not open inside an .app bundle")
	}
	switch s := string(out); {
	case strings.Contains(s, "authorize: ok") && strings.Contains(s, "add: ok"):
	case strings.Contains(s, "authorize: "+ErrNotAllowed.Error()):
	case strings.Contains(s, "authorize: waiting for the answer"):
	default:
		t.Fatal("the probe's permission question or post ended otherwise than allowed, refused or unanswered")
	}
}
