package journal

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness/consent"
)

// TestUserPolicyMustBeChained: a policy row written outside the journal
// (the review's `sqlite3 journal.db "insert into user_policies ..."`) or
// changed after it, or set back to an older state, is not honoured.
func TestUserPolicyMustBeChained(t *testing.T) {
	ctx := context.Background()
	path := testPath(t)
	j := openAt(t, path)
	raw := rawDB(t, path)
	want := func(tool, wantPolicy string, wantNoEntry *bool) {
		t.Helper()
		p, ok, err := j.UserPolicy(ctx, "cw", tool, "sha256:d")
		if wantNoEntry == nil {
			if err != nil || !ok || p != wantPolicy {
				t.Errorf("UserPolicy(%s) = %q, %v, %v; want %q", tool, p, ok, err, wantPolicy)
			}
			return
		}
		var ue *UnchainedPolicyError
		if ok || p != "" || !errors.As(err, &ue) || ue.Policy != wantPolicy || ue.NoEntry != *wantNoEntry || ue.Tool != tool {
			t.Errorf("UserPolicy(%s) = %q, %v, %v; want it ignored with an *UnchainedPolicyError (policy %q, NoEntry %v)", tool, p, ok, err, wantPolicy, *wantNoEntry)
		}
	}
	yes, no := true, false

	if err := j.SaveUserPolicy(ctx, "cw", "ex.saved", "sha256:d", string(consent.PolicyAllow)); err != nil {
		t.Fatal(err)
	}
	want("ex.saved", string(consent.PolicyAllow), nil)

	// Inserted by hand: no chain entry.
	if _, err := raw.Exec(`INSERT INTO user_policies(coworker, tool, descriptor_digest, policy, created_at, updated_at)
		VALUES ('cw','ex.forged','sha256:d','allow','2025-01-01T00:00:00.000000000Z','2025-01-01T00:00:00.000000000Z')`); err != nil {
		t.Fatal(err)
	}
	want("ex.forged", string(consent.PolicyAllow), &yes)
	// Verified from another Journal: Verify degrades the Journal it runs
	// on, and this one goes on writing below.
	other := openAt(t, path)
	if rep := mustVerify(t, other); rep.OK || rep.First.Reason != ReasonRowUnchained || rep.First.Table != "user_policies" {
		t.Errorf("Verify = %+v, want the forged row flagged", rep.First)
	}
	if other.Health().Problem != ProblemChainBroken {
		t.Errorf("Health after Verify found a break = %+v; want chain_broken", other.Health())
	}
	other.Close()

	// Changed by hand: deny turned into allow.
	if err := j.SaveUserPolicy(ctx, "cw", "ex.denied", "sha256:d", string(consent.PolicyDeny)); err != nil {
		t.Fatal(err)
	}
	want("ex.denied", string(consent.PolicyDeny), nil)
	if _, err := raw.Exec(`UPDATE user_policies SET policy='allow' WHERE tool='ex.denied'`); err != nil {
		t.Fatal(err)
	}
	want("ex.denied", string(consent.PolicyAllow), &no)

	// Set back to an older state the chain once held: only the newest
	// entry of a row counts.
	if err := j.SaveUserPolicy(ctx, "cw", "ex.flip", "sha256:d", string(consent.PolicyAllow)); err != nil {
		t.Fatal(err)
	}
	var oldUpdated string
	if err := raw.QueryRow(`SELECT updated_at FROM user_policies WHERE tool='ex.flip'`).Scan(&oldUpdated); err != nil {
		t.Fatal(err)
	}
	if err := j.SaveUserPolicy(ctx, "cw", "ex.flip", "sha256:d", string(consent.PolicyDeny)); err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(`UPDATE user_policies SET policy='allow', updated_at=? WHERE tool='ex.flip'`, oldUpdated); err != nil {
		t.Fatal(err)
	}
	want("ex.flip", string(consent.PolicyAllow), &no)

	// The user answering again writes a chained policy over the forged row.
	if err := j.SaveUserPolicy(ctx, "cw", "ex.forged", "sha256:d", string(consent.PolicyDeny)); err != nil {
		t.Fatal(err)
	}
	want("ex.forged", string(consent.PolicyDeny), nil)

	// The error says what happened and what to do.
	_, _, err := j.UserPolicy(ctx, "cw", "ex.denied", "sha256:d")
	if err == nil || !strings.Contains(err.Error(), `saved "allow" policy for ex.denied in coworker cw was changed after the journal wrote it`) ||
		!strings.Contains(err.Error(), "verify the journal") {
		t.Errorf("error = %v", err)
	}
	// A missing policy is still plain not-found.
	if p, ok, err := j.UserPolicy(ctx, "cw", "ex.none", "sha256:d"); ok || p != "" || err != nil {
		t.Errorf("UserPolicy(missing) = %q, %v, %v", p, ok, err)
	}
}

// TestUserPolicyUsesIndex: the lookup is one indexed search of the policy
// row and one of its chain entries, never a scan of the chain.
func TestUserPolicyUsesIndex(t *testing.T) {
	j := openTest(t)
	rows, err := j.db.Query(`EXPLAIN QUERY PLAN `+sqlUserPolicy, "cw", "t", "d")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, notused int
		var detail string
		if err := rows.Scan(&id, &parent, &notused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	all := strings.Join(plan, "\n")
	if !strings.Contains(all, "USING INDEX chain_policies (ref=?)") || strings.Contains(all, "SCAN") || strings.Contains(all, "TEMP B-TREE") {
		t.Errorf("query plan:\n%s\nwant both searches indexed (chain_policies for the chain)", all)
	}
}
