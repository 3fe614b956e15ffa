package manifest

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/Masterminds/semver/v3"

	"github.com/openworker/desktop/harness/internal/jsonfile"
)

// MaxNameLen bounds name and version, which become folder names.
const MaxNameLen = 128

// processPlatforms are Node's process.platform values, the keys
// platform_overrides may use.
var processPlatforms = []string{"aix", "android", "darwin", "freebsd", "haiku", "linux", "openbsd", "netbsd", "sunos", "win32", "cygwin"}

// checker collects OpenWorker's own rules on a manifest that passed its
// schema (docs/extensions-manifest.md#what-is-refused).
type checker struct {
	root *jsonfile.Node
	out  []Problem
}

func check(m *Manifest, root *jsonfile.Node) []Problem {
	c := &checker{root: root}
	c.folderName("name", m.Name)
	c.folderName("version", m.Version)
	if _, err := semver.NewVersion(m.Version); err != nil && m.Version != "" {
		c.at("version").problem(fmt.Sprintf("%s is not a semantic version", display(m.Version)), `write MAJOR.MINOR.PATCH, for example "1.0.0"`)
	}
	c.relPath(m.Server.EntryPoint, "server", "entry_point")
	c.icon(m.Icon, "icon")
	for i, ic := range m.Icons {
		c.icon(ic.Src, "icons", fmt.Sprint(i), "src")
	}
	keys := map[string]bool{}
	for _, f := range m.UserConfig {
		keys[f.Key] = true
	}
	if mc := m.Server.MCPConfig; mc != nil {
		base := []string{"server", "mcp_config"}
		if strings.TrimSpace(mc.Command) == "" {
			c.at(append(base, "command")...).problem("the command is empty", "write the program to run, for example \"node\"")
		}
		c.vars(mc.Command, systemVars, keys, append(base, "command")...)
		c.command(mc.Command, append(base, "command")...)
		for i, a := range mc.Args {
			c.vars(a, systemVars, keys, append(base, "args", fmt.Sprint(i))...)
		}
		for k, v := range mc.Env {
			c.vars(v, systemVars, keys, append(base, "env", k)...)
		}
		for p, o := range mc.PlatformOverrides {
			po := append(slices.Clone(base), "platform_overrides", p)
			if !slices.Contains(processPlatforms, p) {
				c.key(po...).problem(fmt.Sprintf("unknown platform %q", p), "use darwin, win32 or linux, Node's process.platform names")
			}
			c.vars(o.Command, systemVars, keys, append(po, "command")...)
			c.command(o.Command, append(po, "command")...)
			for i, a := range o.Args {
				c.vars(a, systemVars, keys, append(po, "args", fmt.Sprint(i))...)
			}
			for k, v := range o.Env {
				c.vars(v, systemVars, keys, append(po, "env", k)...)
			}
		}
	}
	folded := map[string]string{}
	for _, f := range m.UserConfig {
		c.field(f)
		if other, ok := folded[strings.ToLower(f.Key)]; ok {
			c.key("user_config", f.Key).problem(fmt.Sprintf("the key %q differs from %q only in case; Windows' Credential Manager, where sensitive values are kept, does not tell them apart", f.Key, other), "rename one of them")
		} else {
			folded[strings.ToLower(f.Key)] = f.Key
		}
	}
	c.semverRange(m.Compatibility.Runtimes.Node, "compatibility", "runtimes", "node")
	c.semverRange(m.Compatibility.Runtimes.Python, "compatibility", "runtimes", "python")
	return c.out
}

// place is a value (or key) to report a problem at.
type place struct {
	c    *checker
	n    *jsonfile.Node
	line int
	col  int
	path string
}

func (p place) problem(msg, fix string) {
	p.c.out = append(p.c.out, Problem{Line: p.line, Col: p.col, Path: p.path, Msg: msg, Fix: fix})
}

// at is the value at path.
func (c *checker) at(path ...string) place {
	n := nodeAt(c.root, path)
	return place{c: c, n: n, line: n.Line, col: n.Col, path: n.Path}
}

// key is the key of the last element of path (an object member).
func (c *checker) key(path ...string) place {
	parent := nodeAt(c.root, path[:len(path)-1])
	if f := parent.Field(path[len(path)-1]); f != nil {
		return place{c: c, n: f.Value, line: f.Line, col: f.Col, path: f.Value.Path}
	}
	return c.at(path...)
}

