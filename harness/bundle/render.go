package bundle

import (
	"bytes"
	"encoding/json"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
)

// Rendering a Draft over the files already in a bundle (docs/bundles.md#editing).
// manifest.md is edited, not rewritten: the lines of a front matter entry
// the draft leaves as it is, of a key the draft does not own, of every
// comment outside a changed entry, and the body when Instructions is
// unchanged, are kept byte for byte; a changed entry is replaced by its new
// lines where it stood, a new one appended at the end of the front
// matter. Front matter that does not parse as a block mapping is written
// anew from the draft (its problem is the reason the bundle was broken).
// tools.json is kept when its selection is the draft's, else written as
// version 3 (version 1 while WholeProviders is set).

const (
	manifestRel = "coworker/manifest.md"
	toolsRel    = "coworker/tools.json"
)

// ownedKeys are the front matter keys a Draft holds, in the order a new
// front matter lists them.
var ownedKeys = []string{"id", "name", "description", "version", "model", "folder", "requires_sandbox", "limits", "skills", "sampling", "policy"}

// renderFiles renders d as the manifest.md and tools.json of the bundle in
// dir, over what dir holds now; keys are manifestRel and toolsRel.
func renderFiles(dir string, d Draft) map[string][]byte {
	l := &loader{dir: dir}
	l.resolveRoot()
	var oldM, oldT []byte
	if data, lerr := l.read(filepath.Join(dir, filepath.FromSlash(manifestRel)), MaxMarkdownBytes, ""); lerr == nil {
		oldM = data
	}
	if data, lerr := l.read(filepath.Join(dir, filepath.FromSlash(toolsRel)), MaxToolsFileBytes, ""); lerr == nil {
		oldT = data
	}
	return map[string][]byte{manifestRel: renderManifest(oldM, d), toolsRel: renderTools(oldT, d)}
}

// renderTools returns old when it selects what d selects, else d's
// selection as tools.json version 3 (version 1 for whole providers).
func renderTools(old []byte, d Draft) []byte {
	if old != nil {
		if sel, err := parseSelection("tools.json", old); err == nil {
			if slices.Equal(sel.Explicit(), d.Tools) && slices.Equal(sel.WholeProviders(), d.WholeProviders) ||
				len(d.Tools) == 0 && len(d.WholeProviders) == 0 && len(sel.Explicit()) == 0 && len(sel.WholeProviders()) == 0 {
				return old
			}
		}
	}
	key, version, list := "tools", 3, d.Tools
	if len(d.WholeProviders) > 0 && len(d.Tools) == 0 {
		key, version, list = "mcp", 1, d.WholeProviders
	}
	var b bytes.Buffer
	b.WriteString("{\n  \"version\": ")
	b.WriteString(string(rune('0' + version)))
	b.WriteString(",\n  \"" + key + "\": [")
	for i, n := range list {
		if i > 0 {
			b.WriteByte(',')
		}
		q, _ := json.Marshal(n)
		b.WriteString("\n    ")
		b.Write(q)
	}
	if len(list) > 0 {
		b.WriteString("\n  ")
	}
	b.WriteString("]\n}\n")
	return b.Bytes()
}

// renderManifest returns manifest.md for d, edited over old (nil: none).
func renderManifest(old []byte, d Draft) []byte {
	bom := []byte{}
	if bytes.HasPrefix(old, []byte("\xef\xbb\xbf")) {
		bom, old = old[:3], old[3:]
	}
	eol := "\n"
	if first, _, _ := bytes.Cut(old, []byte("\n")); bytes.HasSuffix(first, []byte("\r")) {
		eol = "\r\n"
	}
	fm, err := splitFrontMatter(old)
	var out bytes.Buffer
	out.Write(bom)
	switch {
	case old == nil || err != nil:
		writeFresh(&out, nil, d, eol)
		out.WriteString(body(d.Instructions, eol))
	case !fm.present: // all of old is the body
		writeFresh(&out, nil, d, eol)
		out.WriteString(keepBody(old, d.Instructions, eol))
	default:
		yamlStart := bytes.IndexByte(old, '\n') + 1
		yamlEnd := yamlStart + len(fm.yaml)
		closing := old[yamlEnd:]
		closing = closing[:len(closing)-len(fm.body)]
		out.Write(old[:yamlStart])
		if edited, ok := editFrontMatter(fm.yaml, d, eol); ok {
			out.Write(edited)
		} else {
			writeFresh(&out, fm.yaml, d, eol)
		}
		out.Write(closing)
		out.WriteString(keepBody([]byte(fm.body), d.Instructions, eol))
	}
	return out.Bytes()
}

