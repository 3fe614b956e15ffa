package servers

import (
	"fmt"
	"sort"
	"strings"

	"github.com/openworker/desktop/internal/redact"
)

// SharedInput is a value written literally in a servers file that
// MarshalShared replaced by an input (docs/import-agents.md#export): the
// person who imports the file is asked for it once, and the OS keychain
// keeps the answer (docs/servers.md#inputs).
type SharedInput struct {
	Namespace string `json:"namespace"` // the entry's
	Field     string `json:"field"`     // where it was: "env.GITHUB_TOKEN", "headers.Authorization", "args[3]", "url", "command"
	Input     string `json:"input"`     // the id of the input that replaces it

	description, value string // the input's description; the literal it replaces (import only)
}

// harmlessHeaders are headers whose values say how to talk, never who
// is talking: MarshalShared keeps them as written.
var harmlessHeaders = map[string]bool{
	"accept": true, "accept-language": true, "content-type": true, "user-agent": true, "mcp-protocol-version": true,
}

// MarshalShared is MarshalServersFile for a file to give to someone else
// (an exported coworker, docs/import-agents.md#export): each value
// written literally that may be a credential is replaced by an input
// ${input:ID} (a password, described by the entry and the field), so
// that the file holds no secret of the person who shares it:
//
//   - in "env", the whole value of a variable named like a credential
//     (redact.SecretName: API_KEY, GITHUB_TOKEN, DB_PASSWORD, ...), and
//     in any other variable a URL's password, key-like path segments and
//     query values, and well-known token shapes ("sk-…", "ghp_…");
//   - in "headers", every value but those of Accept, Accept-Language,
//     Content-Type, User-Agent and MCP-Protocol-Version, keeping an
//     authorization scheme ("Bearer ${input:…}");
//   - in "args" and "command", the value of a credential-named option
//     ("--api-key VALUE", "--token=VALUE", "-e API_KEY=VALUE"), a
//     credential-named header argument ("Authorization: Bearer TOKEN"),
//     the token after "Bearer ", token shapes and URL secrets;
//   - in "url", the password, key-like path segments and query values.
//
// References (${VAR}, ${input:ID}) are kept as they are: they hold no
// value. The inputs replaced are returned, in entry and field order.
// Input ids are "<namespace>-<field>" ("github-GITHUB_TOKEN",
// "github-header-Authorization", "github-arg-3", "github-url"), made
// unique. Errors are MarshalServersFile's.
func MarshalShared(entries []ConfigEntry) ([]byte, []SharedInput, error) {
	used := map[string]bool{}
	for _, e := range entries {
		for _, in := range e.Inputs() {
			used[in.ID] = true
		}
	}
	var all []SharedInput
	out := make([]ConfigEntry, len(entries))
	for i, e := range entries {
		if e.raw == nil {
			out[i] = e
			continue
		}
		sh := &sharer{ns: e.Server.Namespace, used: used}
		raw := *e.raw
		raw.command = sh.args("command", []tval{raw.command}, true)[0]
		raw.args = sh.args("args", raw.args, false)
		raw.env = sh.env(raw.env)
		raw.headers = sh.headers(raw.headers)
		raw.url = sh.url(raw.url)
		raw.inputs = append(append([]ConfigInput(nil), raw.inputs...), sh.inputs...)
		e.raw = &raw
		out[i] = e
		all = append(all, sh.shared...)
	}
	data, err := MarshalServersFile(out)
	if err != nil {
		return nil, nil, err
	}
	return data, all, nil
}

// sharer replaces the secrets of one entry by inputs.
type sharer struct {
	ns     string
	used   map[string]bool // input ids of the whole file
	inputs []ConfigInput   // made for this entry
	shared []SharedInput
	// keep, when set, names inputs whose literal stays as written (an
	// import whose person unticked "moves to the keychain"): the id is
	// still taken, so that the others keep theirs.
	keep map[string]bool
}