// folderName refuses a name or version that cannot be one folder name on
// every platform: the store keeps extensions/<name>/<version>/.
func (c *checker) folderName(key, s string) {
	p := c.at(key)
	switch {
	case strings.TrimSpace(s) == "":
		p.problem("must not be empty", "write a value")
	case len(s) > MaxNameLen:
		p.problem(fmt.Sprintf("is %d bytes long; the limit is %d", len(s), MaxNameLen), "shorten it")
	case s == "." || s == ".." || strings.ContainsAny(s, `/\:*?"<>|`) || strings.IndexFunc(s, unicode.IsControl) >= 0:
		p.problem(fmt.Sprintf("%s cannot be a folder name", display(s)), `use letters, digits, spaces and "-_." only`)
	case strings.HasSuffix(s, ".") || strings.HasSuffix(s, " ") || strings.HasPrefix(s, " "):
		p.problem(fmt.Sprintf("%s cannot be a folder name on Windows", display(s)), "remove the trailing dot or the spaces at either end")
	case strings.HasPrefix(s, "."):
		p.problem(fmt.Sprintf("%s starts with a dot: a hidden folder, which the store keeps for its own staging folders and never lists", display(s)), "remove the leading dot")
	case windowsDevice(s):
		p.problem(fmt.Sprintf("%s is a device name on Windows (CON, PRN, AUX, NUL, COM1–9, LPT1–9, alone or before a dot), which no Windows folder may have", display(s)), "choose another name, for example \"my-"+strings.ToLower(s)+"\"")
	}
}

// windowsDevice reports the names Windows reserves for devices: CON, PRN,
// AUX, NUL, COM0–9 and LPT0–9 (also with superscript digits), alone or
// before an extension, in any case.
func windowsDevice(s string) bool {
	base, _, _ := strings.Cut(strings.ToUpper(s), ".")
	base = strings.TrimRight(base, " ")
	switch base {
	case "CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$":
		return true
	}
	if r := []rune(base); len(r) == 4 && (strings.HasPrefix(base, "COM") || strings.HasPrefix(base, "LPT")) {
		return r[3] >= '0' && r[3] <= '9' || r[3] == '¹' || r[3] == '²' || r[3] == '³'
	}
	return false
}

// command refuses a command inside the bundle (${__dirname}/… or a
// relative path with a separator) that climbs out of it with "..": what
// runs must be the bundle's own file or a program named as such
// (docs/extensions-manifest.md#what-is-refused).
func (c *checker) command(s string, path ...string) {
	rest, inside := strings.CutPrefix(s, "${__dirname}")
	if !inside && (!strings.ContainsAny(s, `/\`) || isAbsFor("linux", s) || isAbsFor("windows", s) || strings.HasPrefix(s, "${")) {
		return
	}
	for _, part := range strings.FieldsFunc(rest, func(r rune) bool { return r == '/' || r == '\\' }) {
		if part == ".." {
			c.at(path...).problem(fmt.Sprintf("%s leaves the bundle folder (..)", display(s)), `name the bundle's own file, for example "${__dirname}/server/my-server", or a program such as "node"`)
			return
		}
	}
}

// relPath refuses a bundle path that is absolute, has "..", or is empty.
func (c *checker) relPath(s string, path ...string) {
	p := c.at(path...)
	if msg := badRelPath(s); msg != "" {
		p.problem(fmt.Sprintf("%s %s", display(s), msg), `write a path inside the bundle with "/", for example "server/index.js"`)
	}
}

func badRelPath(s string) string {
	if strings.TrimSpace(s) == "" {
		return "is empty"
	}
	if isAbsFor("linux", s) || isAbsFor("windows", s) || len(s) >= 2 && s[1] == ':' {
		return "is an absolute path"
	}
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == '/' || r == '\\' }) {
		if part == ".." {
			return "leaves the bundle folder (..)"
		}
	}
	return ""
}

// icon refuses what mcpb validate refuses: an absolute path, ${__dirname},
// or a path outside the bundle. http(s) URLs are allowed (not fetched).
func (c *checker) icon(s string, path ...string) {
	if s == "" || strings.HasPrefix(s, "https://") || strings.HasPrefix(s, "http://") {
		return
	}
	if strings.Contains(s, "${") {
		c.at(path...).problem(fmt.Sprintf("%s uses a variable", display(s)), `write a path relative to the bundle, for example "icon.png"`)
		return
	}
	c.relPath(s, path...)
}

