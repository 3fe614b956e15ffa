package servers

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/openworker/desktop/harness/internal/atomicfile"
	"github.com/openworker/desktop/harness/tool"
	"github.com/openworker/desktop/internal/redact"
)

// ImportAction is what importing one entry of another client's file does
// (docs/servers.md#import).
type ImportAction string

const (
	// ImportAdd: the entry is written to the servers file.
	ImportAdd ImportAction = "add"
	// ImportSame: the servers file already has this entry, as written.
	ImportSame ImportAction = "same"
	// ImportSkip: the entry is not written; Why says why.
	ImportSkip ImportAction = "skip"
)

// ImportItem is one entry of the file being imported, as the person sees
// it before confirming: what it becomes and what importing it does.
type ImportItem struct {
	Name      string       `json:"name"`      // as written in the file
	Line      int          `json:"line"`      // of its name
	Namespace string       `json:"namespace"` // its tools are NAMESPACE.tool
	Transport string       `json:"transport"` // tool.TransportStdio, …; "" when unreadable
	Target    string       `json:"target"`    // the command line, or the URL without credentials or query; references (${VAR}, ${input:ID}) where a value is missing or the entry is disabled
	EnvKeys   []string     `json:"env_keys"`  // names of its environment variables and headers (values are never shown)
	Placement string       `json:"placement"` // tool.PlacementLocal or the remote host
	Disabled  bool         `json:"disabled"`  // imported as disabled, as it is in the file
	Inputs    []string     `json:"inputs"`    // ids of the ${input:ID} it asks for when first used
	Action    ImportAction `json:"action"`
	Why       string       `json:"why"`     // for ImportSkip: the reason and the fix; else ""
	Notices   []string     `json:"notices"` // what is ignored or changed and why ("PATH:LINE: ...")
	// Program is a stdio entry's program as written ("uvx"), "" for any
	// other; ProgramMissing, set by a caller that looked for it
	// (openworker servers import), says why it is not found on this
	// computer, "" when it is or was not looked for.
	Program        string `json:"program,omitempty"`
	ProgramMissing string `json:"program_missing,omitempty"`
	// SecretsKept says where the answers to Inputs are kept, set by a
	// caller that knows ("the OS keychain", an encrypted file's path);
	// "" when not said.
	SecretsKept string `json:"secrets_kept,omitempty"`
	// Secrets are the values of an added entry's "env" and "headers"
	// that look like credentials and are written literally: WriteMoving
	// moves each to the keychain, in its place an input ${input:ID}
	// (docs/servers.md#secrets-move-to-the-keychain). Never their values.
	Secrets []SharedInput `json:"secrets,omitempty"`
}

// ImportPlan is what importing a file into the product's servers.json
// would do. Nothing is written until Write.
type ImportPlan struct {
	From    string       `json:"from"`    // the file imported
	Format  ConfigFormat `json:"format"`  // its format
	Dest    string       `json:"dest"`    // the servers.json written
	Kept    int          `json:"kept"`    // entries of the current servers file, kept as they are
	Items   []ImportItem `json:"items"`   // in the imported file's order
	Notices []string     `json:"notices"` // about the imported file as a whole
	// Digest is "sha256:<hex>" of the bytes Write writes: a preview and a
	// later Write agree when the digests do (the app checks it).
	Digest string `json:"digest"`
	// NoKeychain, set by a caller that looked, says why the secrets of
	// Items cannot move to a keychain on this computer; "" when they can
	// or it was not looked at.
	NoKeychain string `json:"no_keychain,omitempty"`

	data    []byte
	entries []ConfigEntry // the servers file written: kept, then added
	added   []addedAt
}

// addedAt is an added entry: its item and its place in entries.
type addedAt struct{ item, entry int }

// Added is the number of entries Write adds.
func (p *ImportPlan) Added() int {
	n := 0
	for _, it := range p.Items {
		if it.Action == ImportAdd {
			n++
		}
	}
	return n
}

