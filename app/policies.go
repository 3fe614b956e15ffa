package app

import (
	"fmt"

	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/journal"
)

// SavedPolicy is one saved answer as Settings → Permissions lists it
// (docs/consent.md#saved-answers): a journal.UserPolicyRow and, when the
// harness does not honour the row (it is outside the journal's hash chain),
// why.
type SavedPolicy struct {
	journal.UserPolicyRow
	Ignored string `json:"ignored,omitempty"`
}

// Policies lists the saved "always allow" and "always deny" answers of
// every coworker, ordered by coworker and tool. Answers taken back (saved
// as "ask" by RevokePolicy or `openworker journal revoke`) are left out.
func (pr *Preferences) Policies() ([]SavedPolicy, error) {
	j, err := pr.engine.openJournal()
	if err != nil {
		return nil, err
	}
	rows, err := j.UserPolicies(pr.base, "")
	if err != nil {
		return nil, j.Explain(err)
	}
	out := make([]SavedPolicy, 0, len(rows))
	for _, r := range rows {
		if r.Policy == string(consent.PolicyAsk) {
			continue
		}
		p := SavedPolicy{UserPolicyRow: r}
		// The lookup consent makes: a row outside the hash chain is ignored.
		if _, _, err := j.UserPolicy(pr.base, r.Coworker, r.Tool, r.DescriptorDigest); err != nil {
			p.Ignored = err.Error()
		}
		out = append(out, p)
	}
	return out, nil
}

// RevokePolicy takes back the saved answer for a coworker's tool with that
// descriptor digest (a row of Policies): the next call asks again, in
// chats open now too (their grants of the tool are dropped). The row
// is saved as "ask" rather than deleted, so the journal's hash chain keeps
// the history. It is an error when no such answer is saved.
func (pr *Preferences) RevokePolicy(coworker, tool, digest string) error {
	j, err := pr.engine.openJournal()
	if err != nil {
		return err
	}
	rows, err := j.UserPolicies(pr.base, coworker)
	if err != nil {
		return j.Explain(err)
	}
	for _, r := range rows {
		if r.Tool == tool && r.DescriptorDigest == digest && r.Policy != string(consent.PolicyAsk) {
			if err := j.SaveUserPolicy(pr.base, coworker, tool, digest, string(consent.PolicyAsk)); err != nil {
				return j.Explain(err)
			}
			pr.engine.revokeGrants(coworker, tool)
			return nil
		}
	}
	return fmt.Errorf("no saved answer for %s of coworker %q; reload Settings to see the current list", tool, coworker)
}
