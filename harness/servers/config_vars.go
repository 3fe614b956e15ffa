package servers

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
)

// A template is a config value as written: literal text and the variables
// its format substitutes (docs/servers.md#substitution). Parsing never
// looks anything up; expanding does. Keeping the template lets
// WriteServersFile write the reference (${input:ID}, ${VAR}) instead of
// the value.
type template []part

type partKind uint8

const (
	partLit           partKind = iota // text, kept as written
	partEnv                           // ${VAR}, ${VAR:-default}, ${env:VAR}
	partInput                         // ${input:ID}
	partHome                          // ${userHome}
	partWorkspace                     // ${workspaceFolder}
	partWorkspaceBase                 // ${workspaceFolderBasename}
	partSep                           // ${pathSeparator}, ${/}
)

type part struct {
	kind   partKind
	text   string // the literal text, the variable name or the input id
	def    string // ${VAR:-def}
	hasDef bool
	src    string // a variable as written: "${env:TOKEN}"
}

// syntax is what a format substitutes in its values.
type syntax struct {
	dollarEscape bool                // "$$" is a literal "$" (openworker)
	shellVars    bool                // ${VAR} and ${VAR:-default} (openworker, claude-code)
	envColon     bool                // ${env:VAR} (vscode, cursor, roo, windsurf, amazon-q)
	inputs       bool                // ${input:ID} (openworker, vscode)
	paths        map[string]partKind // predefined variables such as ${userHome}
	strict       bool                // any other ${...} is an error (openworker, vscode), else literal
	refused      []string            // prefixes such as "file:" that are errors with a fix
}

// literal is the syntax of formats whose values are taken as written
// (Claude Desktop, Cline, the generic mcpServers form).
var literal = syntax{}

// vscodePaths are VS Code's predefined variables that have a meaning
// outside the editor (code.visualstudio.com/docs/reference/variables-reference).
var vscodePaths = map[string]partKind{
	"userHome": partHome, "workspaceFolder": partWorkspace, "workspaceFolderBasename": partWorkspaceBase,
	"pathSeparator": partSep, "/": partSep,
}

// parse splits s into literal text and variables. Its errors name the
// variable, never a value.
func (sy syntax) parse(s string) (template, error) {
	var t template
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			t = append(t, part{kind: partLit, text: lit.String()})
			lit.Reset()
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '$' || i+1 >= len(s) {
			lit.WriteByte(c)
			continue
		}
		if sy.dollarEscape && s[i+1] == '$' {
			lit.WriteByte('$')
			i++
			continue
		}
		if s[i+1] != '{' {
			lit.WriteByte(c)
			continue
		}
		end := strings.IndexByte(s[i+2:], '}')
		if end < 0 {
			if sy.strict {
				if sy.dollarEscape {
					return nil, fmt.Errorf("%q is not closed; write %s, or $$ for a literal $", s[i:], sy.example())
				}
				return nil, fmt.Errorf("%q is not closed; write %s", s[i:], sy.example())
			}
			lit.WriteString(s[i:])
			break
		}
		inner := s[i+2 : i+2+end]
		p, ok, err := sy.variable(inner)
		if err != nil {
			return nil, err
		}
		if ok {
			flush()
			p.src = "${" + inner + "}"
			t = append(t, p)
		} else {
			lit.WriteString("${" + inner + "}")
		}
		i += 2 + end
	}
	flush()
	return t, nil
}