// vars reports every ${…} in s that is not allowed (vars, and
// ${user_config.KEY} for a key of keys when keys is not nil).
func (c *checker) vars(s string, vars []string, keys map[string]bool, path ...string) {
	segs, err := splitVars(s)
	if err != nil {
		c.at(path...).problem(err.Error(), "close it with } or remove the $")
		return
	}
	for _, sg := range segs {
		if !sg.ph {
			continue
		}
		if msg, fix := unknownVar(sg.name, vars, keys); msg != "" {
			c.at(path...).problem(msg, fix)
		}
	}
}

// field checks the user_config field f: its key, what its type allows
// (multiple, sensitive), its bounds, then its default (fieldDefault).
func (c *checker) field(f Field) {
	base := []string{"user_config", f.Key}
	if strings.ContainsAny(f.Key, "{}$") || strings.TrimSpace(f.Key) == "" {
		c.key(base...).problem(fmt.Sprintf("the key %q cannot be used in ${user_config.KEY}", f.Key), "use letters, digits and _ only")
	}
	scalar := f.Type == FieldNumber || f.Type == FieldBoolean // one value, never text
	if f.Multiple && scalar {
		c.at(append(base, "multiple")...).problem(fmt.Sprintf("a %s field cannot be multiple", f.Type), "remove multiple; it applies to string, directory and file fields")
	}
	switch {
	case f.Sensitive && scalar:
		c.at(append(base, "sensitive")...).problem(fmt.Sprintf("a %s field cannot be sensitive: the keychain keeps one text", f.Type), `make it a "string" field or remove "sensitive"`)
	case f.Sensitive && f.Multiple:
		c.at(append(base, "sensitive")...).problem("a multiple field cannot be sensitive: the keychain keeps one text", `remove "multiple" or "sensitive"`)
	}
	if f.Min != nil && f.Max != nil && *f.Min > *f.Max {
		c.at(append(base, "min")...).problem(fmt.Sprintf("min %v is greater than max %v", *f.Min, *f.Max), "swap them")
	}
	if f.Default != nil {
		c.fieldDefault(f, append(base, "default"))
	}
}

// fieldDefault checks the default of the field f, at path: a value of
// its type (a list only for a multiple field), within its bounds, with
// only the variables a default may use.
func (c *checker) fieldDefault(f Field, path []string) {
	dp := c.at(path...)
	switch d := f.Default.(type) {
	case string:
		if f.Type == FieldNumber || f.Type == FieldBoolean {
			dp.problem(fmt.Sprintf("the default of a %s field must be a %s, not a string", f.Type, f.Type), typeFix([]string{f.Type}))
			return
		}
		c.vars(d, defaultVars, nil, path...)
	case []string:
		if !f.Multiple {
			dp.problem("a list default needs \"multiple\": true", "add \"multiple\": true or write one value")
			return
		}
		for i, s := range d {
			c.vars(s, defaultVars, nil, append(slices.Clip(path), fmt.Sprint(i))...)
		}
	case float64:
		if f.Type != FieldNumber {
			dp.problem(fmt.Sprintf("the default of a %s field must not be a number", f.Type), defaultFix(f))
			return
		}
		if msg := outOfRange(d, f); msg != "" {
			dp.problem("the default "+msg, "change the default or the bounds")
		}
	case bool:
		if f.Type != FieldBoolean {
			dp.problem(fmt.Sprintf("the default of a %s field must not be a boolean", f.Type), defaultFix(f))
		}
	}
}

func defaultFix(f Field) string {
	if f.Type == FieldNumber {
		return "write a number, without quotes"
	}
	return "write it in double quotes"
}

// outOfRange says how n breaks f's min and max, or "".
func outOfRange(n float64, f Field) string {
	switch {
	case math.IsNaN(n) || math.IsInf(n, 0):
		return "is not a finite number"
	case f.Min != nil && n < *f.Min:
		return fmt.Sprintf("%v is below the minimum %v", n, *f.Min)
	case f.Max != nil && n > *f.Max:
		return fmt.Sprintf("%v is above the maximum %v", n, *f.Max)
	}
	return ""
}

func (c *checker) semverRange(r string, path ...string) {
	if r == "" {
		return
	}
	if _, err := semver.NewConstraint(r); err != nil {
		c.at(path...).problem(fmt.Sprintf("%s is not a version range", display(r)), `write a range such as ">=18.0.0" or ">=3.10,<4"`)
	}
}
