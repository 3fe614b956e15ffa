package journal

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness/consent"
)

// referenceVerify is Verify as it was before it streamed: the whole chain
// and every row's digest in maps. TestVerifyStreamsLikeTheMaps checks the
// streaming Verify against it.
func referenceVerify(t *testing.T, j *Journal) VerifyReport {
	t.Helper()
	ctx := context.Background()
	var rep VerifyReport
	type entry struct {
		seq                           int64
		kind, ref, digest, prev, hash string
	}
	key := func(table, ref string) string { return table + "\x00" + ref }
	rows, err := j.db.QueryContext(ctx, `SELECT seq, kind, ref, payload_digest, prev_hash, hash FROM chain ORDER BY seq`)
	if err != nil {
		t.Fatal(err)
	}
	var entries []entry
	for rows.Next() {
		var e entry
		if err := rows.Scan(&e.seq, &e.kind, &e.ref, &e.digest, &e.prev, &e.hash); err != nil {
			t.Fatal(err)
		}
		entries = append(entries, e)
	}
	rows.Close()
	current := map[string]string{}
	for _, tb := range chainedTables {
		rows, err := j.db.QueryContext(ctx, `SELECT * FROM `+tb.name)
		if err != nil {
			t.Fatal(err)
		}
		r, err := newRowReader(tb.name, rows)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			ref, p, err := r.next(rows)
			if err != nil {
				t.Fatal(err)
			}
			current[key(tb.name, ref)] = payloadDigest(tb.name, p)
			rep.Rows++
		}
		rows.Close()
	}
	latest := map[string]int64{}
	for _, e := range entries {
		latest[key(e.kind, e.ref)] = e.seq
	}
	add := func(b Break) {
		if len(rep.Breaks) < maxBreaks {
			rep.Breaks = append(rep.Breaks, b)
		}
	}
	prev, want := genesisHash, int64(1)
	for _, e := range entries {
		k := key(e.kind, e.ref)
		br := Break{Seq: e.seq, Table: e.kind, RowID: e.ref}
		switch {
		case e.seq != want:
			br.Reason = ReasonLinkMissing
		case e.prev != prev:
			br.Reason = ReasonPrevMismatch
		case linkHash(e.prev, e.digest) != e.hash:
			br.Reason = ReasonHashMismatch
		case latest[k] == e.seq:
			if d, ok := current[k]; !ok {
				br.Reason = ReasonRowDeleted
			} else if d != e.digest {
				br.Reason = ReasonRowChanged
			}
		}
		if br.Reason != "" {
			add(br)
		}
		prev, want = e.hash, e.seq+1
	}
	for _, tb := range chainedTables { // by table, then key (the maps had no order)
		var refs []string
		for k := range current {
			table, ref, _ := strings.Cut(k, "\x00")
			if _, ok := latest[k]; table == tb.name && !ok {
				refs = append(refs, ref)
			}
		}
		slices.SortFunc(refs, func(a, b string) int {
			if tb.rowid && len(a) != len(b) {
				return len(a) - len(b) // positive decimal numbers
			}
			return strings.Compare(a, b)
		})
		for _, ref := range refs {
			add(Break{Table: tb.name, RowID: ref, Reason: ReasonRowUnchained})
		}
	}
	rep.Entries, rep.Head = int64(len(entries)), prev
	rep.OK = len(rep.Breaks) == 0
	if !rep.OK {
		rep.First = &rep.Breaks[0]
	}
	return rep
}

