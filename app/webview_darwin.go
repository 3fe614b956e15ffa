package app

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"time"
)

// webKitPlist is the system WebKit's Info.plist: WKWebView is the OS's
// WebKit, whose version follows Safari's and the macOS release.
const webKitPlist = "/System/Library/Frameworks/WebKit.framework/Resources/Info.plist"

var plistVersion = regexp.MustCompile(`<key>CFBundleVersion</key>\s*<string>([^<]+)</string>`)

// webviewRuntime is the WKWebView of the system WebKit.framework: its
// CFBundleVersion, read without cgo, from the XML plist or, when the file
// is a binary plist, through /usr/bin/defaults (2 s bound).
func webviewRuntime(ctx context.Context) (name, version string, err error) {
	b, err := os.ReadFile(webKitPlist)
	if err != nil {
		return "WKWebView", "", fmt.Errorf("version unknown: %v", err)
	}
	if m := plistVersion.FindSubmatch(b); m != nil {
		return "WKWebView", string(m[1]), nil
	}
	if !bytes.HasPrefix(b, []byte("bplist")) {
		return "WKWebView", "", fmt.Errorf("version unknown: no CFBundleVersion in %s", webKitPlist)
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "/usr/bin/defaults", "read", strings.TrimSuffix(webKitPlist, ".plist"), "CFBundleVersion").Output()
	if err != nil {
		return "WKWebView", "", fmt.Errorf("version unknown: defaults read %s: %v", webKitPlist, err)
	}
	return "WKWebView", strings.TrimSpace(string(out)), nil
}
