package manifest

import (
	"fmt"
	"strings"
)

// The variables of mcp_config (docs/extensions-manifest.md#substitution).
// A user_config value is ${user_config.KEY}.
var systemVars = []string{"__dirname", "HOME", "DESKTOP", "DOCUMENTS", "DOWNLOADS", "/", "pathSeparator"}

// defaultVars are the variables a user_config default may use: no
// ${__dirname} (the dialog shows defaults before the extension has a
// folder) and no ${user_config.…}.
var defaultVars = []string{"HOME", "DESKTOP", "DOCUMENTS", "DOWNLOADS", "/", "pathSeparator"}

const userConfigPrefix = "user_config."

// segment is a piece of a string: literal text, or a ${name} placeholder.
type segment struct {
	text string
	name string // set for a placeholder
	ph   bool
}

// splitVars cuts s into literal text and ${NAME} placeholders. A "${"
// without a closing "}" is an error; "$" not followed by "{" is text.
func splitVars(s string) ([]segment, error) {
	var out []segment
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			if s != "" {
				out = append(out, segment{text: s})
			}
			return out, nil
		}
		if i > 0 {
			out = append(out, segment{text: s[:i]})
		}
		j := strings.IndexByte(s[i+2:], '}')
		if j < 0 {
			return nil, fmt.Errorf("%q opens ${ without a closing }", clip(s[i:]))
		}
		out = append(out, segment{name: s[i+2 : i+2+j], ph: true})
		s = s[i+3+j:]
	}
}

// unknownVar says why name is not a variable allowed where vars and (when
// keys is not nil) ${user_config.KEY} for one of keys are; "" when it is.
func unknownVar(name string, vars []string, keys map[string]bool) (msg, fix string) {
	for _, v := range vars {
		if name == v {
			return "", ""
		}
	}
	list := "${" + strings.Join(vars, "}, ${") + "}"
	if key, ok := strings.CutPrefix(name, userConfigPrefix); ok {
		if keys == nil {
			return fmt.Sprintf("${%s} cannot be used here", name), "use only " + list
		}
		if keys[key] {
			return "", ""
		}
		return fmt.Sprintf("${%s} names no user_config field", name), fmt.Sprintf("add %q to user_config or fix the name", key)
	}
	fix = "use " + list
	if keys != nil {
		fix += " or ${user_config.KEY}"
	}
	return fmt.Sprintf("unknown variable ${%s}", name), fix
}

// lookupFunc returns the text of a variable, or ok false when it is a list
// (a multiple user_config value), with the list in items.
type lookupFunc func(name string) (text string, items []string, isList bool, err error)

// expandString replaces every placeholder of s. A list value inside a
// string is joined with listSep (the platform's path-list separator).
func expandString(s string, look lookupFunc, listSep string) (string, error) {
	segs, err := splitVars(s)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, sg := range segs {
		if !sg.ph {
			b.WriteString(sg.text)
			continue
		}
		text, items, isList, err := look(sg.name)
		if err != nil {
			return "", err
		}
		if isList {
			text = strings.Join(items, listSep)
		}
		b.WriteString(text)
	}
	return b.String(), nil
}

// expandArgs replaces the placeholders of every argument. An argument that
// is exactly ${user_config.KEY} of a multiple field becomes one argument per
// value (none for an empty list), as Claude Desktop does.
func expandArgs(args []string, look lookupFunc, listSep string) ([]string, error) {
	out := make([]string, 0, len(args))
	for _, a := range args {
		if strings.HasPrefix(a, "${"+userConfigPrefix) && strings.HasSuffix(a, "}") && strings.Count(a, "${") == 1 {
			text, items, isList, err := look(a[2 : len(a)-1])
			if err != nil {
				return nil, err
			}
			if isList {
				out = append(out, items...)
			} else {
				out = append(out, text)
			}
			continue
		}
		s, err := expandString(a, look, listSep)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func clip(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}
