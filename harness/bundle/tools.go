package bundle

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/openworker/desktop/harness/internal/jsonfile"
	"github.com/openworker/desktop/harness/tool"
)

// Selection is a parsed tools.json: the tools a coworker may use (docs/bundles.md).
// There is no second allow-list: tools it does not name are never shown to
// the model. Exactly one of the fields below Version is set, by version:
//
//	v3: {"version":3,"tools":["example.web_search","acer.battery_get"]}
//	v2: {"version":2,"mcp":{"acer":["battery_get"]}}     (MCP only, legacy)
//	v1: {"version":1,"mcp":["acer"]}                     (MCP only, legacy)
type Selection struct {
	Version   int
	Names     []string            // v3: qualified names, native or MCP, in file order
	MCP       map[string][]string // v2: provider namespace → remote tool names, in file order
	Providers []string            // v1: provider namespaces whose every tool is selected
	// File is the tools.json path; Pos holds where each selected name (v3
	// and v2 qualified names, v1 namespaces) stands in it, for errors found
	// later, at resolution.
	File string
	Pos  map[string]Position
}

// Position is a 1-based line and column (in characters) in a file.
type Position struct{ Line, Col int }

// At returns where a selected name (or v1 namespace) stands in tools.json,
// or the zero Position.
func (s Selection) At(name string) Position { return s.Pos[name] }

// Explicit returns every tool the selection names one by one, qualified:
// the v3 names in file order, or the v2 "namespace.tool" names sorted by
// namespace then in file order. It is empty for v1.
func (s Selection) Explicit() []string {
	switch s.Version {
	case 3:
		return append([]string(nil), s.Names...)
	case 2:
		ns := make([]string, 0, len(s.MCP))
		for n := range s.MCP {
			ns = append(ns, n)
		}
		sort.Strings(ns)
		var out []string
		for _, n := range ns {
			for _, t := range s.MCP[n] {
				out = append(out, n+"."+t)
			}
		}
		return out
	}
	return nil
}

// WholeProviders returns the v1 namespaces whose whole catalog is selected,
// in file order; it is empty for v2 and v3.
func (s Selection) WholeProviders() []string {
	if s.Version != 1 {
		return nil
	}
	return append([]string(nil), s.Providers...)
}

// MaxToolsFileBytes bounds tools.json (1 MiB).
const MaxToolsFileBytes = jsonfile.MaxSize

// parseSelection reads tools.json. Every error is a *jsonfile.Error naming
// the file, line and column.
func parseSelection(file string, data []byte) (Selection, error) {
	// Checked before parsing: encoding/json replaces an invalid byte with
	// U+FFFD, whose first byte (0xef) a later message would then name.
	if off, b := firstInvalidUTF8(data); off >= 0 {
		line, col := jsonfile.Position(data, off)
		return Selection{}, &jsonfile.Error{File: file, Line: line, Col: col,
			Msg: fmt.Sprintf("invalid UTF-8: byte 0x%02x at offset %d", b, off), Fix: "save tools.json as UTF-8 text (tool names are ASCII)"}
	}
	root, err := jsonfile.Parse(file, data)
	if err != nil {
		return Selection{}, err
	}
	if err := root.Expect(jsonfile.Object); err != nil {
		return Selection{}, err
	}
	vn, err := root.Require("version", `add "version": 3`)
	if err != nil {
		return Selection{}, err
	}
	v, err := vn.AsInt()
	if err != nil {
		return Selection{}, err
	}
	var sel Selection
	switch v {
	case 3:
		sel, err = parseV3(root)
	case 2:
		sel, err = parseV2(root)
	case 1:
		sel, err = parseV1(root)
	default:
		return Selection{}, vn.Err(fmt.Sprintf("version %d is not supported", v), "use 3")
	}
	sel.File = file
	return sel, err
}

// record notes where a selected name stands.
func (s *Selection) record(name string, n *jsonfile.Node) {
	if s.Pos == nil {
		s.Pos = map[string]Position{}
	}
	s.Pos[name] = Position{n.Line, n.Col}
}

// aliasFix explains a name written in its model-alias form
// ("device__battery_get"), which is not how tools.json names tools.
func aliasFix(name string) string {
	if strings.Contains(name, ".") || !strings.Contains(name, tool.AliasSeparator) {
		return ""
	}
	q := strings.Replace(name, tool.AliasSeparator, ".", 1)
	return fmt.Sprintf("write the qualified name %q (tools.json names tools with a dot; the model sees them with \"__\")", q)
}

// seen reports a name listed twice, at the second place, naming the first.
type seen map[string]*jsonfile.Node

func (s seen) add(name string, n *jsonfile.Node) error {
	if first, ok := s[name]; ok {
		return n.Err(fmt.Sprintf("%q is listed twice (first at line %d, column %d)", name, first.Line, first.Col), "keep one")
	}
	s[name] = n
	return nil
}