// PlanImport plans importing from (a file of any format, read with
// ReadConfig) into the product's servers.json at dest. current is the
// servers file in use, whose entries are all kept as they are, first and
// in their order; it may be nil (none), and its path may differ from dest
// (a servers file of another format that the app used until now: its
// entries move into dest too).
//
// Each entry of from is added unless:
//   - it cannot be read (a malformed entry: its error, with file:line:col);
//   - a kept entry has the same namespace: ImportSame when it is the same
//     entry as written, else ImportSkip naming the line to rename.
//
// An entry whose only problem is a missing environment variable or input
// is added with its reference (it fails to start until the value exists,
// saying so), and a disabled entry is added disabled. The error is for
// kept entries that cannot be written again (fix that file first); the
// plan is then nil and nothing can be lost.
func PlanImport(from, current *Config, dest string) (*ImportPlan, error) {
	return PlanImportInto(from, current, dest, nil)
}

// TakenNamespaces are the namespaces reg holds before any servers file
// (its MCP providers and the namespaces of its native tools), each with
// what holds it: the taken argument of PlanImportInto for a binary whose
// base registry is reg.
func TakenNamespaces(reg *tool.Registry) map[string]string {
	taken := map[string]string{}
	for _, s := range reg.Servers() {
		taken[s.Namespace] = "the built-in MCP provider " + strconv.Quote(s.Namespace)
	}
	for _, d := range reg.Descriptors() {
		if ns, _, err := tool.SplitName(d.Name); err == nil {
			taken[ns] = "the namespace of built-in tools such as " + d.Name
		}
	}
	return taken
}

// PlanImportInto is PlanImport for a binary whose registry already has
// namespaces of its own: taken maps each to what holds it ("the built-in
// MCP provider device", "native tools"), and an entry with such a
// namespace is skipped, naming it, since it could never load. An entry
// that would not load from the written file for any other reason than a
// value it waits for (an environment variable, an input) is skipped with
// its error, at its place in from.
func PlanImportInto(from, current *Config, dest string, taken map[string]string) (*ImportPlan, error) {
	p := &ImportPlan{From: from.Path, Format: from.Format, Dest: dest, Notices: from.Notices}
	var kept []ConfigEntry
	byNS := map[string]ConfigEntry{}
	if current != nil {
		for _, e := range current.Entries {
			if _, err := MarshalServersFile([]ConfigEntry{e}); err != nil {
				return nil, fmt.Errorf("%s:%d: the entry %q of the servers file in use cannot be kept: %v; fix or remove it before importing", current.Path, e.Line, e.Name, err)
			}
			kept = append(kept, e)
			byNS[e.Server.Namespace] = e
		}
	}
	p.Kept = len(kept)
	out := append([]ConfigEntry(nil), kept...)
	for _, e := range from.Entries {
		it := describeEntry(e)
		one, err := MarshalServersFile([]ConfigEntry{e})
		if err == nil && e.Err != nil {
			err = loadsOnceValuesExist(one, dest)
		}
		switch prev, kept := byNS[e.Server.Namespace]; {
		case err != nil:
			it.Action, it.Why = ImportSkip, entryProblem(e, err)
		case taken[e.Server.Namespace] != "":
			it.Action = ImportSkip
			it.Why = fmt.Sprintf("the namespace %q is %s in this OpenWorker; rename the server in %s",
				e.Server.Namespace, taken[e.Server.Namespace], e.Server.Source)
		case kept:
			same, _ := MarshalServersFile([]ConfigEntry{prev})
			if bytes.Equal(same, one) {
				it.Action = ImportSame
			} else {
				it.Action = ImportSkip
				it.Why = fmt.Sprintf("the namespace %q is already the servers file's entry %q (%s:%d), for another server; rename one of them (import never replaces an entry)",
					e.Server.Namespace, prev.Name, current.Path, prev.Line)
			}
		default:
			it.Action = ImportAdd
			p.added = append(p.added, addedAt{item: len(p.Items), entry: len(out)})
			out = append(out, e)
			byNS[e.Server.Namespace] = e
		}
		p.Items = append(p.Items, it)
	}
	data, err := MarshalServersFile(out)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(data)
	p.data, p.Digest, p.entries = data, "sha256:"+hex.EncodeToString(sum[:]), out
	p.planSecrets()
	return p, nil
}

