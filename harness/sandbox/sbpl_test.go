package sandbox

import (
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness/tool"
)

// go test ./harness/sandbox -run TestProfile -update rewrites testdata/*.sb.
var update = flag.Bool("update", false, "rewrite the golden profiles in testdata/")

// macLinks are the links of a macOS root folder: the sandbox sees the
// resolved paths.
var macLinks = map[string]string{"/tmp": "/private/tmp", "/var": "/private/var", "/etc": "/private/etc"}

// macFiles are the paths of the fake macOS filesystem that are files;
// every other path is a folder.
var macFiles = map[string]bool{"/dev/null": true, "/dev/zero": true, "/dev/random": true, "/dev/urandom": true,
	"/Users/ada/.gitconfig": true, `/Users/ada/say "hi" \ bye.txt`: true}

// macPaths is a pathInfo for a fake macOS filesystem, so that the golden
// profiles do not depend on the computer that runs the test.
func macPaths(p string) (string, bool) {
	for link, target := range macLinks {
		if p == link || strings.HasPrefix(p, link+"/") {
			p = target + p[len(link):]
		}
	}
	return p, !macFiles[p]
}

// macDefault is the default preset as Expand makes it on a Mac: the
// folders of system_darwin.go that exist on a Mac with Homebrew, the
// extension's folder, the program's folder (node, a Homebrew link), the
// workspace and a temporary folder under /var/folders.
func macDefault() *Rules {
	return &Rules{
		Read: []string{"/usr", "/bin", "/sbin", "/System", "/Library/Apple", "/private/etc", "/private/var/db/timezone",
			"/opt/homebrew", "/dev/null", "/dev/zero", "/dev/random", "/dev/urandom",
			"/Users/ada/Library/Application Support/OpenWorker/extensions/files", "/opt/homebrew/bin", "/opt/homebrew/Cellar/node/22.1.0/bin"},
		Write:   []string{"/Users/ada/work", "/var/folders/zz/T/openworker-sandbox-123"},
		Network: tool.SandboxNetwork{Mode: tool.NetNone},
		Temp:    "/var/folders/zz/T/openworker-sandbox-123",
	}
}

func TestProfileGolden(t *testing.T) {
	ports := macDefault()
	ports.Network = tool.SandboxNetwork{Mode: tool.NetPorts, Ports: []tool.SandboxEndpoint{{Host: "*", Port: 443}, {Host: "localhost", Port: 8080}}}
	loopback := macDefault()
	loopback.Network = tool.SandboxNetwork{Mode: tool.NetLoopback}
	anyNet := macDefault()
	anyNet.Network = tool.SandboxNetwork{Mode: tool.NetAny}
	quoting := &Rules{
		Read:    []string{`/Users/ada/say "hi" \ bye.txt`, "/tmp/a folder", "/Users/ada/.gitconfig"},
		Write:   []string{`/Users/ada/back\slash`},
		Network: tool.SandboxNetwork{Mode: tool.NetNone},
	}
	for name, r := range map[string]*Rules{"default": macDefault(), "ports": ports, "loopback": loopback, "any": anyNet, "quoting": quoting} {
		t.Run(name, func(t *testing.T) {
			got, err := profile(r, macPaths)
			if err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", name+".sb")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -run TestProfileGolden -update to write it)", err)
			}
			if got != string(want) {
				t.Errorf("the profile differs from %s (go test -run TestProfileGolden -update rewrites it); got:\n%s", golden, got)
			}
			checkBalanced(t, got)
		})
	}
}

// checkBalanced fails when the profile's parentheses or strings are not
// well formed: an unescaped quote in a path would end its string early.
func checkBalanced(t *testing.T, p string) {
	t.Helper()
	depth, inString, escaped, comment := 0, false, false, false
	for i, c := range p {
		switch {
		case comment:
			comment = c != '\n'
		case inString && escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case inString:
			inString = c != '"'
		case c == ';':
			comment = true
		case c == '"':
			inString = true
		case c == '(':
			depth++
		case c == ')':
			depth--
			if depth < 0 {
				t.Fatalf("unbalanced ')' at byte %d", i)
			}
		}
	}
	if depth != 0 || inString {
		t.Fatalf("profile ends inside a form (depth %d) or a string (%v)", depth, inString)
	}
}

func TestProfileContent(t *testing.T) {
	p, err := profile(macDefault(), macPaths)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"(deny default)",
		`(subpath "/Users/ada/work")`,
		`(subpath "/private/var/folders/zz/T/openworker-sandbox-123")`, // resolved: the sandbox sees /private/var
		`(literal "/dev/null")`,
		`(literal "/Users/ada")`, // metadata of the folders above
	} {
		if !strings.Contains(p, want) {
			t.Errorf("the default profile lacks %s", want)
		}
	}
	for _, bad := range []string{"network-outbound", "network*", "mDNSResponder", `(subpath "/Users/ada")`, "import"} {
		if strings.Contains(p, bad) {
			t.Errorf("the default profile (no network, reads only its folders) holds %s", bad)
		}
	}
	// Write paths come after the read rules, so that a read-only rule never
	// narrows them; reads never reach write rights.
	read := p[strings.Index(p, "; read:"):strings.Index(p, "; write:")]
	if strings.Contains(read, "file-write") || strings.Contains(read, "/Users/ada/work") {
		t.Errorf("the read rule grants writing or names the workspace:\n%s", read)
	}
}

func TestProfileQuoting(t *testing.T) {
	p, err := profile(&Rules{Read: []string{`/a "b" \c`}}, macPaths)
	if err != nil {
		t.Fatal(err)
	}
	if want := `(subpath "/a \"b\" \\c")`; !strings.Contains(p, want) {
		t.Errorf("the profile does not quote the path as %s:\n%s", want, p)
	}
}

func TestProfileRefuses(t *testing.T) {
	for name, r := range map[string]*Rules{
		"relative path":     {Read: []string{"usr"}},
		"newline":           {Write: []string{"/Users/ada/a\nb"}},
		"unknown mode":      {Network: tool.SandboxNetwork{Mode: "intranet"}},
		"named host":        {Network: tool.SandboxNetwork{Mode: tool.NetPorts, Ports: []tool.SandboxEndpoint{{Host: "example.com", Port: 443}}}},
		"port without port": {Network: tool.SandboxNetwork{Mode: tool.NetPorts, Ports: []tool.SandboxEndpoint{{Host: "*"}}}},
	} {
		if p, err := profile(r, macPaths); err == nil {
			t.Errorf("%s: profile accepted %+v:\n%s", name, r, p)
		}
	}
}

func TestProfileHostPaths(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("SBPL paths are slash-separated: this test needs the filesystem of a Unix")
	}
	// On this computer: a link is resolved and both forms are allowed; a
	// file is a literal, a folder a subpath.
	dir := t.TempDir()
	real := filepath.Join(dir, "real")
	if err := os.Mkdir(real, 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(real, "notes.txt")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	p, err := Profile(&Rules{Read: []string{file}, Write: []string{link}})
	if err != nil {
		t.Fatal(err)
	}
	realDir, _ := filepath.EvalSymlinks(real)
	realFile, _ := filepath.EvalSymlinks(file)
	for _, want := range []string{"(literal " + sbplString(realFile) + ")", "(subpath " + sbplString(realDir) + ")"} {
		if !strings.Contains(p, want) {
			t.Errorf("the profile lacks %s:\n%s", want, p)
		}
	}
}
