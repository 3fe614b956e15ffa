package cli_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/openworker/desktop/harness/journal"
)

// manySessions writes n sessions s00, s01, … a second apart (s00 oldest);
// those in unknown get a call that ended unknown, prepared in the order
// given.
func manySessions(t *testing.T, db string, n int, unknown ...string) {
	t.Helper()
	ctx := context.Background()
	clock := time.Date(2025, 5, 1, 9, 0, 0, 0, time.UTC)
	j, err := journal.Open(db, &journal.Options{Now: func() time.Time { clock = clock.Add(time.Second); return clock }})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	for i := range n {
		id := fmt.Sprintf("s%02d", i)
		if err := j.CreateSession(ctx, journal.Session{ID: id, Coworker: "helper", Identity: "sha256:id"}); err != nil {
			t.Fatal(err)
		}
		if err := j.StartTurn(ctx, journal.Turn{ID: id + "-t", SessionID: id, Prompt: "prompt of " + id}); err != nil {
			t.Fatal(err)
		}
	}
	for _, sid := range unknown {
		id := "inv_" + sid
		origin := ""
		if sid == "s00" { // s00's call was asked by an app view
			origin = journal.OriginViewPrefix + "inv_view"
		}
		if err := j.BeginInvocation(ctx, journal.Invocation{ID: id, SessionID: sid, TurnID: sid + "-t", Tool: "notes.append", Origin: origin}, nil); err != nil {
			t.Fatal(err)
		}
		if err := j.FinishInvocation(ctx, id, journal.Finish{Status: journal.InvUnknown, ErrorCode: "timeout", Error: "no answer"}); err != nil {
			t.Fatal(err)
		}
	}
}

// tableIDs returns the first column of a journal list table, after the
// header and up to the first blank line.
func tableIDs(out string) []string {
	var ids []string
	for i, line := range strings.Split(out, "\n") {
		if i == 0 {
			continue
		}
		if line == "" {
			break
		}
		ids = append(ids, strings.Fields(line)[0])
	}
	return ids
}

// TestJournalListPages follows the "next page" command journal list prints
// until the last page and finds every session once, newest first.
func TestJournalListPages(t *testing.T) {
	db := filepath.Join(t.TempDir(), "journal.db")
	manySessions(t, db, 7)
	args := []string{"journal", "list", "--limit", "3", "--db", db}
	var got []string
	for page := 0; page < 5; page++ {
		code, out := runCLI(t, args...)
		if code != 0 || !strings.HasPrefix(out, "SESSION") {
			t.Fatalf("%v: exit %d\n%s", args, code, out)
		}
		got = append(got, tableIDs(out)...)
		_, next, ok := strings.Cut(out, "\nnext page: openworker ")
		if !ok {
			break
		}
		args = strings.Fields(strings.TrimSpace(next))
		if !slices.Contains(args, "--limit") || !slices.Contains(args, db) {
			t.Errorf("next page command %q drops --limit or --db", next)
		}
	}
	if want := []string{"s06", "s05", "s04", "s03", "s02", "s01", "s00"}; !slices.Equal(got, want) {
		t.Errorf("pages = %v, want %v", got, want)
	}
}

func TestJournalListJSONCursor(t *testing.T) {
	db := filepath.Join(t.TempDir(), "journal.db")
	manySessions(t, db, 5, "s01", "s03")
	var got []string
	before := ""
	for range 5 {
		args := []string{"journal", "list", "--json", "--limit", "2", "--db", db}
		if before != "" {
			args = append(args, "--before", before)
		}
		code, out := runCLI(t, args...)
		var page struct {
			Sessions []struct {
				ID           string `json:"id"`
				Unreconciled int    `json:"unreconciled"`
			} `json:"sessions"`
			Next *string `json:"next"`
		}
		if err := json.Unmarshal([]byte(out), &page); code != 0 || err != nil || page.Next == nil {
			t.Fatalf("%v: exit %d, %v\n%s", args, code, err, out)
		}
		for _, s := range page.Sessions {
			got = append(got, fmt.Sprintf("%s:%d", s.ID, s.Unreconciled))
		}
		if before = *page.Next; before == "" {
			break
		}
	}
	if want := []string{"s04:0", "s03:1", "s02:0", "s01:1", "s00:0"}; !slices.Equal(got, want) {
		t.Errorf("JSON pages = %v, want %v", got, want)
	}
	code, out := runCLI(t, "journal", "list", "--needs-attention", "--db", db)
	if ids := tableIDs(out); code != 0 || !slices.Equal(ids, []string{"s03", "s01"}) || !strings.Contains(out, "interrupted, 1 to reconcile") {
		t.Errorf("list --needs-attention: exit %d, %v\n%s", code, ids, out)
	}
}

