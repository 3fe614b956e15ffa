package journal

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// User policies are the person's saved answers (SPEC §7): "always allow
// for this coworker" and explicit allow/deny/ask choices. They are keyed by
// coworker, qualified tool name and descriptor digest, so a changed tool
// (new digest) finds no policy and asks again.

// Policy values.
const (
	PolicyAllow = "allow"
	PolicyDeny  = "deny"
	PolicyAsk   = "ask"
)

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
	switch policy {
	case PolicyAllow, PolicyDeny, PolicyAsk:
	default:
		return fmt.Errorf("journal: SaveUserPolicy: policy %q; want allow, deny or ask", policy)
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
func (j *Journal) UserPolicy(ctx context.Context, coworker, tool, digest string) (string, bool, error) {
	// Asked twice per call (consent, then the recheck before execution):
	// a prepared statement.
	st, err := j.prepared(ctx, `SELECT policy FROM user_policies WHERE coworker=? AND tool=? AND descriptor_digest=?`)
	if err != nil {
		return "", false, err
	}
	var p string
	err = st.QueryRowContext(ctx, coworker, tool, digest).Scan(&p)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("journal: policy for %s %s: %w", coworker, tool, err)
	}
	return p, true, nil
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
