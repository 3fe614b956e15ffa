package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/openworker/desktop/harness/tool"
)

// variables are the names a path template may use
// (docs/sandbox.md#variables): Vars and the host give their values,
// tool.Sandbox.Words their words.
var variables = map[string]bool{"system": true, "provider_dir": true, "program_dir": true, "workspace": true, "temp": true, "home": true}

// Vars are the values of a placement's variables for one start of a
// provider (docs/sandbox.md#variables). A variable whose value is "" (a
// session without a workspace) leaves out the entries that name it.
type Vars struct {
	Workspace   string // ${workspace}: the session's workspace folder
	ProviderDir string // ${provider_dir}: an extension's folder, or the entry's "cwd", or the program's folder
	Program     string // the resolved program: ${program_dir} is its folder and its link target's folder
	Temp        string // ${temp}: the provider's private temporary folder
	Home        string // ${home}: the person's home folder
	// Own are more of OpenWorker's own files, which no write path nor
	// workspace may hold, as OwnFolders: the servers file the provider's
	// entry comes from (which decides its sandbox) and the journal.
	Own []string
}

// Rules are a placement (a tool.Sandbox) with its variables replaced:
// absolute, cleaned paths that exist, for one start. They travel to the
// launcher as JSON.
type Rules struct {
	Read    []string            `json:"read"`
	Write   []string            `json:"write"`
	Network tool.SandboxNetwork `json:"network"`
	// Temp is the private temporary folder; Prepare sets TMPDIR, TMP and
	// TEMP to it. "" for none.
	Temp string `json:"temp,omitempty"`
	// MaxABI, when above 0, is the highest Landlock ABI the launcher may
	// use, and below 0 means none: it can only lower what the kernel
	// offers, so a placement the lowered ABI cannot enforce fails
	// (docs/sandbox.md#testing). Read from OPENWORKER_SANDBOX_MAX_ABI by
	// Expand; 0 is unset.
	MaxABI int `json:"max_abi,omitempty"`
	// Env holds the KEY=VALUE variables Prepare keeps from the launcher
	// (the dynamic loader's, Linux) and the launcher gives the program.
	Env []string `json:"env,omitempty"`
}

var varRef = regexp.MustCompile(`\$\{([^}]*)\}`)

// CheckTemplate reports an error for a path template that names an
// unknown variable, opens "${" without closing it, or that is neither
// absolute nor starts with a variable.
func CheckTemplate(t string) error {
	for _, m := range varRef.FindAllStringSubmatch(t, -1) {
		if !variables[m[1]] {
			return fmt.Errorf("%q names the unknown variable ${%s}: a sandbox path may use ${workspace}, ${provider_dir}, ${program_dir}, ${temp}, ${home} and ${system}", t, m[1])
		}
	}
	if strings.Contains(varRef.ReplaceAllString(t, ""), "${") {
		return fmt.Errorf("%q opens ${ without a closing }: write a variable as ${workspace}", t)
	}
	if strings.Contains(t, "${system}") && t != "${system}" {
		return fmt.Errorf("%q: ${system} stands for several folders and must be written alone", t)
	}
	if !strings.HasPrefix(t, "${") && !filepath.IsAbs(t) {
		return fmt.Errorf("%q is not an absolute path: write a full path or start it with a variable such as ${workspace}", t)
	}
	return nil
}

// Expand replaces the variables of the placement p with v. Entries whose
// variable is empty are left out; ${system} and ${program_dir} folders
// that do not exist are left out; any other path that does not exist is
// an error naming it. A workspace that p writes to and that holds the home folder
// or OpenWorker's own folder is an error (checkWorkspace), and so is any
// other write path that is a filesystem root or holds one of them
// (checkWrite): a placement that may rewrite shell start-up files or its
// own servers.json is no boundary, and is never called "sandboxed".
func Expand(p *tool.Sandbox, v Vars) (*Rules, error) {
	r := &Rules{Network: p.Network, Temp: v.Temp}
	var err error
	if r.Read, err = v.paths(p.Read); err != nil {
		return nil, err
	}
	if r.Write, err = v.paths(p.Write); err != nil {
		return nil, err
	}
	for _, t := range p.Write {
		if strings.Contains(t, "${workspace}") && v.Workspace != "" {
			if err := v.checkWorkspace(); err != nil {
				return nil, err
			}
			break
		}
	}
	for i, w := range r.Write {
		if w == filepath.Clean(v.Workspace) {
			continue // checked above, with the workspace's own words
		}
		if what := v.holds(w); what != "" {
			return nil, fmt.Errorf("sandbox write path %s %s, which no sandbox may write (a provider could change its own sandbox or your shell's start-up files and get out): list a folder inside it instead", r.Write[i], what)
		}
	}
	r.MaxABI = maxABI()
	return r, nil
}

