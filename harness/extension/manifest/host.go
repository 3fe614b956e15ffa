package manifest

import (
	"errors"
	"os"
	"runtime"
	"strings"
)

// Host is the computer an extension is installed on: its OS (a
// runtime.GOOS value; "" means this one) and the person's folders, the
// values of ${HOME}, ${DESKTOP}, ${DOCUMENTS} and ${DOWNLOADS}. A folder
// left "" makes its variable an error where it is used.
type Host struct {
	GOOS                                string
	Home, Desktop, Documents, Downloads string
}

// ThisHost is the Host of this process: runtime.GOOS and the Desktop,
// Documents and Downloads folders inside the home folder (their default
// places; a relocated Windows known folder is not followed).
func ThisHost() (Host, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return Host{}, errors.New("cannot find the home folder: " + err.Error())
	}
	return HostAt(runtime.GOOS, home), nil
}

// HostAt is the Host of goos with the usual folders inside home.
func HostAt(goos, home string) Host {
	h := Host{GOOS: goos, Home: home}
	h.Desktop = joinFor(goos, home, "Desktop")
	h.Documents = joinFor(goos, home, "Documents")
	h.Downloads = joinFor(goos, home, "Downloads")
	return h
}

func (h Host) goos() string {
	if h.GOOS == "" {
		return runtime.GOOS
	}
	return h.GOOS
}

// Platform is goos in Node's process.platform terms, which manifests use:
// "windows" → "win32"; "darwin" and "linux" stay.
func Platform(goos string) string {
	if goos == "" {
		goos = runtime.GOOS
	}
	if goos == "windows" {
		return "win32"
	}
	return goos
}

// platformName is how messages name a process.platform value.
func platformName(p string) string {
	switch p {
	case "darwin":
		return "macOS (darwin)"
	case "win32":
		return "Windows (win32)"
	case "linux":
		return "Linux (linux)"
	}
	return p
}

// separator is ${/} and ${pathSeparator} on goos.
func separator(goos string) string {
	if goos == "windows" {
		return `\`
	}
	return "/"
}

// listSeparator joins a list value placed inside a string: ";" on
// Windows, ":" elsewhere (as in PATH).
func listSeparator(goos string) string {
	if goos == "windows" {
		return ";"
	}
	return ":"
}

// isAbsFor says whether p is an absolute path on goos (on Windows a drive
// path "C:\…" or "C:/…", or a UNC path "\\server\…").
func isAbsFor(goos, p string) bool {
	if goos == "windows" {
		if len(p) >= 3 && p[1] == ':' && (p[2] == '\\' || p[2] == '/') && isLetter(p[0]) {
			return true
		}
		return strings.HasPrefix(p, `\\`) || strings.HasPrefix(p, "//")
	}
	return strings.HasPrefix(p, "/")
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// joinFor joins dir and a slash-separated relative path with goos's
// separator.
func joinFor(goos, dir, rel string) string {
	sep := separator(goos)
	if goos == "windows" {
		rel = strings.ReplaceAll(rel, "/", `\`)
	}
	rel = strings.TrimPrefix(strings.TrimPrefix(rel, "."+sep), sep)
	if dir == "" {
		return rel
	}
	if strings.HasSuffix(dir, sep) || goos == "windows" && strings.HasSuffix(dir, "/") {
		return dir + rel
	}
	return dir + sep + rel
}
