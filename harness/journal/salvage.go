package journal

import (
	"context"
	"fmt"
)

// SessionIDs returns the ID of every session the file still yields, for
// saving what a damaged journal holds (`journal export`,
// docs/journal.md#degraded): newest first when the sessions can be read
// through their index; else whatever a scan of the sessions table that
// uses no index reads before the damage stops it, together with the
// sessions the turns and invocations name. The error is only for a file
// from which no ID at all can be read.
func (j *Journal) SessionIDs(ctx context.Context) ([]string, error) {
	ids, err := j.scanIDs(ctx, `SELECT id FROM sessions ORDER BY created_at DESC, id DESC`)
	if err == nil {
		return ids, nil
	}
	first := err
	seen := map[string]bool{}
	var out []string
	for _, q := range []string{
		`SELECT id FROM sessions NOT INDEXED`,
		`SELECT session_id FROM turns NOT INDEXED`,
		`SELECT session_id FROM invocations NOT INDEXED`,
	} {
		ids, _ := j.scanIDs(ctx, q) // what was read before an error
		for _, id := range ids {
			if !seen[id] {
				seen[id] = true
				out = append(out, id)
			}
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("journal: no session of %s can be read: %w", j.path, first)
	}
	return out, nil
}

// scanIDs returns the first column of every row query yields, and those
// read before an error together with the error.
func (j *Journal) scanIDs(ctx context.Context, query string) ([]string, error) {
	rows, err := j.db.QueryContext(ctx, query)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return ids, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}