// TestJournalListUnknown lists the calls waiting for reconciliation in
// the order they were prepared, in text and JSON, and says so when there
// are none.
func TestJournalListUnknown(t *testing.T) {
	db := filepath.Join(t.TempDir(), "journal.db")
	manySessions(t, db, 4, "s02", "s00", "s03")
	code, out := runCLI(t, "journal", "reconcile", "inv_s03", "--outcome", "applied", "--db", db)
	if code != 0 {
		t.Fatalf("reconcile: exit %d\n%s", code, out)
	}
	code, out = runCLI(t, "journal", "list", "--unknown", "--db", db)
	if ids := tableIDs(out); code != 0 || !slices.Equal(ids, []string{"inv_s02", "inv_s00"}) ||
		!strings.HasPrefix(out, "INVOCATION") || !strings.Contains(out, "timeout: no answer") ||
		!regexp.MustCompile(`(?m)^inv_s02 .* model +timeout`).MatchString(out) || !regexp.MustCompile(`(?m)^inv_s00 .* view of inv_view +timeout`).MatchString(out) ||
		!strings.Contains(out, "2 invocations wait for reconciliation") || !strings.Contains(out, "journal reconcile INVOCATION --outcome") {
		t.Errorf("list --unknown: exit %d, %v\n%s", code, ids, out)
	}
	code, out = runCLI(t, "journal", "list", "--unknown", "--json", "--db", db)
	var got struct {
		Invocations []journal.UnknownInvocation `json:"invocations"`
	}
	if err := json.Unmarshal([]byte(out), &got); code != 0 || err != nil || len(got.Invocations) != 2 ||
		got.Invocations[0].ID != "inv_s02" || got.Invocations[0].SessionID != "s02" || got.Invocations[0].Coworker != "helper" ||
		got.Invocations[1].ID != "inv_s00" || got.Invocations[1].Reason != "no answer" || got.Invocations[1].Origin != "view:inv_view" {
		t.Errorf("list --unknown --json: exit %d, %v\n%s", code, err, out)
	}
	for _, id := range []string{"inv_s02", "inv_s00"} {
		runCLI(t, "journal", "reconcile", id, "--outcome", "not_applied", "--db", db)
	}
	if code, out := runCLI(t, "journal", "list", "--unknown", "--db", db); code != 0 || !strings.Contains(out, "no invocation in") {
		t.Errorf("list --unknown with none left: exit %d\n%s", code, out)
	}
	if code, out := runCLI(t, "journal", "list", "--unknown", "--json", "--db", db); code != 0 || strings.TrimSpace(out) != `{
  "invocations": []
}` {
		t.Errorf("list --unknown --json with none left: exit %d\n%s", code, out)
	}
}

func TestJournalListBadFlags(t *testing.T) {
	db := filepath.Join(t.TempDir(), "journal.db")
	manySessions(t, db, 2, "s01")
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"--limit", "0"}, []string{`"--limit"`, "1 to 1000"}},
		{[]string{"--limit", "1001"}, []string{`"--limit"`, "1 to 1000"}},
		{[]string{"--limit", "ten"}, []string{`"--limit"`, "1 to 1000"}},
		{[]string{"--before", "garbage"}, []string{`--before "garbage"`, `after "next page:"`}},
		{[]string{"--unknown", "--limit", "5"}, []string{"--unknown", "--limit"}},
		{[]string{"--unknown", "--before", "x"}, []string{"--unknown", "--before"}},
	} {
		code, out := runCLI(t, append([]string{"journal", "list", "--db", db}, tc.args...)...)
		if code != 2 {
			t.Errorf("list %v: exit %d, want 2\n%s", tc.args, code, out)
		}
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("list %v: %q does not say %q", tc.args, strings.TrimSpace(out), w)
			}
		}
	}
}

// TestJournalListTitles: the TITLE column is the chat's title as the app's
// list shows it (a rename, else the first prompt), and a chat hidden from
// that list is still listed, marked hidden.
func TestJournalListTitles(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "journal.db")
	manySessions(t, db, 2)
	j, err := journal.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.SetTitle(ctx, "s01", "Renamed chat", "user:t"); err != nil {
		t.Fatal(err)
	}
	if err := j.HideSession(ctx, "s00", true, "user:t"); err != nil {
		t.Fatal(err)
	}
	j.Close()
	code, out := runCLI(t, "journal", "list", "--db", db)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, out)
	}
	lines := strings.Split(out, "\n")
	if !strings.HasSuffix(strings.TrimSpace(lines[0]), "TITLE") || !strings.HasSuffix(lines[1], "Renamed chat") ||
		!strings.Contains(lines[2], "hidden") || !strings.HasSuffix(lines[2], "prompt of s00") {
		t.Errorf("journal list =\n%s\nwant s01 titled Renamed chat, s00 by its prompt and marked hidden", out)
	}
}