// keepBody returns the body old when its trimmed text is instructions,
// else instructions as a new body.
func keepBody(old []byte, instructions, eol string) string {
	if strings.TrimSpace(string(old)) == instructions {
		return string(old)
	}
	return body(instructions, eol)
}

func body(instructions, eol string) string {
	s := strings.ReplaceAll(strings.ReplaceAll(instructions, "\r\n", "\n"), "\n", eol)
	return s + eol
}

// writeFresh writes a whole front matter for d (with the fences when old
// is nil; without them when it replaces the yaml between fences): the
// owned keys, then the entries of old that d.OtherKeys keeps, as far as
// old parses.
func writeFresh(out *bytes.Buffer, old []byte, d Draft, eol string) {
	if old == nil {
		out.WriteString("---" + eol)
	}
	for _, k := range ownedKeys {
		out.WriteString(renderEntry(k, d, eol))
	}
	for _, e := range topEntries(old) {
		if k := e.Key.GetToken().Value; slices.Contains(d.OtherKeys, k) {
			out.WriteString(strings.ReplaceAll(e.String(), "\n", eol) + eol)
		}
	}
	if old == nil {
		out.WriteString("---" + eol)
	}
}

// editFrontMatter edits the front matter src for d in place (see the top
// of this file); ok is false when src is not a block mapping with one
// top-level key per line, starting in column 1.
func editFrontMatter(src []byte, d Draft, eol string) ([]byte, bool) {
	entries := topEntries(src)
	if len(bytes.TrimSpace(src)) > 0 && entries == nil {
		return nil, false
	}
	starts, ok := topEntryStarts(entries)
	if !ok {
		return nil, false
	}
	lines := splitLines(src)
	var out bytes.Buffer
	if len(entries) == 0 {
		writeLines(&out, lines)
	} else {
		writeLines(&out, lines[:starts[0]])
	}
	present := map[string]bool{}
	for i, sp := range entrySpans(lines, starts, isGapLine) {
		key := entries[i].Key.GetToken().Value
		out.WriteString(editTopEntry(key, entries[i].Value, lines[sp.start:sp.last], sp.start, d, present[key], eol))
		present[key] = true
		writeLines(&out, lines[sp.last:sp.end])
	}
	if out.Len() > 0 && !bytes.HasSuffix(out.Bytes(), []byte("\n")) {
		out.WriteString(eol)
	}
	for _, k := range ownedKeys {
		if !present[k] {
			out.WriteString(renderEntry(k, d, eol))
		}
	}
	return out.Bytes(), true
}

// topEntryStarts returns the 0-based line of each top-level key; ok is
// false unless every key starts in column 1 on a line after the last.
func topEntryStarts(entries []*ast.MappingValueNode) ([]int, bool) {
	starts := make([]int, len(entries))
	for i, e := range entries {
		tk := e.Key.GetToken()
		if tk.Position.Column != 1 || i > 0 && tk.Position.Line-1 <= starts[i-1] {
			return nil, false
		}
		starts[i] = tk.Position.Line - 1
	}
	return starts, true
}

// editTopEntry returns what replaces the top-level entry key: v (its own
// lines own, the first at line first): nothing when d drops it or it
// repeats an owned key (dup), its lines when d keeps its value, else d's
// value, written anew.
func editTopEntry(key string, v ast.Node, own []string, first int, d Draft, dup bool, eol string) string {
	_, owned := fieldOfKey[key]
	switch {
	case !owned && !slices.Contains(d.OtherKeys, key): // removed from OtherKeys
		return ""
	case owned && dup: // a duplicate (an error): the draft holds one value
		return ""
	case !owned || unchanged(key, v, d):
		return strings.Join(own, "")
	case key == "policy" && len(d.Policy) > 0:
		if edited, ok := editPolicy(own, first, v, d.Policy, eol); ok {
			return edited
		}
	}
	return renderEntry(key, d, eol)
}

// entrySpan is one mapping entry's lines: [start, last) its own,
// [last, end) the blank and comment lines of the gap before the next.
type entrySpan struct{ start, last, end int }

