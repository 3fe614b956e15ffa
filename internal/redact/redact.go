// Package redact is the one way OpenWorker hides secrets in text it did
// not write: what an MCP server or an A2A agent sends back
// (docs/mcp.md#secrets, docs/a2a.md#secrets), the start errors and stderr
// of a provider, and the report of `openworker doctor` and the app's
// "Copy diagnostics" (docs/cli.md#doctor). It is a module-internal
// package, so the harness, the app and the CLI use the same rules:
//
//   - a value is a secret when it has at least MinSecret bytes (after
//     surrounding white space is trimmed; the untrimmed value is hidden
//     too);
//   - each secret is also hidden in every form it may take in text that
//     echoes it: JSON-escaped (as encoding/json writes it, with and
//     without HTML escaping, and with every non-ASCII character as a
//     \uXXXX escape, lower- and upper-case hex), URL-encoded (query and
//     path escaping) and base64 (standard and URL alphabets, padded and
//     not);
//   - where forms overlap, the longest is replaced, and a run of text
//     that overlapping forms cover becomes one replacement, so that no
//     piece of a longer secret survives next to a shorter one that is its
//     prefix (sk-abc and sk-abcdef123).
//
// r := redact.New([]string{key})
// msg = r.Replace(msg)
package redact

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"unicode/utf16"
)

// Redacted replaces a secret.
const Redacted = "[redacted]"

// MinSecret is the shortest value, in bytes, treated as a secret: shorter
// ones ("1", "on") would blank out ordinary text. A value that is shorter
// once trimmed of surrounding white space is not a secret.
const MinSecret = 4

// Label replaces one value by As instead of Redacted, so that a message
// can say where the value came from without showing it: a provider's
// start error says "[args[2] from ${DOCTOR_ARG}]" for the value a
// variable put there (docs/servers.md#substitution). A label is applied
// as written, whatever its length, and only in that form.
type Label struct{ Value, As string }

// Redactor replaces secrets in text. The zero value replaces nothing. A
// Redactor is immutable once made, so it may be used from any number of
// goroutines.
type Redactor struct {
	forms []form // longest first; labels before secrets of the same length
}

// form is one string to replace and what replaces it.
type form struct{ s, as string }

// New returns a Redactor of secrets (each in all its forms; see the
// package doc) and labels. Duplicates, empty values and values shorter
// than MinSecret are left out.
func New(secrets []string, labels ...Label) Redactor {
	seen := map[string]bool{}
	var labelled, plain []form
	for _, l := range labels {
		if l.Value != "" && !seen[l.Value] {
			seen[l.Value] = true
			labelled = append(labelled, form{l.Value, l.As})
		}
	}
	for _, s := range secrets {
		for _, v := range []string{s, strings.TrimSpace(s)} {
			if len(strings.TrimSpace(v)) < MinSecret {
				continue
			}
			for _, f := range secretForms(v) {
				if !seen[f] {
					seen[f] = true
					plain = append(plain, form{f, Redacted})
				}
			}
		}
	}
	forms := append(labelled, plain...)
	// Longest first: at one place in a text the longest form wins.
	// Stable, so labels stay before secrets of the same length and the
	// order is the same for the same input.
	slices.SortStableFunc(forms, func(a, b form) int { return len(b.s) - len(a.s) })
	return Redactor{forms: forms}
}

// secretForms are the forms secret may take in text that echoes it, as listed
// in the package doc, each once, beginning with secret itself.
func secretForms(secret string) []string {
	out := []string{secret}
	add := func(f string) {
		if f != "" && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	for _, inner := range jsonForms(secret) {
		add(inner)
		add(asciiEscaped(inner, "\\u%04x"))
		add(asciiEscaped(inner, "\\u%04X"))
	}
	add(url.QueryEscape(secret))
	add(url.PathEscape(secret))
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		add(enc.EncodeToString([]byte(secret)))
	}
	return out
}

// jsonForms are s as it stands inside a JSON string: as json.Marshal
// writes it ('<', '>' and '&' escaped) and as an encoder without HTML
// escaping does (the harness's own, harness/internal/jsonenc).
func jsonForms(s string) []string {
	var out []string
	if q, err := json.Marshal(s); err == nil {
		out = append(out, string(q[1:len(q)-1]))
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(s) == nil {
		q := strings.TrimSuffix(b.String(), "\n")
		out = append(out, q[1:len(q)-1])
	}
	return out
}

// asciiEscaped writes every non-ASCII character of the JSON string body s
// as a \uXXXX escape (a surrogate pair above U+FFFF) in format, as
// encoders that keep JSON ASCII do (Python's json.dumps, PHP's
// json_encode).
func asciiEscaped(s, format string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r < 0x80:
			b.WriteRune(r)
		case r > 0xFFFF:
			hi, lo := utf16.EncodeRune(r)
			fmt.Fprintf(&b, format+format, hi, lo)
		default:
			fmt.Fprintf(&b, format, r)
		}
	}
	return b.String()
}

// Active reports whether r replaces anything.
func (r Redactor) Active() bool { return len(r.forms) > 0 }

// span is a run of text to replace, [lo, hi), by as.
type span struct {
	lo, hi int
	as     string
}