func parseV3(root *jsonfile.Node) (Selection, error) {
	sel := Selection{Version: 3}
	if err := root.Keys("version", "tools"); err != nil {
		return sel, withVersionHint(err, 3)
	}
	list, err := root.Require("tools", `add "tools": ["namespace.tool", ...]`)
	if err != nil {
		return sel, err
	}
	if err := list.Expect(jsonfile.Array); err != nil {
		return sel, err
	}
	names := seen{}
	for _, it := range list.Items {
		name, err := it.AsString()
		if err != nil {
			return sel, err
		}
		if fix := aliasFix(name); fix != "" {
			return sel, it.Err(fmt.Sprintf("%q is a model alias, not a tool name", name), fix)
		}
		if err := tool.CheckMCPName(name); err != nil {
			return sel, it.Err(err.Error(), "")
		}
		if err := names.add(name, it); err != nil {
			return sel, err
		}
		sel.Names = append(sel.Names, name)
		sel.record(name, it)
	}
	return sel, checkAliases(names)
}

func parseV2(root *jsonfile.Node) (Selection, error) {
	sel := Selection{Version: 2, MCP: map[string][]string{}}
	if err := root.Keys("version", "mcp"); err != nil {
		return sel, withVersionHint(err, 2)
	}
	m, err := root.Require("mcp", `add "mcp": {"namespace": ["tool", ...]}`)
	if err != nil {
		return sel, err
	}
	if err := m.Expect(jsonfile.Object); err != nil {
		return sel, err
	}
	all := seen{}
	for _, f := range m.Fields {
		if err := tool.CheckNamespace(f.Key); err != nil {
			return sel, f.Err(m.File, err.Error(), "")
		}
		if err := f.Value.Expect(jsonfile.Array); err != nil {
			return sel, err
		}
		local := seen{}
		tools := []string{}
		for _, it := range f.Value.Items {
			t, err := it.AsString()
			if err != nil {
				return sel, err
			}
			if err := local.add(t, it); err != nil {
				return sel, err
			}
			q := f.Key + "." + t
			if err := tool.CheckMCPName(q); err != nil {
				return sel, it.Err(err.Error(), "")
			}
			all[q] = it
			sel.record(q, it)
			tools = append(tools, t)
		}
		sel.MCP[f.Key] = tools
	}
	return sel, checkAliases(all)
}

func parseV1(root *jsonfile.Node) (Selection, error) {
	sel := Selection{Version: 1}
	if err := root.Keys("version", "mcp"); err != nil {
		return sel, withVersionHint(err, 1)
	}
	list, err := root.Require("mcp", `add "mcp": ["namespace", ...]`)
	if err != nil {
		return sel, err
	}
	if err := list.Expect(jsonfile.Array); err != nil {
		return sel, err
	}
	nss := seen{}
	for _, it := range list.Items {
		ns, err := it.AsString()
		if err != nil {
			return sel, err
		}
		if err := tool.CheckNamespace(ns); err != nil {
			return sel, it.Err(err.Error(), "")
		}
		if err := nss.add(ns, it); err != nil {
			return sel, err
		}
		sel.Providers = append(sel.Providers, ns)
		sel.record(ns, it)
	}
	return sel, nil
}

// checkAliases reports two selected names with one model alias (docs/registry.md),
// at the later one, naming both.
func checkAliases(names seen) error {
	byAlias := map[string]string{}
	// Visit in file order so the error lands on the later entry.
	order := make([]string, 0, len(names))
	for n := range names {
		order = append(order, n)
	}
	sort.Slice(order, func(i, j int) bool {
		a, b := names[order[i]], names[order[j]]
		return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col
	})
	for _, n := range order {
		a := tool.Alias(n)
		if first, ok := byAlias[a]; ok {
			f := names[first]
			return names[n].Err(fmt.Sprintf("%q and %q (line %d, column %d) have the same model alias %q", n, first, f.Line, f.Col, a), "a coworker may select only one of them")
		}
		byAlias[a] = n
	}
	return nil
}

// withVersionHint tells a user who mixed up versions which fields belong to
// which version.
func withVersionHint(err error, v int) error {
	e, ok := jsonfile.AsError(err)
	if !ok {
		return err
	}
	switch v {
	case 3:
		e.Fix = `version 3 holds only "version" and "tools" (a list of qualified names)`
	case 2:
		e.Fix = `version 2 holds only "version" and "mcp" (an object of namespace → tool names); new bundles use version 3 with "tools"`
	case 1:
		e.Fix = `version 1 holds only "version" and "mcp" (a list of namespaces); new bundles use version 3 with "tools"`
	}
	return e
}

// firstInvalidUTF8 is the offset and value of the first byte of data
// that does not start a valid UTF-8 sequence; -1 when all is valid.
func firstInvalidUTF8(data []byte) (int, byte) {
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size == 1 {
			return i, data[i]
		}
		i += size
	}
	return -1, 0
}
