package journal

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

func sessionIDs(ss []Session) []string {
	ids := make([]string, len(ss))
	for i, s := range ss {
		ids[i] = s.ID
	}
	return ids
}

// unknownCall writes an invocation in session sid (turn sid-t1) that
// ended unknown, prepared at created.
func unknownCall(t *testing.T, j *Journal, sid, id string, created time.Time) {
	t.Helper()
	ctx := context.Background()
	inv := Invocation{ID: id, SessionID: sid, TurnID: sid + "-t1", Tool: "notes.append", Placement: "on this computer",
		Arguments: json.RawMessage(`{}`), CreatedAt: created}
	if err := j.BeginInvocation(ctx, inv, nil); err != nil {
		t.Fatal(err)
	}
	if err := j.FinishInvocation(ctx, id, Finish{Status: InvUnknown, ErrorCode: "timeout", Error: "no answer in 75 s"}); err != nil {
		t.Fatal(err)
	}
}

// TestSessionPagesStableUnderInserts pages through 23 sessions, three of
// them created at the same instant, 5 at a time, while new sessions are
// written between pages: every session that was there shows exactly once,
// in the order of Sessions, and the last page has no Next.
func TestSessionPagesStableUnderInserts(t *testing.T) {
	ctx := context.Background()
	j := openTest(t)
	for i := range 20 {
		mkSession(t, j, fmt.Sprintf("s%02d", i))
	}
	same := time.Date(2025, 3, 1, 12, 0, 0, 500, time.UTC) // between the others: a tie on created_at
	for _, id := range []string{"tie-b", "tie-a", "tie-c"} {
		if err := j.CreateSession(ctx, Session{ID: id, Coworker: "demo", Identity: "i", CreatedAt: same}); err != nil {
			t.Fatal(err)
		}
	}
	want, err := j.Sessions(ctx, 0)
	if err != nil || len(want) != 23 {
		t.Fatalf("Sessions(0) = %d sessions, %v", len(want), err)
	}
	var got []string
	before := ""
	for page := 0; ; page++ {
		p, err := j.SessionPage(ctx, SessionQuery{Limit: 5, Before: before})
		if err != nil {
			t.Fatalf("page %d: %v", page, err)
		}
		got = append(got, sessionIDs(p.Sessions)...)
		if p.Next == "" {
			if len(p.Sessions) != 3 {
				t.Errorf("last page has %d sessions, want 3", len(p.Sessions))
			}
			break
		}
		if len(p.Sessions) != 5 {
			t.Errorf("page %d has %d sessions, want 5", page, len(p.Sessions))
		}
		mkSession(t, j, fmt.Sprintf("new%d", page)) // newer than everything paged
		before = p.Next
	}
	if !slices.Equal(got, sessionIDs(want)) {
		t.Errorf("pages = %v\nwant    %v", got, sessionIDs(want))
	}
	if i := slices.Index(got, "tie-c"); i < 0 || !slices.Equal(got[i:i+3], []string{"tie-c", "tie-b", "tie-a"}) {
		t.Errorf("sessions created at the same instant are not ordered by id, descending: %v", got)
	}
	p, err := j.SessionPage(ctx, SessionQuery{})
	if err != nil || len(p.Sessions) != 27 || p.Next != "" || p.Sessions[0].ID != "new3" {
		t.Errorf("default page = %d sessions, next %q, %v; want all 27, newest new3", len(p.Sessions), p.Next, err)
	}
	exact, err := j.SessionPage(ctx, SessionQuery{Limit: 27})
	if err != nil || len(exact.Sessions) != 27 || exact.Next != "" {
		t.Errorf("a page of exactly all sessions = %d, next %q, %v; want no next", len(exact.Sessions), exact.Next, err)
	}
}

// TestSessionPageNeedsAttention keeps only sessions with an unknown call
// nobody has reconciled yet, newest first and paged; Unreconciled counts
// those calls in every list.
func TestSessionPageNeedsAttention(t *testing.T) {
	ctx := context.Background()
	j := openTest(t)
	base := time.Date(2025, 3, 1, 13, 0, 0, 0, time.UTC)
	for i := range 6 {
		mkSession(t, j, fmt.Sprintf("s%d", i))
	}
	unknownCall(t, j, "s1", "inv-1a", base)
	unknownCall(t, j, "s1", "inv-1b", base.Add(time.Second))
	unknownCall(t, j, "s3", "inv-3", base.Add(2*time.Second))
	unknownCall(t, j, "s4", "inv-4", base.Add(3*time.Second)) // reconciled below: no longer waiting
	prepare(t, j, "s5", "inv-5")                              // succeeded: nothing to reconcile
	j.MarkExecuting(ctx, "inv-5")
	if err := j.FinishInvocation(ctx, "inv-5", Finish{Status: InvSucceeded}); err != nil {
		t.Fatal(err)
	}
	if err := j.ReconcileAs(ctx, "inv-4", OutcomeApplied, "user:test"); err != nil {
		t.Fatal(err)
	}
	var got []string
	before := ""
	for {
		p, err := j.SessionPage(ctx, SessionQuery{Limit: 1, Before: before, NeedsAttention: true})
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, sessionIDs(p.Sessions)...)
		if before = p.Next; before == "" {
			break
		}
	}
	if !slices.Equal(got, []string{"s3", "s1"}) {
		t.Errorf("needs attention = %v, want [s3 s1]", got)
	}
	all, err := j.Sessions(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range all {
		want := map[string]int{"s1": 2, "s3": 1}[s.ID]
		if s.Unreconciled != want {
			t.Errorf("session %s Unreconciled = %d, want %d", s.ID, s.Unreconciled, want)
		}
	}
}