// loadsOnceValuesExist reads one entry written in the product's form (one,
// to be written at dest) as ReadConfig would, with every environment
// variable and input given a value: the error is what still stops it (a
// plain http:// URL to another computer, a sandbox it asks for), nil when
// only values were missing.
func loadsOnceValuesExist(one []byte, dest string) error {
	cfg, err := parseConfig(dest, one, ConfigOptions{Format: FormatOpenWorker, Context: context.Background(),
		LookupEnv: func(string) (string, bool) { return "value", true },
		Inputs:    func(context.Context, string, string, bool) (string, error) { return "value", nil }})
	if err != nil {
		return err
	}
	for _, e := range cfg.Entries {
		if e.Err != nil {
			return e.Err
		}
	}
	return nil
}

// entryProblem says why an entry cannot be imported.
func entryProblem(e ConfigEntry, marshalErr error) string {
	if e.Err != nil {
		return e.Err.Error()
	}
	return marshalErr.Error()
}

// describeEntry is what an entry becomes, with no secret: values of env
// and headers are left out, and the URL loses credentials and query.
func describeEntry(e ConfigEntry) ImportItem {
	s := e.Server
	it := ImportItem{Name: e.Name, Line: e.Line, Namespace: s.Namespace, Transport: s.Transport, Disabled: e.Disabled, Notices: e.Notices}
	if it.Namespace == "" {
		it.Namespace = e.Name
	}
	if e.Err == nil || s.Program != "" || s.URL != "" {
		it.Placement = s.Placement()
	}
	it.Target = importTarget(e, redact.New(importSecrets(e)))
	it.EnvKeys = envKeys(e)
	if e.Err == nil && s.Transport == tool.TransportStdio && !e.Disabled {
		it.Program = redact.New(importSecrets(e)).Replace(s.Program)
	}
	for _, in := range e.Inputs() {
		it.Inputs = append(it.Inputs, in.ID)
	}
	return it
}

// importSecrets are the values an import preview hides: the entry's
// secrets, and credentials written literally in "env" (as expandInto
// counts them) of an entry that could not be substituted.
func importSecrets(e ConfigEntry) []string {
	secrets := e.Server.Secrets
	if raw := e.raw; raw != nil {
		for _, p := range raw.env {
			if v, lit := p.v.t.literalOnly(); lit && (redact.CredentialName(p.key) || redact.TokenValue(v)) {
				secrets = append(secrets, v)
			}
		}
	}
	return secrets
}

// importTarget is what the entry runs or reaches, as a preview shows it:
// without secrets, credentials in arguments or a URL's query.
func importTarget(e ConfigEntry, red redact.Redactor) string {
	s := e.Server
	switch raw := e.raw; {
	case (e.Err != nil || e.Disabled) && raw != nil:
		// A value is missing (an input not answered, a variable not set)
		// or was not substituted (a disabled entry): the entry as written,
		// references and all, is what is imported.
		return writtenTarget(raw, red)
	case s.URL != "":
		return redact.ShortURL(s.URL)
	case s.Program != "":
		return red.Replace(commandLine(s.Program, displayArgs(s.Args)))
	}
	return ""
}

// writtenTarget is importTarget of an entry as written, its references
// shown as they are.
func writtenTarget(raw *rawEntry, red redact.Redactor) string {
	if raw.transport != tool.TransportStdio {
		// url.URL.String escapes the braces of a reference: put them back.
		return strings.NewReplacer("$%7B", "${", "%7D", "}").Replace(redact.ShortURL(raw.x.displayText(raw.url.t)))
	}
	args := make([]string, len(raw.args))
	for i, a := range raw.args {
		args[i] = raw.x.displayText(a.t)
	}
	shown := displayArgs(args)
	for i, a := range raw.args {
		if a.t.referencesOnly() { // "--key ${input:key}" shows the reference: it holds no value
			shown[i] = args[i]
		}
	}
	return red.Replace(commandLine(raw.x.displayText(raw.command.t), shown))
}