func (v Vars) paths(templates []string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		p = filepath.Clean(p)
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, t := range templates {
		if err := CheckTemplate(t); err != nil {
			return nil, err
		}
		switch t {
		case "${system}":
			for _, p := range systemPaths() {
				if _, err := os.Stat(p); err == nil {
					add(p)
				}
			}
			continue
		case "${program_dir}":
			for _, p := range programDirs(v.Program) {
				add(p)
			}
			continue
		}
		empty := false
		s := varRef.ReplaceAllStringFunc(t, func(m string) string {
			val := map[string]string{"${workspace}": v.Workspace, "${provider_dir}": v.ProviderDir, "${temp}": v.Temp, "${home}": v.Home, "${program_dir}": firstOf(programDirs(v.Program))}[m]
			if val == "" {
				empty = true
			}
			return val
		})
		if empty {
			continue
		}
		if !filepath.IsAbs(s) {
			return nil, fmt.Errorf("sandbox path %q is %q, which is not absolute", t, s)
		}
		if _, err := os.Stat(s); err != nil {
			return nil, fmt.Errorf("sandbox path %q: %s does not exist; create it or remove it from the list", t, s)
		}
		add(s)
	}
	return out, nil
}

// checkWorkspace refuses a workspace that is a root or holds the home
// folder or OpenWorker's own folder (<user config dir>/OpenWorker): a
// provider that writes it could change its own sandbox for the next start
// (servers.json, installed extensions) or put a command in the person's
// shell start-up files and autostart entries, which run outside any
// sandbox.
func (v Vars) checkWorkspace() error {
	ws := filepath.Clean(v.Workspace)
	real, err := filepath.EvalSymlinks(ws)
	if err != nil {
		real = ws
	}
	held := v.held()
	for _, w := range []string{ws, real} {
		if filepath.Dir(w) == w {
			return fmt.Errorf("the workspace %s is a filesystem root, which a sandboxed provider may not write: choose a project folder as the workspace", ws)
		}
		for p, what := range held {
			if p == "" {
				continue
			}
			for _, q := range []string{filepath.Clean(p), evalOr(p)} {
				if Within(w, q) {
					return fmt.Errorf("the workspace %s holds %s (%s), and a sandboxed provider that writes it could change its own sandbox or your shell's start-up files: choose a project folder as the workspace", ws, what, p)
				}
			}
		}
	}
	return nil
}

// held maps what no sandbox may write to its words: the home folder,
// OpenWorker's own folders and files.
func (v Vars) held() map[string]string {
	held := map[string]string{v.Home: "your home folder"}
	for _, own := range OwnFolders() {
		held[own] = "OpenWorker's own folder"
	}
	for _, own := range v.Own {
		if own != "" {
			held[own] = "OpenWorker's own file"
		}
	}
	return held
}

// holds says how the folder w is too wide to write: "is a filesystem
// root", "holds your home folder (…)", "holds OpenWorker's own folder
// (…)"; "" when it is not.
func (v Vars) holds(w string) string {
	for _, x := range []string{filepath.Clean(w), evalOr(w)} {
		if filepath.Dir(x) == x {
			return "is a filesystem root"
		}
	}
	held := v.held()
	for p, what := range held {
		if p == "" {
			continue
		}
		for _, x := range []string{filepath.Clean(w), evalOr(w)} {
			for _, q := range []string{filepath.Clean(p), evalOr(p)} {
				if Within(x, q) {
					return fmt.Sprintf("holds %s (%s)", what, p)
				}
			}
		}
	}
	return ""
}

func evalOr(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return filepath.Clean(p)
}

func firstOf(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

// programDirs is the folder of program and, when it is a link, the
// folder of what it points to.
func programDirs(program string) []string {
	if program == "" || !filepath.IsAbs(program) {
		return nil
	}
	dirs := []string{filepath.Dir(program)}
	if real, err := filepath.EvalSymlinks(program); err == nil && filepath.Dir(real) != dirs[0] {
		dirs = append(dirs, filepath.Dir(real))
	}
	return dirs
}