// entrySpans cuts lines 0..n at starts (one per entry) into entry spans;
// an entry's trailing lines for which gap holds belong to the gap, so
// they are kept wherever the entry goes.
func entrySpans(lines []string, starts []int, gap func(string) bool) []entrySpan {
	spans := make([]entrySpan, len(starts))
	for i, start := range starts {
		end := len(lines)
		if i+1 < len(starts) {
			end = starts[i+1]
		}
		last := end
		for last > start+1 && gap(lines[last-1]) {
			last--
		}
		spans[i] = entrySpan{start, last, end}
	}
	return spans
}

// writeLines writes lines to w, one after the other.
func writeLines(w io.StringWriter, lines []string) {
	for _, l := range lines {
		w.WriteString(l)
	}
}

// splitLines splits src after each "\n", keeping it.
func splitLines(src []byte) []string {
	var lines []string
	for len(src) > 0 {
		i := bytes.IndexByte(src, '\n')
		if i < 0 {
			lines = append(lines, string(src))
			break
		}
		lines = append(lines, string(src[:i+1]))
		src = src[i+1:]
	}
	return lines
}

func isCommentOrBlank(l string) bool {
	t := strings.TrimSpace(l)
	return t == "" || strings.HasPrefix(t, "#")
}

func isGapLine(l string) bool {
	t := strings.TrimRight(l, "\r\n")
	return strings.TrimSpace(t) == "" || strings.HasPrefix(t, "#")
}

// unchanged reports whether the entry key: v already holds d's value, as
// text where the loader wants text.
func unchanged(key string, v ast.Node, d Draft) bool {
	if field, ok := draftText[key]; ok {
		return holdsText(v, *field(&d))
	}
	switch key {
	case "requires_sandbox":
		var b bool
		return yaml.NodeToValue(v, &b) == nil && b == d.RequiresSandbox
	case "limits": // as written only when well formed: 0.5 reads as 0, but is not 0 (limitsProblem)
		var l Limits
		at, _, _ := limitsProblem(v)
		return at == nil && yaml.NodeToValue(v, &l) == nil && l == d.Limits
	case "skills":
		var s []string
		return d.Skills != nil && yaml.NodeToValue(v, &s) == nil && slices.Equal(s, d.Skills)
	case "sampling":
		var s []string
		return yaml.NodeToValue(v, &s) == nil && slices.Equal(s, d.Sampling)
	case "policy":
		var p map[string]string
		return yaml.NodeToValue(v, &p) == nil && maps.Equal(p, d.Policy)
	}
	return false
}

// holdsText reports whether v is a text (or, for want "", null) node
// holding want.
func holdsText(v ast.Node, want string) bool {
	switch v.(type) {
	case *ast.StringNode, *ast.LiteralNode:
	case *ast.NullNode:
		return want == ""
	default:
		return false
	}
	var s string
	return yaml.NodeToValue(v, &s) == nil && s == want
}

// editPolicy edits a block "policy:" entry (lines, the first of which is
// line first of the front matter, 0-based) for policy in place: entries
// whose value is unchanged keep their lines (and comments), a changed
// one is written anew where it stood, a removed one goes, and new entries
// follow the last at its indent, sorted with "*" last. ok is false when
// the entry is not a block mapping with one key per line.
func editPolicy(lines []string, first int, v ast.Node, policy map[string]string, eol string) (string, bool) {
	entries, ok := policyEntries(v)
	if !ok {
		return "", false
	}
	starts, names, ok := policyStarts(lines, first, entries)
	if !ok {
		return "", false
	}
	indent := strings.Repeat(" ", entries[0].Key.GetToken().Position.Column-1)
	var b strings.Builder
	writeLines(&b, lines[:starts[0]])
	seen := map[string]bool{}
	for i, sp := range entrySpans(lines, starts, isCommentOrBlank) {
		name := names[i]
		want, keep := policy[name]
		var val string
		switch {
		case seen[name] || !keep:
		case yaml.NodeToValue(entries[i].Value, &val) == nil && val == want:
			writeLines(&b, lines[sp.start:sp.last])
		default:
			b.WriteString(indent + yamlString(name) + ": " + yamlString(want) + eol)
		}
		seen[name] = true
		writeLines(&b, lines[sp.last:sp.end])
	}
	for _, n := range policyNames(policy) {
		if !seen[n] {
			b.WriteString(indent + yamlString(n) + ": " + yamlString(policy[n]) + eol)
		}
	}
	return b.String(), true
}

