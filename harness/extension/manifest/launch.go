package manifest

import (
	"errors"
	"fmt"
	"maps"
	"path"
	"runtime"
	"strings"
)

// LaunchInput is what Launch needs besides the manifest.
type LaunchInput struct {
	Host Host // the OS (platform_overrides, ${/}) and the folders of ${HOME} …
	// Dir is the unpacked extension folder, ${__dirname}: an absolute path
	// of Host's OS. It is also the server's working directory.
	Dir string
	// Values are the user_config values as entered; Launch applies
	// CheckValues to them (defaults, types, required).
	Values map[string]any
}

// Launch is how to start the extension's MCP server over stdio.
type Launch struct {
	// Command is the program: a bare name ("node", "python3", "uv") to
	// look up on PATH, or an absolute path (a relative path with a
	// separator in mcp_config is taken inside Dir).
	Command string
	Args    []string
	// Env holds only the manifest's variables; they are added to (and win
	// over) the environment the server inherits.
	Env map[string]string
	Dir string // working directory: the extension folder
}

// Launch returns the command, arguments and environment that start the
// server on in.Host: mcp_config with the platform_overrides entry of the
// host's platform applied (command, args and env each replaced whole when
// present), then every ${…} replaced (docs/extensions-manifest.md#substitution).
// An argument that is exactly ${user_config.KEY} of a multiple field
// becomes one argument per value; a list inside a longer string is joined
// with ":" (";" on Windows). An optional field without value or default is
// "" (no argument for a multiple field). Without mcp_config the command
// comes from server.type and entry_point: node ENTRY, python3 ENTRY
// (python on Windows), uv run --directory DIR ENTRY, or ENTRY itself.
// On Windows a binary server's command inside the extension folder without
// an extension gets ".exe", as the spec says. Errors: values CheckValues
// refuses (*ValuesError), an unknown variable, a folder variable that host
// leaves "", Dir not absolute.
func (m *Manifest) Launch(in LaunchInput) (Launch, error) {
	goos := in.Host.goos()
	if !isAbsFor(goos, in.Dir) {
		return Launch{}, fmt.Errorf("the extension folder %q is not an absolute path", in.Dir)
	}
	values, err := m.CheckValues(in.Values, in.Host)
	if err != nil {
		return Launch{}, err
	}
	cmd, args, env := m.config(goos, in.Dir)
	look := hostLookup(in.Host, in.Dir, m.userLookup(values))
	sep := listSeparator(goos)
	l := Launch{Dir: in.Dir}
	if l.Command, err = expandString(cmd, look, sep); err != nil {
		return Launch{}, fmt.Errorf("server.mcp_config.command: %w", err)
	}
	if strings.TrimSpace(l.Command) == "" {
		return Launch{}, errors.New("server.mcp_config.command is empty after substitution")
	}
	if l.Args, err = expandArgs(args, look, sep); err != nil {
		return Launch{}, fmt.Errorf("server.mcp_config.args: %w", err)
	}
	if l.Env, err = expandEnv(env, look, sep); err != nil {
		return Launch{}, err
	}
	l.Command = m.commandPath(goos, in.Dir, l.Command)
	return l, nil
}

// userLookup resolves ${user_config.KEY} from the checked values: a
// declared field without value is "" ([] for a multiple field); an
// undeclared key is unknown.
func (m *Manifest) userLookup(values map[string]any) func(key string) (any, bool) {
	keys := map[string]bool{}
	for _, f := range m.UserConfig {
		keys[f.Key] = true
	}
	return func(key string) (any, bool) {
		if !keys[key] {
			return nil, false
		}
		v, ok := values[key]
		if !ok {
			if f := m.Field(key); f != nil && f.Multiple {
				return []string{}, true
			}
			return "", true
		}
		return v, true
	}
}

// expandEnv substitutes the variables of each value of env; nil for an
// empty env.
func expandEnv(env map[string]string, look lookupFunc, sep string) (map[string]string, error) {
	if len(env) == 0 {
		return nil, nil
	}
	out := make(map[string]string, len(env))
	for k, v := range env {
		var err error
		if out[k], err = expandString(v, look, sep); err != nil {
			return nil, fmt.Errorf("server.mcp_config.env.%s: %w", k, err)
		}
	}
	return out, nil
}