// input makes a new input for the value at field (named what, for the
// id) and returns its part.
func (sh *sharer) input(field, what, value string) part {
	base := sh.ns + "-" + strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.' {
			return r
		}
		return '_'
	}, what)
	id := base
	for n := 2; sh.used[id]; n++ {
		id = fmt.Sprintf("%s-%d", base, n)
	}
	sh.used[id] = true
	desc := fmt.Sprintf("%s of MCP server %q", field, sh.ns)
	n := 1
	for _, s := range sh.shared {
		if s.Field == field {
			n++
		}
	}
	if n > 1 {
		desc += fmt.Sprintf(" (secret %d)", n)
	}
	if !sh.keep[id] {
		sh.inputs = append(sh.inputs, ConfigInput{ID: id, Description: desc, Password: true})
	}
	sh.shared = append(sh.shared, SharedInput{Namespace: sh.ns, Field: field, Input: id, description: desc, value: value})
	return part{kind: partInput, text: id}
}

// replace returns tv with each literal part's spans (from find)
// replaced by inputs, one per distinct value; tv itself when nothing is
// found.
func (sh *sharer) replace(tv tval, field, what string, find func(text string) []span) tval {
	var out template
	inputs := map[string]part{}
	for _, p := range tv.t {
		if p.kind != partLit {
			out = append(out, p)
			continue
		}
		spans := merge(find(p.text))
		at := 0
		for _, s := range spans {
			if s.from > at {
				out = append(out, part{kind: partLit, text: p.text[at:s.from]})
			}
			v := p.text[s.from:s.to]
			in, ok := inputs[v]
			if !ok {
				in = sh.input(field, what, v)
				inputs[v] = in
			}
			if sh.keep[in.text] {
				in = part{kind: partLit, text: v}
			}
			out = append(out, in)
			at = s.to
		}
		if at < len(p.text) {
			out = append(out, part{kind: partLit, text: p.text[at:]})
		}
	}
	if len(inputs) == 0 {
		return tv
	}
	return tval{t: out, n: tv.n}
}

// span is a byte range of a literal text.
type span struct{ from, to int }

// merge sorts spans and joins those that overlap or touch.
func merge(spans []span) []span {
	sort.Slice(spans, func(i, j int) bool { return spans[i].from < spans[j].from })
	var out []span
	for _, s := range spans {
		if s.to <= s.from {
			continue
		}
		if n := len(out); n > 0 && s.from <= out[n-1].to {
			out[n-1].to = max(out[n-1].to, s.to)
			continue
		}
		out = append(out, s)
	}
	return out
}

// whole is a find func that takes the whole text (none when blank).
func whole(text string) []span {
	if strings.TrimSpace(text) == "" {
		return nil
	}
	return []span{{0, len(text)}}
}

// valueSpans finds, in any text, URL secrets and token shapes.
func valueSpans(text string) []span {
	var out []span
	for _, secret := range redact.URLSecrets(urlIn(text)) {
		out = append(out, occurrences(text, secret)...)
	}
	for _, f := range fieldSpans(text) {
		if tokenShaped(text[f.from:f.to]) {
			out = append(out, f)
		}
	}
	return out
}

// urlIn is the URL text holds, from its scheme to the next blank; "".
func urlIn(text string) string {
	i := strings.Index(text, "://")
	if i < 0 {
		return ""
	}
	start := strings.LastIndexAny(text[:i], " \t\"'=") + 1
	end := strings.IndexAny(text[i:], " \t\"'")
	if end < 0 {
		return text[start:]
	}
	return text[start : i+end]
}

// occurrences are the spans of s in text (s of 4 bytes or more: a
// shorter one would match too much).
func occurrences(text, s string) []span {
	if len(s) < 4 {
		return nil
	}
	var out []span
	for at := 0; ; {
		i := strings.Index(text[at:], s)
		if i < 0 {
			return out
		}
		out = append(out, span{at + i, at + i + len(s)})
		at += i + len(s)
	}
}

// fieldSpans are the spans of the blank-separated words of text.
func fieldSpans(text string) []span {
	var out []span
	start := -1
	for i, r := range text + " " {
		blank := r == ' ' || r == '\t' || r == '\n'
		switch {
		case !blank && start < 0:
			start = i
		case blank && start >= 0:
			out = append(out, span{start, i})
			start = -1
		}
	}
	return out
}