// policyEntries returns the keyed entries of the policy value v; ok is
// false unless v is a non-empty block mapping.
func policyEntries(v ast.Node) ([]*ast.MappingValueNode, bool) {
	var entries []*ast.MappingValueNode
	switch m := v.(type) {
	case *ast.MappingNode:
		if m.IsFlowStyle {
			return nil, false
		}
		entries = keyed(m.Values)
	case *ast.MappingValueNode:
		entries = keyed([]*ast.MappingValueNode{m})
	default:
		return nil, false
	}
	return entries, len(entries) > 0
}

// policyStarts returns each policy entry's index into lines (the first
// of which is front matter line first) and its name; ok is false unless
// the entries share a column, each on a line of its own after the
// "policy:" line, and every name is text.
func policyStarts(lines []string, first int, entries []*ast.MappingValueNode) (starts []int, names []string, ok bool) {
	col := entries[0].Key.GetToken().Position.Column
	starts = make([]int, len(entries))
	names = make([]string, len(entries))
	for i, e := range entries {
		p := e.Key.GetToken().Position
		starts[i] = p.Line - 1 - first
		if p.Column != col || starts[i] <= 0 || starts[i] >= len(lines) || i > 0 && starts[i] <= starts[i-1] {
			return nil, nil, false
		}
	}
	for i, e := range entries {
		if yaml.NodeToValue(e.Key, &names[i]) != nil {
			return nil, nil, false
		}
	}
	return starts, names, true
}

// policyNames sorts the names of a policy, "*" (the default for the rest)
// last.
func policyNames(policy map[string]string) []string {
	names := slices.Collect(maps.Keys(policy))
	sort.Slice(names, func(i, j int) bool {
		if (names[i] == "*") != (names[j] == "*") {
			return names[j] == "*"
		}
		return names[i] < names[j]
	})
	return names
}

// renderEntry renders the front matter entry of key for d, "" when d
// leaves the key out.
func renderEntry(key string, d Draft, eol string) string {
	if field, ok := draftText[key]; ok {
		v := *field(&d)
		if v == "" && key != "id" && key != "name" {
			return ""
		}
		return key + ": " + yamlText(v, eol) + eol
	}
	switch key {
	case "requires_sandbox":
		if d.RequiresSandbox {
			return "requires_sandbox: true" + eol
		}
	case "limits":
		return d.Limits.render(eol)
	case "skills":
		if d.Skills != nil {
			return "skills: " + flowList(d.Skills) + eol
		}
	case "sampling":
		if len(d.Sampling) > 0 {
			return "sampling: " + flowList(d.Sampling) + eol
		}
	case "policy":
		return renderPolicy(d.Policy, eol)
	}
	return ""
}

// renderPolicy renders a block "policy:" entry for policy, "" when it is
// empty.
func renderPolicy(policy map[string]string, eol string) string {
	if len(policy) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("policy:" + eol)
	for _, n := range policyNames(policy) {
		b.WriteString("  " + yamlString(n) + ": " + yamlString(policy[n]) + eol)
	}
	return b.String()
}

func flowList(items []string) string {
	q := make([]string, len(items))
	for i, s := range items {
		q[i] = yamlString(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// yamlText is yamlString, but multi-line text without surrounding blanks
// becomes a literal block ("|-", or "|" with one final newline).
func yamlText(s, eol string) string {
	body, chomp := s, "|-"
	if strings.HasSuffix(body, "\n") {
		body, chomp = body[:len(body)-1], "|"
	}
	if !strings.Contains(body, "\n") || strings.Contains(body, "\r") || strings.HasSuffix(body, "\n") ||
		body != strings.TrimLeft(body, " \t") {
		return yamlString(s)
	}
	for _, line := range strings.Split(body, "\n") {
		if line != strings.TrimRight(line, " \t") {
			return yamlString(s)
		}
	}
	var b strings.Builder
	b.WriteString(chomp)
	for _, line := range strings.Split(body, "\n") {
		b.WriteString(eol)
		if line != "" {
			b.WriteString("  " + line)
		}
	}
	return b.String()
}
