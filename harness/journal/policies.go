package journal

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/openworker/desktop/harness/consent"
)

// User policies are the person's saved answers (docs/consent.md): "always allow
// for this coworker" and explicit allow/deny/ask choices. They are keyed by
// coworker, qualified tool name and descriptor digest, so a changed tool
// (new digest) finds no policy and asks again.

// UserPolicyRow is one saved policy.
type UserPolicyRow struct {
	Coworker         string    `json:"coworker"`
	Tool             string    `json:"tool"`
	DescriptorDigest string    `json:"descriptor_digest"`
	Policy           string    `json:"policy"`
	CreatedAt        time.Time `json:"created_at"`
	UpdatedAt        time.Time `json:"updated_at"`
}

// SaveUserPolicy saves (or replaces) the policy for coworker, tool and
// descriptor digest; policy is allow, deny or ask. All four are required.
func (j *Journal) SaveUserPolicy(ctx context.Context, coworker, tool, digest, policy string) error {
	if coworker == "" || tool == "" || digest == "" {
		return fmt.Errorf("journal: SaveUserPolicy: coworker %q, tool %q and descriptor digest %q must all be set", coworker, tool, digest)
	}
	if !consent.Policy(policy).Valid() {
		return fmt.Errorf("journal: SaveUserPolicy: policy %q; want %s", policy, consent.OneOf(consent.Policies()))
	}
	now := j.stamp()
	return j.write(ctx, func(tx *sql.Tx) error {
		var id int64
		err := tx.QueryRowContext(ctx, `INSERT INTO user_policies(coworker, tool, descriptor_digest, policy, created_at, updated_at)
			VALUES (?,?,?,?,?,?) ON CONFLICT(coworker, tool, descriptor_digest)
			DO UPDATE SET policy=excluded.policy, updated_at=excluded.updated_at RETURNING id`,
			coworker, tool, digest, policy, now, now).Scan(&id)
		if err != nil {
			return fmt.Errorf("journal: save policy for %s %s: %w", coworker, tool, err)
		}
		return j.chainRow(ctx, tx, "user_policies", id)
	})
}

// UserPolicy returns the saved policy for coworker, tool and descriptor
// digest, and whether there is one.
//
// Only a policy the journal itself wrote counts: the row must match the
// newest chain entry for it (same table and row, and the payload digest of
// the row as it is now), the check Verify makes. A row inserted or changed
// outside OpenWorker (sqlite3 journal.db "insert into user_policies ...")
// is not returned: the result is ("", false, err) with err an
// *UnchainedPolicyError, so a caller that treats any error as "no policy"
// asks again, and one that wants to can report it. A user who answers
// "always allow" again saves a new, chained policy over it.
//
// This stops a row written by hand; it does not stop someone who also
// appends a matching chain entry (the chain is not a signature: only a
// Head() kept elsewhere shows that). Cost: one indexed lookup (the partial
// index chain_policies) and, when a row is found, one SHA-256 of it.
func (j *Journal) UserPolicy(ctx context.Context, coworker, tool, digest string) (string, bool, error) {
	// Asked twice per call (consent, then the recheck before execution):
	// a prepared statement.
	st, err := j.prepared(ctx, sqlUserPolicy)
	if err != nil {
		return "", false, err
	}
	rows, err := st.QueryContext(ctx, coworker, tool, digest)
	if err != nil {
		return "", false, fmt.Errorf("journal: policy for %s %s: %w", coworker, tool, err)
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return "", false, fmt.Errorf("journal: policy for %s %s: %w", coworker, tool, err)
		}
		return "", false, nil
	}
	policy, rowDigest, chained, err := scanPolicyRow(rows)
	if err != nil {
		return "", false, fmt.Errorf("journal: policy for %s %s: %w", coworker, tool, err)
	}
	if chained != rowDigest {
		return "", false, &UnchainedPolicyError{Coworker: coworker, Tool: tool, Digest: digest, Policy: policy, NoEntry: chained == ""}
	}
	return policy, true, nil
}

// sqlUserPolicy reads the policy row with every column (the payload the
// chain hashes) and the payload digest of the newest chain entry for it.
const sqlUserPolicy = `SELECT p.*, (SELECT c.payload_digest FROM chain c
	WHERE c.kind = 'user_policies' AND c.ref = CAST(p.id AS TEXT) ORDER BY c.seq DESC LIMIT 1) AS chain_digest_
	FROM user_policies p WHERE p.coworker=? AND p.tool=? AND p.descriptor_digest=?`

// scanPolicyRow scans a row of sqlUserPolicy: the policy, the payload
// digest of the row as it is now and that of its newest chain entry ("" for
// none).
func scanPolicyRow(rows *sql.Rows) (policy, rowDigest, chained string, err error) {
	cols, err := rows.Columns()
	if err != nil {
		return "", "", "", err
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	if err := rows.Scan(ptrs...); err != nil {
		return "", "", "", err
	}
	n := len(cols) - 1 // the last column is chain_digest_
	p := make(rowPayload, 0, n)
	for i, col := range cols[:n] {
		s, ok, err := payloadValue(vals[i])
		if err != nil {
			return "", "", "", fmt.Errorf("column %s: %w", col, err)
		}
		if col == "policy" {
			policy = s
		}
		if ok {
			p = append(p, field{col, s})
		}
	}
	sortFields(p)
	if c, ok, err := payloadValue(vals[n]); err != nil {
		return "", "", "", err
	} else if ok {
		chained = c
	}
	return policy, payloadDigest("user_policies", p), chained, nil
}

// UnchainedPolicyError is UserPolicy's error for a saved policy whose row
// does not match the journal's chain: written or changed outside
// OpenWorker. The policy is ignored (treated as absent).
type UnchainedPolicyError struct {
	Coworker, Tool, Digest string
	Policy                 string // what the row says ("allow", ...); not applied
	NoEntry                bool   // no chain entry at all (rather than one for another state of the row)
}

func (e *UnchainedPolicyError) Error() string {
	why := "was changed after the journal wrote it"
	if e.NoEntry {
		why = "was not written by OpenWorker"
	}
	return fmt.Sprintf("journal: the saved %q policy for %s in coworker %s %s (it is not in the journal's hash chain); it is ignored and the user is asked again; verify the journal to see what else changed",
		e.Policy, e.Tool, e.Coworker, why)
}

// UserPolicies returns the saved policies of a coworker ("" for all
// coworkers), ordered by coworker and tool.
func (j *Journal) UserPolicies(ctx context.Context, coworker string) ([]UserPolicyRow, error) {
	return queryAll(ctx, j.db, "user policies", func(sc scanner) (UserPolicyRow, error) {
		var r UserPolicyRow
		var c, u sql.NullString
		err := sc.Scan(&r.Coworker, &r.Tool, &r.DescriptorDigest, &r.Policy, &c, &u)
		r.CreatedAt, r.UpdatedAt = parseTime(c), parseTime(u)
		return r, err
	}, `SELECT coworker, tool, descriptor_digest, policy, created_at, updated_at FROM user_policies
		WHERE ?='' OR coworker=? ORDER BY coworker, tool, descriptor_digest`, coworker, coworker)
}