// spans are the runs of s that forms cover, in order and apart: every
// occurrence of every form (overlapping ones too) is found, and
// occurrences that overlap join into one run, replaced by what replaces
// the first of them (the longest one starting there).
func (r Redactor) spans(s string) []span {
	type hit struct{ lo, hi, rank int }
	var hits []hit
	for rank, f := range r.forms {
		for from := 0; from < len(s); {
			k := strings.Index(s[from:], f.s)
			if k < 0 {
				break
			}
			lo := from + k
			hits = append(hits, hit{lo, lo + len(f.s), rank})
			from = lo + 1
		}
	}
	if len(hits) == 0 {
		return nil
	}
	slices.SortFunc(hits, func(a, b hit) int {
		if a.lo != b.lo {
			return a.lo - b.lo
		}
		return a.rank - b.rank
	})
	out := []span{{hits[0].lo, hits[0].hi, r.forms[hits[0].rank].as}}
	for _, h := range hits[1:] {
		last := &out[len(out)-1]
		if h.lo < last.hi {
			last.hi = max(last.hi, h.hi)
			continue
		}
		out = append(out, span{h.lo, h.hi, r.forms[h.rank].as})
	}
	return out
}

// Replace returns s with every secret replaced by Redacted and every
// label's value by its As.
func (r Redactor) Replace(s string) string {
	if len(r.forms) == 0 {
		return s
	}
	spans := r.spans(s)
	if len(spans) == 0 {
		return s
	}
	var b strings.Builder
	done := 0
	for _, sp := range spans {
		b.WriteString(s[done:sp.lo])
		b.WriteString(sp.as)
		done = sp.hi
	}
	b.WriteString(s[done:])
	return b.String()
}

// JSON returns the JSON value b with its secrets replaced inside the
// strings that hold them, so that it stays valid JSON; nil when it does
// not (a secret that spanned JSON syntax): the caller drops the value.
// An empty b is returned as it is.
func (r Redactor) JSON(b json.RawMessage) json.RawMessage {
	if len(r.forms) == 0 || len(b) == 0 {
		return b
	}
	out := r.Replace(string(b))
	if !json.Valid([]byte(out)) {
		return nil
	}
	return json.RawMessage(out)
}

// Error returns err with its message replaced, or err itself when the
// message holds no secret; errors.Is and errors.As still see err through
// Unwrap.
func (r Redactor) Error(err error) error {
	if err == nil || len(r.forms) == 0 {
		return err
	}
	msg := err.Error()
	if red := r.Replace(msg); red != msg {
		return &redactedError{msg: red, err: err}
	}
	return err
}

type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

// Tail replaces the secrets of s, the end of a longer text that may begin
// in the middle of a secret (the older part was dropped, as of a
// provider's stderr): a leading fragment of at least MinSecret bytes that
// ends a secret (in any of its forms) becomes Redacted too; the longest
// such fragment is taken.
func (r Redactor) Tail(s string) string {
	s = r.Replace(s)
	cut := 0
	for _, f := range r.forms {
		for k := len(f.s) - 1; k >= MinSecret && k > cut; k-- {
			if strings.HasPrefix(s, f.s[len(f.s)-k:]) {
				cut = k
				break
			}
		}
	}
	if cut == 0 {
		return s
	}
	return Redacted + s[cut:]
}

// Texts redacts adjacent text blocks that a reader sees joined, as a
// model reads a tool result's text blocks (docs/mcp.md#secrets): each
// occurrence of a secret's form in their concatenation, directly or with
// the "\n" put between blocks, becomes Redacted in every block that holds
// a piece of it, so that a secret split across blocks reaches no one in
// halves. A fragment is redacted only when the blocks together hold the
// whole form; ordinary text at a boundary stays. ts[i] becomes the i-th
// result.
func (r Redactor) Texts(ts []string) []string {
	out := make([]string, len(ts))
	if len(r.forms) == 0 || len(ts) < 2 {
		for i, t := range ts {
			out[i] = r.Replace(t)
		}
		return out
	}
	marks := make([][]span, len(ts)) // per block, byte ranges inside a secret
	starts := make([]int, len(ts))
	for _, sep := range []string{"", "\n"} {
		var joined strings.Builder
		for i, t := range ts {
			if i > 0 {
				joined.WriteString(sep)
			}
			starts[i] = joined.Len()
			joined.WriteString(t)
		}
		for _, sp := range r.spans(joined.String()) {
			for i, t := range ts {
				if lo, hi := max(sp.lo, starts[i]), min(sp.hi, starts[i]+len(t)); lo < hi {
					marks[i] = append(marks[i], span{lo - starts[i], hi - starts[i], Redacted})
				}
			}
		}
	}
	for i, t := range ts {
		out[i] = r.cut(t, marks[i])
	}
	return out
}

// cut replaces each run of t the spans cover with one Redacted and the
// rest as Replace does.
func (r Redactor) cut(t string, spans []span) string {
	if len(spans) == 0 {
		return r.Replace(t)
	}
	slices.SortFunc(spans, func(x, y span) int { return x.lo - y.lo })
	var b strings.Builder
	done := 0
	for i := 0; i < len(spans); {
		lo, hi := spans[i].lo, spans[i].hi
		for i++; i < len(spans) && spans[i].lo < hi; i++ { // overlapping: one run
			hi = max(hi, spans[i].hi)
		}
		b.WriteString(r.Replace(t[done:lo]))
		b.WriteString(Redacted)
		done = hi
	}
	b.WriteString(r.Replace(t[done:]))
	return b.String()
}