// fillMany writes n sessions, each with a turn, two messages, an approval,
// an invocation through its three states, a warning, and a few policies.
func fillMany(t *testing.T, j *Journal, n int) {
	t.Helper()
	ctx := context.Background()
	for i := range n {
		sid := fmt.Sprintf("s%03d", i)
		mkSession(t, j, sid)
		j.AppendMessage(ctx, Message{SessionID: sid, TurnID: sid + "-t1", Role: "user", Content: json.RawMessage(`"hi"`)})
		inv := Invocation{ID: "inv-" + sid, SessionID: sid, TurnID: sid + "-t1", Tool: "notes.append", Arguments: json.RawMessage(`{"a":1}`)}
		if err := j.BeginInvocation(ctx, inv, &Approval{SessionID: sid, Decision: "allow_once", Source: "prompt"}); err != nil {
			t.Fatal(err)
		}
		if err := j.FinishInvocation(ctx, inv.ID, Finish{Status: InvSucceeded, Result: json.RawMessage(`{"n":1}`)}); err != nil {
			t.Fatal(err)
		}
		j.Warn(ctx, sid, "", "w", "warned")
		j.AppendMessage(ctx, Message{SessionID: sid, Role: "assistant", Content: json.RawMessage(`"bye"`)})
		if i%40 == 0 {
			j.SaveUserPolicy(ctx, "demo", fmt.Sprintf("notes.t%d", i), "sha256:d", string(consent.PolicyAllow))
		}
	}
}

// TestVerifyStreamsLikeTheMaps tampers with a journal of 150 sessions in
// ways that break more than 100 links, rows and chain entries at once,
// and expects the streaming Verify to report exactly what the in-memory
// one did: the same breaks in the same order, counts and head.
func TestVerifyStreamsLikeTheMaps(t *testing.T) {
	cases := []struct {
		name   string
		tamper []string
	}{
		{"clean", nil},
		{"many rows changed", []string{`UPDATE messages SET content='"x"' WHERE id % 2 = 0`,
			`UPDATE invocations SET result='{"n":2}' WHERE session_id > 's100'`}},
		{"many links broken among changed rows", []string{`UPDATE chain SET hash='00' WHERE seq % 7 = 0`,
			`UPDATE sessions SET error='edited'`}},
		{"rows deleted and forged", []string{`DELETE FROM warnings WHERE id % 3 = 0`,
			`INSERT INTO messages(session_id, role, content, created_at) VALUES ('s001','user','"forged"','2025-01-01T00:00:00.000000000Z')`,
			`INSERT INTO sessions SELECT 'forged-' || id, coworker, coworker_version, identity, identity_parts, provider, model,
				approve, status, error, created_at, updated_at, owner FROM sessions WHERE id < 's005'`,
			`DELETE FROM chain WHERE seq = (SELECT max(seq) FROM chain WHERE kind = 'turns')`}},
		{"entries renamed", []string{`UPDATE chain SET kind='bogus' WHERE kind='warnings' AND ref % 5 = 0`,
			`UPDATE chain SET ref='0' || ref WHERE kind='approvals' AND ref % 4 = 0`,
			`UPDATE chain SET ref='9' || ref WHERE kind='sessions' AND ref > 's140'`}},
		{"rows outside the chain only", []string{`DELETE FROM chain WHERE kind='user_policies'`,
			`DELETE FROM chain WHERE seq > (SELECT max(seq) - 20 FROM chain)`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := testPath(t)
			j := openAt(t, path)
			fillMany(t, j, 150)
			raw := rawDB(t, path)
			for _, q := range tc.tamper {
				if _, err := raw.Exec(q); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
			got, want := mustVerify(t, j), referenceVerify(t, j)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("streaming Verify differs from the in-memory one:\n got  ok=%v entries=%d rows=%d head=%s %d breaks %v\n want ok=%v entries=%d rows=%d head=%s %d breaks %v",
					got.OK, got.Entries, got.Rows, got.Head, len(got.Breaks), got.Breaks, want.OK, want.Entries, want.Rows, want.Head, len(want.Breaks), want.Breaks)
			}
			if tc.tamper != nil && got.OK {
				t.Errorf("Verify after tampering = OK")
			}
			t.Logf("%d breaks, first %v", len(got.Breaks), got.First)
		})
	}
}
