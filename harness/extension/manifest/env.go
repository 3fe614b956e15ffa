package manifest

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"

	"github.com/Masterminds/semver/v3"
)

// Env is what Problems checks a manifest against.
type Env struct {
	GOOS string // a runtime.GOOS value; "" means this computer
	// Dir is the unpacked extension folder; "" skips the file checks.
	Dir string
	// Runtimes are the versions found, by Runtime name ("node": "v20.11.0",
	// "python": "Python 3.12.1", "uv": "uv 0.5.1"); a missing name was not
	// found. nil skips the runtime checks.
	Runtimes map[string]string
}

// Runtime is what an extension needs installed to run its server.
type Runtime struct {
	Name  string // "node", "python", "uv"; "" for a binary server
	Title string // "Node.js", "Python", "uv"
	Range string // compatibility.runtimes range, "" for any version
	URL   string // where to get it
}

var runtimeInfo = map[string]Runtime{
	"node":   {Name: "node", Title: "Node.js", URL: "https://nodejs.org/"},
	"python": {Name: "python", Title: "Python", URL: "https://www.python.org/downloads/"},
	"uv":     {Name: "uv", Title: "uv", URL: "https://docs.astral.sh/uv/getting-started/installation/"},
}

// Runtime says which runtime the server needs on goos: the one its command
// names (node/npx, python/python3/py, uv/uvx, with or without .exe), else
// the one of server.type; none for a binary server whose command is its
// own program.
func (m *Manifest) Runtime(goos string) Runtime {
	name := ""
	if cmd := m.command(Platform(goos)); cmd != "" {
		base := strings.ToLower(path.Base(strings.ReplaceAll(cmd, `\`, "/")))
		base = strings.TrimSuffix(base, ".exe")
		switch {
		case base == "node" || base == "npx":
			name = "node"
		case base == "python" || base == "py" || pythonN.MatchString(base):
			name = "python"
		case base == "uv" || base == "uvx":
			name = "uv"
		}
	}
	if name == "" {
		switch m.Server.Type {
		case TypeNode, TypePython, TypeUV:
			name = m.Server.Type
		}
	}
	if name == "" {
		return Runtime{}
	}
	r := runtimeInfo[name]
	switch name {
	case "node":
		r.Range = m.Compatibility.Runtimes.Node
	case "python":
		r.Range = m.Compatibility.Runtimes.Python
	}
	return r
}

var pythonN = regexp.MustCompile(`^python3(\.\d+)?$`)

// command is the mcp_config command for platform, before substitution.
func (m *Manifest) command(platform string) string {
	mc := m.Server.MCPConfig
	if mc == nil {
		return ""
	}
	if o, ok := mc.PlatformOverrides[platform]; ok && o.Command != "" {
		return o.Command
	}
	return mc.Command
}

var versionIn = regexp.MustCompile(`v?(\d+(\.\d+){0,2})`)

// Problems lists why the extension cannot run in env, each with its fix;
// none means it can. It checks the platform against
// compatibility.platforms, the runtime (found, and in the version range),
// and with env.Dir that the entry point is a file in the folder (and, for a
// binary server on macOS and Linux, executable).
func (m *Manifest) Problems(env Env) []string {
	var out []string
	goos := env.GOOS
	if goos == "" {
		goos = runtime.GOOS
	}
	here := Platform(goos)
	if ps := m.Compatibility.Platforms; len(ps) > 0 && !slices.Contains(ps, here) {
		names := make([]string, len(ps))
		for i, p := range ps {
			names[i] = platformName(p)
		}
		out = append(out, fmt.Sprintf("this extension runs on %s only, not on %s (use it on one of those)", orList(names), platformName(here)))
	}
	if rt := m.Runtime(goos); rt.Name != "" && env.Runtimes != nil {
		out = append(out, runtimeProblem(rt, env.Runtimes)...)
	}
	if env.Dir != "" && m.Server.EntryPoint != "" {
		p := filepath.Join(env.Dir, filepath.FromSlash(m.Server.EntryPoint))
		fi, err := os.Stat(p)
		switch {
		case err != nil:
			out = append(out, fmt.Sprintf("the entry point %s is not in the extension (its author must add it to the bundle)", m.Server.EntryPoint))
		case !fi.Mode().IsRegular():
			out = append(out, fmt.Sprintf("the entry point %s is not a file (its author must fix server.entry_point)", m.Server.EntryPoint))
		case m.Server.Type == TypeBinary && goos != "windows" && goos == runtime.GOOS && fi.Mode().Perm()&0o111 == 0:
			out = append(out, fmt.Sprintf("the entry point %s is not executable (reinstall the extension; its author should pack it with the executable bit)", m.Server.EntryPoint))
		}
	}
	return out
}

func runtimeProblem(rt Runtime, found map[string]string) []string {
	want := rt.Title
	if rt.Range != "" {
		want += " " + rt.Range
	}
	got, ok := found[rt.Name]
	if !ok {
		return []string{fmt.Sprintf("this extension needs %s, which was not found (install it from %s)", want, rt.URL)}
	}
	if rt.Range == "" {
		return nil
	}
	c, err := semver.NewConstraint(rt.Range)
	if err != nil { // Parse refused such ranges; a hand-built Manifest may have one
		return []string{fmt.Sprintf("compatibility.runtimes.%s %q is not a version range (the extension's author must fix it)", rt.Name, rt.Range)}
	}
	num := versionIn.FindStringSubmatch(got)
	if num == nil {
		return []string{fmt.Sprintf("this extension needs %s; the version of the one found (%q) could not be read (install it from %s)", want, got, rt.URL)}
	}
	v, err := semver.NewVersion(num[1])
	if err != nil {
		return []string{fmt.Sprintf("this extension needs %s; the version of the one found (%q) could not be read (install it from %s)", want, got, rt.URL)}
	}
	if !c.Check(v) {
		return []string{fmt.Sprintf("this extension needs %s; the one found is %s (install a matching version from %s)", want, v, rt.URL)}
	}
	return nil
}