// variable reads the inside of one ${...}: a part, false for text kept as
// written, or an error.
func (sy syntax) variable(inner string) (part, bool, error) {
	for _, pre := range sy.refused {
		if strings.HasPrefix(inner, pre) {
			return part{}, false, fmt.Errorf("${%s} is not supported by OpenWorker; put the value itself, or an environment variable as ${env:NAME}, in its place", inner)
		}
	}
	if sy.inputs {
		if id, ok := strings.CutPrefix(inner, "input:"); ok {
			if id == "" {
				return part{}, false, fmt.Errorf("${input:} names no input; write ${input:ID} with the id of an entry of \"inputs\"")
			}
			return part{kind: partInput, text: id}, true, nil
		}
	}
	if sy.envColon {
		if name, ok := strings.CutPrefix(inner, "env:"); ok {
			if !validVarName(name) {
				return part{}, false, fmt.Errorf("%q is not an environment variable name; write ${env:NAME} with letters, digits and '_'", name)
			}
			return part{kind: partEnv, text: name}, true, nil
		}
	}
	if k, ok := sy.paths[inner]; ok {
		return part{kind: k, text: inner}, true, nil
	}
	if sy.shellVars {
		name, def, hasDef := strings.Cut(inner, ":-")
		if validVarName(name) {
			return part{kind: partEnv, text: name, def: def, hasDef: hasDef}, true, nil
		}
	}
	if sy.strict {
		literal := "or the value itself" // VS Code keeps "$$" as written: it has no escape
		if sy.dollarEscape {
			literal = "or $$ for a literal $"
		}
		return part{}, false, fmt.Errorf("${%s} is not a variable OpenWorker can substitute; write %s, %s", inner, sy.example(), literal)
	}
	return part{}, false, nil
}

// example names the variables of the syntax, for fixes.
func (sy syntax) example() string {
	var forms []string
	if sy.shellVars {
		forms = append(forms, "${NAME}", "${NAME:-default}")
	}
	if sy.envColon {
		forms = append(forms, "${env:NAME}")
	}
	if sy.inputs {
		forms = append(forms, "${input:ID}")
	}
	if len(sy.paths) > 0 {
		forms = append(forms, "${userHome}", "${workspaceFolder}")
	}
	if len(forms) == 0 {
		return "the value itself"
	}
	return strings.Join(forms, ", ")
}

// secretVars lists the environment variables and inputs of t as written
// ("${TOKEN}, ${input:key}"), or "" when it has none.
func (t template) secretVars() string {
	var out []string
	for _, p := range t {
		if p.kind == partEnv || p.kind == partInput {
			out = append(out, p.src)
		}
	}
	return strings.Join(out, ", ")
}

// literalOnly reports whether t has no variable, and its text.
func (t template) literalOnly() (string, bool) {
	var b strings.Builder
	for _, p := range t {
		if p.kind != partLit {
			return "", false
		}
		b.WriteString(p.text)
	}
	return b.String(), true
}

// expander substitutes the variables of templates for one entry.
type expander struct {
	lookupEnv func(string) (string, bool)
	input     func(id string) (string, error)
	home      func() (string, error)
	workspace string // "" when the file belongs to no project folder
}

// expand returns the value of t and the values that came from the
// environment or an input (secrets). Its errors never hold a value.
func (x *expander) expand(t template) (string, []string, error) {
	var b strings.Builder
	var secrets []string
	for _, p := range t {
		v, secret, err := x.value(p)
		if err != nil {
			return "", nil, err
		}
		b.WriteString(v)
		if secret {
			secrets = append(secrets, v)
		}
	}
	return b.String(), secrets, nil
}

// value is the text of the part p, and whether it is a secret (the value
// of an environment variable or an input; a default written in the file
// is not).
func (x *expander) value(p part) (string, bool, error) {
	switch p.kind {
	case partLit:
		return p.text, false, nil
	case partEnv:
		v, ok := x.lookupEnv(p.text)
		switch {
		case (!ok || v == "") && p.hasDef:
			return p.def, false, nil
		case !ok:
			return "", false, fmt.Errorf("environment variable %s is not set; set it before starting OpenWorker (an unset variable is never replaced by an empty string)", p.text)
		}
		return v, true, nil
	case partInput:
		v, err := x.input(p.text)
		return v, err == nil, err
	case partHome:
		h, err := x.home()
		if err != nil || h == "" {
			return "", false, fmt.Errorf("${userHome}: the home folder is not known (%v); write the folder itself", err)
		}
		return h, false, nil
	case partWorkspace, partWorkspaceBase:
		if x.workspace == "" {
			return "", false, fmt.Errorf("${%s} has no meaning here: this file is not in a project folder (.vscode, .cursor, .roo, .amazonq or .mcp.json); write the folder itself", p.text)
		}
		if p.kind == partWorkspace {
			return x.workspace, false, nil
		}
		return filepath.Base(x.workspace), false, nil
	case partSep:
		return string(filepath.Separator), false, nil
	}
	return "", false, nil
}