// TestUnknownOldestFirst lists the calls waiting for reconciliation in
// every session by the time they were prepared, not written, two at a
// time; a reconciled one is left out and one that becomes unknown while
// paging (newer than the cursor) shows on a later page.
func TestUnknownOldestFirst(t *testing.T) {
	ctx := context.Background()
	j := openTest(t)
	mkSession(t, j, "sa")
	mkSession(t, j, "sb")
	base := time.Date(2025, 2, 1, 9, 0, 0, 0, time.UTC)
	unknownCall(t, j, "sb", "inv-third", base.Add(3*time.Minute))
	unknownCall(t, j, "sa", "inv-first", base.Add(1*time.Minute))
	unknownCall(t, j, "sb", "inv-done", base.Add(2*time.Minute))
	unknownCall(t, j, "sa", "inv-second", base.Add(2*time.Minute)) // same instant as inv-done: by id
	unknownCall(t, j, "sa", "inv-fourth", base.Add(4*time.Minute))
	if err := j.ReconcileAs(ctx, "inv-done", OutcomeNotApplied, "user:test"); err != nil {
		t.Fatal(err)
	}
	var got []string
	after := ""
	for page := 0; ; page++ {
		p, err := j.Unknown(ctx, UnknownQuery{Limit: 2, After: after})
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range p.Invocations {
			got = append(got, v.ID)
			if v.Coworker != "demo" || v.Tool != "notes.append" || v.ErrorCode != "timeout" || v.Reason != "no answer in 75 s" ||
				v.TurnID != v.SessionID+"-t1" || v.Placement != "on this computer" || v.CreatedAt.IsZero() || v.StartedAt.IsZero() {
				t.Errorf("unknown invocation = %+v", v)
			}
		}
		if page == 0 {
			unknownCall(t, j, "sb", "inv-late", base.Add(time.Hour))
		}
		if after = p.Next; after == "" {
			break
		}
	}
	want := []string{"inv-first", "inv-second", "inv-third", "inv-fourth", "inv-late"}
	if !slices.Equal(got, want) {
		t.Errorf("Unknown pages = %v, want %v", got, want)
	}
	empty := openTest(t)
	if p, err := empty.Unknown(ctx, UnknownQuery{}); err != nil || p.Invocations == nil || len(p.Invocations) != 0 || p.Next != "" {
		t.Errorf("Unknown of an empty journal = %+v, %v; want an empty list", p, err)
	}
}

func TestBadCursorsAndLimits(t *testing.T) {
	ctx := context.Background()
	j := openTest(t)
	for i := range 3 {
		mkSession(t, j, fmt.Sprintf("s%d", i))
		unknownCall(t, j, fmt.Sprintf("s%d", i), fmt.Sprintf("inv%d", i), time.Time{})
	}
	sp, err := j.SessionPage(ctx, SessionQuery{Limit: 1})
	if err != nil || sp.Next == "" {
		t.Fatal(sp, err)
	}
	up, err := j.Unknown(ctx, UnknownQuery{Limit: 1})
	if err != nil || up.Next == "" {
		t.Fatal(up, err)
	}
	for _, tc := range []struct {
		name, cursor string
		unknown      bool
		want         string
	}{
		{"garbage", "not a cursor!", false, "is not one this journal made"},
		{"base64 of nothing useful", "aGVsbG8", false, "is not one this journal made"},
		{"cut short", sp.Next[:len(sp.Next)-12], false, "is not one this journal made"},
		{"unknown's cursor for sessions", up.Next, false, "is a cursor of the list of invocations waiting for reconciliation"},
		{"sessions' cursor for unknown", sp.Next, true, "is a cursor of the list of sessions"},
	} {
		var err error
		if tc.unknown {
			_, err = j.Unknown(ctx, UnknownQuery{After: tc.cursor})
		} else {
			_, err = j.SessionPage(ctx, SessionQuery{Before: tc.cursor})
		}
		if !errors.Is(err, ErrBadCursor) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "pass the next value") {
			t.Errorf("%s: %v; want ErrBadCursor saying %q and what to pass", tc.name, err, tc.want)
		}
	}
	for _, n := range []int{-1, MaxPageLimit + 1} {
		if _, err := j.SessionPage(ctx, SessionQuery{Limit: n}); err == nil || !strings.Contains(err.Error(), "want 1 to 1000") {
			t.Errorf("SessionPage limit %d: %v", n, err)
		}
		if _, err := j.Unknown(ctx, UnknownQuery{Limit: n}); err == nil || !strings.Contains(err.Error(), "want 1 to 1000") {
			t.Errorf("Unknown limit %d: %v", n, err)
		}
	}
}

