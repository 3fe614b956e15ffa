package servers

import (
	"fmt"
	"sort"
	"strings"

	"github.com/openworker/desktop/harness/internal/jsonfile"
)

// ConfigInput is an entry of a file's "inputs": a value asked of the
// person (VS Code's promptString), referenced as ${input:ID}.
type ConfigInput struct {
	ID          string
	Description string
	Password    bool
}

type inputDef struct {
	ConfigInput
	line int   // where it is defined (the first definition of a repeated id)
	err  error // why it cannot be asked: a type other than promptString, a bad field, a repeated id
}

// readInputs reads the top-level "inputs" (docs/servers.md#inputs). A bad
// definition never breaks the file: a problem of a definition with an id
// is an error of the entries that use that id (d.err), and one that no
// entry can refer to (no id) is a notice. It returns the notices.
func (rd *reader) readInputs(n *jsonfile.Node) []string {
	rd.inputs = map[string]*inputDef{}
	if n == nil {
		return nil
	}
	if n.Kind != jsonfile.Array {
		rd.inputsErr = fmt.Errorf(`the top-level "inputs" (line %d) must be an array of {"type": "promptString", "id": ..., "description": ...}, not %s`, n.Line, n.Kind)
		return []string{fmt.Sprintf("%s:%d: %s; the entries that use ${input:...} cannot be used", rd.path, n.Line, rd.inputsErr)}
	}
	var notices []string
	for i, it := range n.Items {
		id, notice := rd.inputID(it, i)
		if notice != "" {
			notices = append(notices, notice)
			continue
		}
		if prev := rd.inputs[id]; prev != nil {
			prev.err = fmt.Errorf(`input %q is defined twice in "inputs" (lines %d and %d), so which one to ask is unclear: keep one of them`, id, prev.line, it.Line)
			continue
		}
		rd.inputs[id] = inputDefinition(it, id)
	}
	return notices
}

// inputID is the "id" of inputs[i], or the notice that ignores an item
// without one.
func (rd *reader) inputID(it *jsonfile.Node, i int) (id, notice string) {
	if it.Kind != jsonfile.Object {
		return "", fmt.Sprintf("%s:%d: inputs[%d] is ignored: it must be an object like {\"type\": \"promptString\", \"id\": ..., \"description\": ...}, not %s", rd.path, it.Line, i, it.Kind)
	}
	idn := it.Get("id")
	if idn == nil || idn.Kind != jsonfile.String || idn.Str == "" {
		why := `it has no "id"`
		if idn != nil {
			why = `its "id" is not a non-empty string`
		}
		return "", fmt.Sprintf("%s:%d: inputs[%d] is ignored: %s, so no ${input:ID} can refer to it; give it one (\"id\": \"NAME\")", rd.path, it.Line, i, why)
	}
	return idn.Str, ""
}

// inputDefinition reads the input id defined by it: its description,
// password and type. A definition that cannot be asked (a key of the
// wrong kind, a type other than "promptString") keeps why in err.
func inputDefinition(it *jsonfile.Node, id string) *inputDef {
	d := &inputDef{ConfigInput: ConfigInput{ID: id}, line: it.Line}
	var problems []string
	if v := it.Get("description"); v != nil {
		if v.Kind == jsonfile.String {
			d.Description = v.Str
		} else {
			problems = append(problems, fmt.Sprintf(`its "description" must be a string, not %s`, v.Kind))
		}
	}
	if v := it.Get("password"); v != nil {
		if v.Kind == jsonfile.Bool {
			d.Password = v.Bool
		} else {
			problems = append(problems, fmt.Sprintf(`its "password" must be true or false (without quotes), not %s`, v.Kind))
		}
	}
	typ := "promptString"
	if v := it.Get("type"); v != nil {
		if v.Kind == jsonfile.String {
			typ = v.Str
		} else {
			problems = append(problems, fmt.Sprintf(`its "type" must be the string "promptString", not %s`, v.Kind))
		}
	}
	switch {
	case len(problems) > 0:
		d.err = fmt.Errorf("input %q (line %d) cannot be asked: %s", id, it.Line, strings.Join(problems, "; "))
	case typ != "promptString":
		d.err = fmt.Errorf(`input %q (line %d) is of type %q; OpenWorker asks only "promptString" inputs: make it {"type": "promptString", "id": %q, "description": ...}, or write the value itself`, id, it.Line, typ, id)
	}
	return d
}

// unusedInputNotices names the definitions with a problem that no entry
// uses (those that are used are errors of their entries).
func (rd *reader) unusedInputNotices(list *jsonfile.Node) []string {
	used := map[string]bool{}
	var walk func(n *jsonfile.Node)
	walk = func(n *jsonfile.Node) {
		switch n.Kind {
		case jsonfile.String:
			for rest := n.Str; ; {
				_, after, ok := strings.Cut(rest, "${input:")
				if !ok {
					break
				}
				id, tail, _ := strings.Cut(after, "}")
				used[id], rest = true, tail
			}
		case jsonfile.Array:
			for _, it := range n.Items {
				walk(it)
			}
		case jsonfile.Object:
			for _, f := range n.Fields {
				walk(f.Value)
			}
		}
	}
	walk(list)
	ids := make([]string, 0, len(rd.inputs))
	for id, d := range rd.inputs {
		if d.err != nil && !used[id] {
			ids = append(ids, id)
		}
	}
	sort.Slice(ids, func(i, j int) bool { return rd.inputs[ids[i]].line < rd.inputs[ids[j]].line })
	var out []string
	for _, id := range ids {
		out = append(out, fmt.Sprintf("%s:%d: %v (no entry uses it)", rd.path, rd.inputs[id].line, rd.inputs[id].err))
	}
	return out
}

// input answers ${input:ID}, asking at most once per read.
func (rd *reader) input(id string) (string, error) {
	if v, ok := rd.answers[id]; ok {
		return v, nil
	}
	d := rd.inputs[id]
	if d == nil && rd.inputsErr != nil {
		return "", rd.inputsErr
	}
	if d == nil {
		return "", fmt.Errorf("${input:%s} names no entry of \"inputs\"", id)
	}
	if d.err != nil {
		return "", d.err
	}
	if rd.ask == nil {
		return "", fmt.Errorf("input %q (%s) needs an answer, and nothing here can ask for it: OpenWorker asks it once, in the app or in a terminal when the servers file is checked, and keeps it in the OS keychain", id, nonEmptyText(d.Description, "no description"))
	}
	v, err := rd.ask(rd.ctx, id, d.Description, d.Password)
	if err != nil {
		return "", fmt.Errorf("input %q (%s): %v", id, nonEmptyText(d.Description, "no description"), err)
	}
	rd.answers[id] = v
	return v, nil
}

func nonEmptyText(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}