// envKeys are the names of the entry's environment variables and
// headers, sorted: as written, whether or not their values could be
// substituted.
func envKeys(e ConfigEntry) []string {
	var out []string
	if raw := e.raw; raw != nil {
		for _, p := range append(append([]kv(nil), raw.env...), raw.headers...) {
			out = append(out, p.key)
		}
	} else {
		for k := range e.Server.Env {
			out = append(out, k)
		}
		for k := range e.Server.Headers {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// displayArgs hides what looks like a credential in command-line
// arguments, for display only: the value after a flag named like one
// ("--api-key VALUE", "--token=VALUE"), a URL's password
// ("postgresql://admin:PASSWORD@db/app") and well-known token shapes
// ("sk-…", "ghp_…", "xoxb-…", "AKIA…").
func displayArgs(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		switch {
		case i > 0 && strings.HasPrefix(args[i-1], "-") && !strings.Contains(args[i-1], "=") && redact.CredentialName(args[i-1]) && !strings.HasPrefix(a, "-"):
			a = redact.Redacted
		case strings.HasPrefix(a, "-") && strings.Contains(a, "="):
			if name, _, _ := strings.Cut(a, "="); redact.CredentialName(name) {
				a = name + "=" + redact.Redacted
			}
		case tokenShaped(a):
			a = redact.Redacted
		}
		out[i] = hideURLPassword(a)
	}
	return out
}

// hideURLPassword replaces the password of every "scheme://user:pass@"
// in s.
func hideURLPassword(s string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "://")
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i+3])
		s = s[i+3:]
		end := strings.IndexAny(s, "/?# ")
		if end < 0 {
			end = len(s)
		}
		if at := strings.LastIndex(s[:end], "@"); at >= 0 {
			if colon := strings.Index(s[:at], ":"); colon >= 0 {
				b.WriteString(s[:colon+1] + redact.Redacted)
				s = s[at:]
			}
		}
	}
}

// tokenShaped reports whether s looks like a well-known API token.
func tokenShaped(s string) bool {
	if len(s) < 16 || strings.ContainsAny(s, " /") {
		return false
	}
	for _, p := range []string{"sk-", "sk_live_", "ghp_", "gho_", "ghs_", "github_pat_", "glpat-", "xoxb-", "xoxp-", "AKIA", "AIza"} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// commandLine joins a program and its arguments for display, quoting
// those with spaces or quotes.
func commandLine(program string, args []string) string {
	parts := make([]string, 0, 1+len(args))
	for _, a := range append([]string{program}, args...) {
		if a == "" || strings.ContainsAny(a, " \t\"'") {
			a = fmt.Sprintf("%q", a)
		}
		parts = append(parts, a)
	}
	return strings.Join(parts, " ")
}

// Write writes the planned servers file: the current dest, if any, is
// first copied to dest+".bak" (replacing an older copy, so the last file
// before an import can always be restored, comments included), then dest
// is replaced in one step (WriteServersFile's rules, mode 0600). When dest
// is a symbolic link, the file it points to is written and the link
// stays. A plan that adds nothing writes nothing.
func (p *ImportPlan) Write() error {
	if p.Added() == 0 {
		return nil
	}
	return p.write(p.data)
}

// write writes data as Write does.
func (p *ImportPlan) write(data []byte) error {
	dest := p.Dest
	if real, err := filepath.EvalSymlinks(dest); err == nil {
		dest = real // a servers.json that is a link: write where it points, keep the link
	}
	if err := os.MkdirAll(filepath.Dir(dest), 0o700); err != nil {
		return fmt.Errorf("write %s: %w", p.Dest, err)
	}
	old, err := os.ReadFile(dest)
	switch {
	case err == nil:
		if err := atomicfile.WriteFile(dest+".bak", old, 0o600); err != nil {
			return fmt.Errorf("keep a copy of %s before importing: %w", p.Dest, err)
		}
	case !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("read %s before importing: %w", p.Dest, err)
	}
	return atomicfile.WriteFile(dest, data, 0o600)
}
