package servers

import (
	"errors"
	"fmt"
)

// Moving literal secrets to the keychain on import
// (docs/servers.md#secrets-move-to-the-keychain): another client's file
// often holds a token as written ("GITHUB_TOKEN": "ghp_…", "Authorization":
// "Bearer …"). Imported as it is, the token would be copied in plain text
// into servers.json. Instead each such value of an added entry's "env" and
// "headers" becomes an input ${input:ID} (a password, with its
// definition), and the value is kept as that input's answer in the OS
// keychain (InputAccount), from where the harness reads it at each start.
// The person may keep any of them as written (ImportPlan.WriteMoving).

// moveSecrets finds the secrets of e's "env" and "headers" as MarshalShared
// finds them (redact.SecretName, token shapes, URL passwords, every
// header but the harmless ones), taking input ids not in used (and
// marking them used). keep names inputs to leave as written. It returns
// the entry with the moved secrets replaced, and every secret found.
func moveSecrets(e ConfigEntry, used map[string]bool, keep map[string]bool) (ConfigEntry, []SharedInput) {
	if e.raw == nil {
		return e, nil
	}
	sh := &sharer{ns: e.Server.Namespace, used: used, keep: keep}
	raw := *e.raw
	raw.env = sh.env(raw.env)
	raw.headers = sh.headers(raw.headers)
	raw.inputs = append(append([]ConfigInput(nil), raw.inputs...), sh.inputs...)
	e.raw = &raw
	return e, sh.shared
}

// usedInputs are the input ids of entries.
func usedInputs(entries []ConfigEntry) map[string]bool {
	used := map[string]bool{}
	for _, e := range entries {
		for _, in := range e.Inputs() {
			used[in.ID] = true
		}
	}
	return used
}

// planSecrets sets, on each added item, the secrets importing would
// move (ImportItem.Secrets). It runs after the plan's entries are known,
// so that ids are those WriteMoving gives.
func (p *ImportPlan) planSecrets() {
	used := usedInputs(p.entries)
	for _, a := range p.added {
		_, found := moveSecrets(p.entries[a.entry], used, nil)
		p.Items[a.item].Secrets = found
	}
}

// Secrets are the values of the added entries that WriteMoving moves to
// the keychain unless kept, in entry and field order.
func (p *ImportPlan) Secrets() []SharedInput {
	var out []SharedInput
	for _, it := range p.Items {
		out = append(out, it.Secrets...)
	}
	return out
}

// KeepSecret stores one moved secret: the answer of input id (described
// by description) is value. servers.SetInput is the OS keychain's.
type KeepSecret func(id, description, value string) error

// ErrKeepSecret wraps a KeepSecret failure: nothing was written.
var ErrKeepSecret = errors.New("a secret could not be moved to the keychain")

// WriteMoving is Write with the secrets of the added entries (Secrets)
// moved: each whose input id is not in keepLiteral is first kept with
// store (a failure writes nothing and names the secret and the fix), then
// the servers file is written with ${input:ID} in its place and the
// input's definition. keepLiteral names secrets the person chose to keep
// as written. store may be nil only when every secret is kept literal.
func (p *ImportPlan) WriteMoving(keepLiteral map[string]bool, store KeepSecret) error {
	if p.Added() == 0 {
		return nil
	}
	for id := range keepLiteral {
		if !p.hasSecret(id) {
			return fmt.Errorf("the import has no secret %q to keep as written; look at the preview again", id)
		}
	}
	used := usedInputs(p.entries)
	out := append([]ConfigEntry(nil), p.entries...)
	var moved []SharedInput
	for _, a := range p.added {
		var found []SharedInput
		out[a.entry], found = moveSecrets(out[a.entry], used, keepLiteral)
		for _, s := range found {
			if !keepLiteral[s.Input] {
				moved = append(moved, s)
			}
		}
	}
	if len(moved) > 0 && store == nil {
		return fmt.Errorf("%w: no keychain was given; keep the secrets as written instead", ErrKeepSecret)
	}
	for _, s := range moved {
		if err := store(s.Input, s.description, s.value); err != nil {
			return fmt.Errorf("%w: %s of server %q: %v; nothing was written: untick \"moves to the keychain\" to keep it in servers.json as written", ErrKeepSecret, s.Field, s.Namespace, err)
		}
	}
	data, err := MarshalServersFile(out)
	if err != nil {
		return err
	}
	return p.write(data)
}

func (p *ImportPlan) hasSecret(id string) bool {
	for _, s := range p.Secrets() {
		if s.Input == id {
			return true
		}
	}
	return false
}