// productText writes t in the syntax of the product's own servers.json:
// "$" doubled in literal text, ${VAR} and ${VAR:-default} for the
// environment, ${input:ID} for inputs, predefined folders as the folder.
func (x *expander) productText(t template) (string, error) {
	var b strings.Builder
	for _, p := range t {
		switch p.kind {
		case partLit:
			b.WriteString(strings.ReplaceAll(p.text, "$", "$$"))
		case partEnv:
			if strings.Contains(p.def, "}") {
				return "", fmt.Errorf("the default of ${%s:-...} holds '}', which servers.json cannot write", p.text)
			}
			b.WriteString("${" + p.text)
			if p.hasDef {
				b.WriteString(":-" + p.def)
			}
			b.WriteString("}")
		case partInput:
			if strings.Contains(p.text, "}") {
				return "", fmt.Errorf("input id %q holds '}', which servers.json cannot write", p.text)
			}
			b.WriteString("${input:" + p.text + "}")
		default:
			v, _, err := x.expand(template{p})
			if err != nil {
				return "", err
			}
			b.WriteString(strings.ReplaceAll(v, "$", "$$"))
		}
	}
	return b.String(), nil
}

// referencesOnly reports whether t is made of environment variables and
// inputs only (no literal text): it holds no value as written.
func (t template) referencesOnly() bool {
	for _, p := range t {
		if p.kind != partEnv && p.kind != partInput {
			return false
		}
	}
	return len(t) > 0
}

// displayText is t as a preview shows it: literal text as written,
// environment variables and inputs as references (${VAR}, ${input:ID};
// never their values), predefined folders substituted where they can be
// and otherwise as written (${workspaceFolder}).
func (x *expander) displayText(t template) string {
	var b strings.Builder
	for _, p := range t {
		switch p.kind {
		case partLit:
			b.WriteString(p.text)
		case partEnv:
			b.WriteString("${" + p.text)
			if p.hasDef {
				b.WriteString(":-" + p.def)
			}
			b.WriteString("}")
		case partInput:
			b.WriteString("${input:" + p.text + "}")
		default:
			if v, _, err := x.expand(template{p}); err == nil {
				b.WriteString(v)
			} else {
				b.WriteString("${" + p.text + "}")
			}
		}
	}
	return b.String()
}

func validVarName(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// shellVarRef finds a ${NAME} reference.
var shellVarRef = regexp.MustCompile(`\$\{[A-Za-z_][A-Za-z0-9_]*\}`)

// unsubstitutedHeaders notes each header whose value still holds a
// ${NAME} after parsing: the format does not substitute that form
// (Claude Desktop, Cline and the generic mcpServers form take values as
// written; Cursor and others substitute only ${env:NAME}), so it would be
// sent to the server as written (docs/servers.md#substitution).
func (rd *reader) unsubstitutedHeaders(e *ConfigEntry, raw *rawEntry, name string) {
	for _, h := range raw.headers {
		for _, p := range h.v.t {
			if p.kind != partLit {
				continue
			}
			if ref := shellVarRef.FindString(p.text); ref != "" {
				line := 0
				if h.v.n != nil {
					line = h.v.n.Line
				}
				hint := "write the value itself"
				if rd.spec.vars.envColon {
					hint = fmt.Sprintf("write ${env:%s} to read it from the environment", ref[2:len(ref)-1])
				}
				rd.notice(e, line, "header %q of server %q holds %s, which the %s format does not substitute: it would be sent as written; %s, or import the server into OpenWorker's servers.json, where %s is read from the environment",
					h.key, name, ref, rd.spec.label, hint, ref)
				break
			}
		}
	}
}