// schemeSpan is the span of an authorization value to replace: after a
// scheme word ("Bearer x" keeps "Bearer "), else the whole value.
func schemeSpan(text string) []span {
	t := strings.TrimSpace(text)
	if t == "" || isScheme(t) { // "Bearer " before a reference holds no secret
		return nil
	}
	lead := strings.Index(text, t)
	if sch, tok, ok := strings.Cut(t, " "); ok && isScheme(sch) && strings.TrimSpace(tok) != "" {
		from := lead + len(sch) + 1
		for from < len(text) && text[from] == ' ' {
			from++
		}
		return []span{{from, lead + len(t)}}
	}
	return []span{{lead, lead + len(t)}}
}

func isScheme(w string) bool {
	switch strings.ToLower(w) {
	case "bearer", "basic", "token", "bot", "apikey", "api-key", "digest":
		return true
	}
	return false
}

// env replaces the secrets of "env".
func (sh *sharer) env(list []kv) []kv {
	out := make([]kv, len(list))
	for i, p := range list {
		find := valueSpans
		if redact.SecretName(p.key) {
			find = whole
		}
		out[i] = kv{key: p.key, v: sh.replace(p.v, "env."+p.key, p.key, find)}
	}
	return out
}

// headers replaces the secrets of "headers".
func (sh *sharer) headers(list []kv) []kv {
	out := make([]kv, len(list))
	for i, p := range list {
		find := schemeSpan
		if harmlessHeaders[strings.ToLower(p.key)] {
			find = valueSpans
		}
		out[i] = kv{key: p.key, v: sh.replace(p.v, "headers."+p.key, "header-"+p.key, find)}
	}
	return out
}

// url replaces the secrets of "url".
func (sh *sharer) url(tv tval) tval {
	if len(tv.t) == 0 {
		return tv
	}
	return sh.replace(tv, "url", "url", func(text string) []span {
		var out []span
		for _, s := range redact.URLSecrets(urlIn(text)) {
			out = append(out, occurrences(text, s)...)
		}
		return out
	})
}

// args replaces the secrets of "args" (or of "command" when command: a
// whole command line may be written there), found as argSecrets finds
// them: each argument alone and after the one before it.
func (sh *sharer) args(field string, list []tval, command bool) []tval {
	out := make([]tval, len(list))
	prev := ""
	for i, a := range list {
		name, what := fmt.Sprintf("%s[%d]", field, i), fmt.Sprintf("arg-%d", i)
		if command {
			name, what = field, field
		}
		after := prev
		find := func(text string) []span {
			if command {
				return commandSpans(text)
			}
			return argSpans(after, text)
		}
		out[i] = sh.replace(a, name, what, find)
		prev, _ = a.t.literalOnly()
	}
	return out
}

// commandSpans are the secrets of a whole command line.
func commandSpans(text string) []span {
	var out []span
	fs := fieldSpans(text)
	for i, f := range fs {
		before := ""
		if i > 0 {
			before = text[fs[i-1].from:fs[i-1].to]
		}
		for _, s := range argSpans(before, text[f.from:f.to]) {
			out = append(out, span{f.from + s.from, f.from + s.to})
		}
	}
	return out
}

// argSpans are the secrets of one argument a, given the one before it.
func argSpans(before, a string) []span {
	if name, _, ok := strings.Cut(a, "="); ok && redact.CredentialName(strings.TrimLeft(name, "-")) && !strings.ContainsAny(name, " /") {
		return []span{{len(name) + 1, len(a)}}
	}
	if name, val, ok := strings.Cut(a, ":"); ok && redact.CredentialName(name) && !strings.ContainsAny(name, " /") {
		out := schemeSpan(val)
		for i := range out {
			out[i].from += len(name) + 1
			out[i].to += len(name) + 1
		}
		return out
	}
	if i := strings.Index(strings.ToLower(a), "bearer "); i >= 0 {
		from := i + len("bearer ")
		for from < len(a) && a[from] == ' ' {
			from++
		}
		to := strings.IndexByte(a[from:], ' ')
		if to < 0 {
			to = len(a) - from
		}
		return []span{{from, from + to}}
	}
	if strings.HasPrefix(before, "-") && !strings.Contains(before, "=") && redact.CredentialName(strings.TrimLeft(before, "-")) && !strings.HasPrefix(a, "-") {
		return whole(a)
	}
	return valueSpans(a)
}