// TestListsUseIndexes checks the plans SQLite makes for the lists: the
// newest sessions, each page and the waiting calls are index ranges
// (sessions_newest, invocations_unknown) with no sort of every row, so
// their time does not grow with the journal (docs/journal.md#scale).
func TestListsUseIndexes(t *testing.T) {
	j := openTest(t)
	plan := func(q string, args ...any) string {
		t.Helper()
		rows, err := j.db.Query(`EXPLAIN QUERY PLAN `+q, args...)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var lines []string
		for rows.Next() {
			var id, parent, notused int
			var detail string
			if err := rows.Scan(&id, &parent, &notused, &detail); err != nil {
				t.Fatal(err)
			}
			lines = append(lines, detail)
		}
		return strings.Join(lines, "\n")
	}
	ts := "2025-01-01T00:00:00.000000000Z"
	for _, tc := range []struct {
		name, plan string
		want       []string
	}{
		{"newest", plan(sessionListSQL(false, false, false), 1), []string{"SCAN sessions USING INDEX sessions_newest", "SEARCH i USING INDEX invocations_session (session_id=?)"}},
		{"page", plan(sessionListSQL(true, false, false), ts, "x", 100), []string{"SEARCH sessions USING INDEX sessions_newest ((created_at,id)<(?,?))"}},
		{"unknown", plan(unknownSQL(false), 100), []string{"SCAN i USING INDEX invocations_unknown"}},
		{"unknown page", plan(unknownSQL(true), ts, "x", 100), []string{"SEARCH i USING INDEX invocations_unknown ((created_at,id)>(?,?))"}},
		{"needs attention", plan(sessionListSQL(true, true, false), ts, "x", 100), []string{"USING INDEX invocations_unknown"}},
		{"chat list", plan(sessionListSQL(true, false, true), ts, "x", 100), []string{"SEARCH sessions USING INDEX sessions_newest ((created_at,id)<(?,?))",
			"SEARCH l USING INDEX session_labels_session (session_id=?)", "SEARCH m USING INDEX messages_session (session_id=?)"}},
	} {
		for _, w := range tc.want {
			if !strings.Contains(tc.plan, w) {
				t.Errorf("%s: plan lacks %q:\n%s", tc.name, w, tc.plan)
			}
		}
		if tc.name != "needs attention" && strings.Contains(tc.plan, "TEMP B-TREE") {
			t.Errorf("%s sorts every row:\n%s", tc.name, tc.plan)
		}
	}
}

// TestWaiting counts the calls waiting for reconciliation and their
// sessions; a reconciled call no longer counts.
func TestWaiting(t *testing.T) {
	ctx := context.Background()
	j := openAt(t, testPath(t))
	for _, id := range []string{"s1", "s2", "s3"} {
		mkSession(t, j, id)
	}
	for i, sid := range []string{"s1", "s1", "s2"} {
		id := fmt.Sprintf("inv_%d", i)
		if err := j.BeginInvocation(ctx, Invocation{ID: id, SessionID: sid, TurnID: sid + "-t1", Tool: "files.write"}, nil); err != nil {
			t.Fatal(err)
		}
		if err := j.FinishInvocation(ctx, id, Finish{Status: InvUnknown}); err != nil {
			t.Fatal(err)
		}
	}
	if s, c, err := j.Waiting(ctx); err != nil || s != 2 || c != 3 {
		t.Fatalf("Waiting = %d sessions, %d calls, %v; want 2, 3", s, c, err)
	}
	if err := j.ReconcileAs(ctx, "inv_2", EffectApplied, "user:t"); err != nil {
		t.Fatal(err)
	}
	if s, c, err := j.Waiting(ctx); err != nil || s != 1 || c != 2 {
		t.Fatalf("Waiting after reconciling s2's call = %d, %d, %v; want 1, 2", s, c, err)
	}
}