// commandPath is the substituted command cmd made absolute: a relative
// path is inside dir, and on Windows a binary server's command inside dir
// without an extension gets ".exe".
func (m *Manifest) commandPath(goos, dir, cmd string) string {
	if !isAbsFor(goos, cmd) && strings.ContainsAny(cmd, `/\`) {
		cmd = joinFor(goos, dir, cmd)
	}
	if goos == "windows" && m.Server.Type == TypeBinary && strings.HasPrefix(cmd, dir) &&
		path.Ext(strings.ReplaceAll(cmd[len(dir):], `\`, "/")) == "" {
		cmd += ".exe"
	}
	return cmd
}

// config is the command, args and env for goos before substitution.
func (m *Manifest) config(goos, dir string) (string, []string, map[string]string) {
	mc := m.Server.MCPConfig
	if mc == nil {
		entry := m.Server.EntryPoint
		switch m.Server.Type {
		case TypeNode:
			return "node", []string{joinFor(goos, dir, entry)}, nil
		case TypePython:
			if goos == "windows" {
				return "python", []string{joinFor(goos, dir, entry)}, nil
			}
			return "python3", []string{joinFor(goos, dir, entry)}, nil
		case TypeUV:
			return "uv", []string{"run", "--directory", dir, entry}, nil
		}
		return joinFor(goos, dir, entry), nil, nil
	}
	cmd, args, env := mc.Command, mc.Args, mc.Env
	if o, ok := mc.PlatformOverrides[Platform(goos)]; ok {
		if o.Command != "" {
			cmd = o.Command
		}
		if o.Args != nil {
			args = o.Args
		}
		if o.Env != nil {
			env = o.Env
		}
	}
	return cmd, args, maps.Clone(env)
}

// hostLookup resolves the variables of host, ${__dirname} (dir; "" makes
// it an error) and, when user is not nil, ${user_config.KEY}.
func hostLookup(host Host, dir string, user func(key string) (any, bool)) lookupFunc {
	goos := host.goos()
	return func(name string) (string, []string, bool, error) {
		var v, what string
		switch name {
		case "/", "pathSeparator":
			return separator(goos), nil, false, nil
		case "__dirname":
			v, what = dir, "the extension folder"
		case "HOME":
			v, what = host.Home, "the home folder"
		case "DESKTOP":
			v, what = host.Desktop, "the Desktop folder"
		case "DOCUMENTS":
			v, what = host.Documents, "the Documents folder"
		case "DOWNLOADS":
			v, what = host.Downloads, "the Downloads folder"
		default:
			if key, ok := strings.CutPrefix(name, userConfigPrefix); ok && user != nil {
				if val, ok := user(key); ok {
					t, items, isList := valueText(val)
					return t, items, isList, nil
				}
				return "", nil, false, fmt.Errorf("${%s} names no user_config field", name)
			}
			vars := systemVars
			if user == nil {
				vars = defaultVars
			}
			msg, fix := unknownVar(name, vars, nil)
			if user != nil {
				fix += " or ${user_config.KEY}"
			}
			return "", nil, false, fmt.Errorf("%s (%s)", msg, fix)
		}
		if v == "" {
			return "", nil, false, fmt.Errorf("${%s}: %s is not known on this computer", name, what)
		}
		return v, nil, false, nil
	}
}

// CommandLine is what starts the server on goos (Go's names, "" for this
// one) before any ${…} is replaced: mcp_config's command, args and env
// with the platform_overrides entry of goos applied, or the command
// server.type implies (docs/extensions-manifest.md#substitution). It is
// what the install dialog shows the person before anything runs.
func (m *Manifest) CommandLine(goos string) (command string, args []string, env map[string]string) {
	if goos == "" {
		goos = runtime.GOOS
	}
	return m.config(goos, "${__dirname}")
}

// RunsOutside reports whether the command on goos is a program outside the
// extension's own folder other than a runtime it names by its bare name
// (node, npx, python, python3, py, uv, uvx): "/bin/sh", "bash",
// "${HOME}/bin/tool", "/usr/bin/node". Such a command is allowed (Claude
// Desktop runs it too) but is said before installing
// (docs/extensions.md#installing).
func (m *Manifest) RunsOutside(goos string) bool {
	cmd, _, _ := m.CommandLine(goos)
	if strings.HasPrefix(cmd, "${__dirname}") {
		return false
	}
	if strings.ContainsAny(cmd, `/\`) || strings.Contains(cmd, "${") {
		return isAbsFor("linux", cmd) || isAbsFor("windows", cmd) || strings.HasPrefix(cmd, "${") // a relative path is inside
	}
	base := strings.TrimSuffix(strings.ToLower(cmd), ".exe")
	return !(base == "node" || base == "npx" || base == "python" || base == "py" || pythonN.MatchString(base) || base == "uv" || base == "uvx")
}
