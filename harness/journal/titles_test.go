package journal

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// chat starts session id with a first turn whose prompt is prompt, and
// journals the prompt and an answer as messages.
func chat(t *testing.T, j *Journal, id, prompt, answer string) {
	t.Helper()
	ctx := context.Background()
	if err := j.CreateSession(ctx, Session{ID: id, Coworker: "device", Identity: "sha-" + id}); err != nil {
		t.Fatal(err)
	}
	if err := j.StartTurn(ctx, Turn{ID: id + "-t1", SessionID: id, Prompt: prompt}); err != nil {
		t.Fatal(err)
	}
	for _, m := range []struct{ role, text string }{{"user", prompt}, {"assistant", answer}} {
		c, _ := json.Marshal(map[string]string{"role": m.role, "text": m.text})
		if _, err := j.AppendMessage(ctx, Message{SessionID: id, TurnID: id + "-t1", Role: m.role, Content: c}); err != nil {
			t.Fatal(err)
		}
	}
}

func listed(t *testing.T, j *Journal, id string) Session {
	t.Helper()
	s, err := j.ListedSession(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestTitles: a chat is titled by its first prompt on one line, cut to 80
// characters; a rename is a new chained row and the newest wins; the old
// rows stay.
func TestTitles(t *testing.T) {
	ctx := context.Background()
	j := openTest(t)
	long := "What computer\nam I on?  " + strings.Repeat("and more words ", 10)
	chat(t, j, "s1", long, "Linux.")
	s := listed(t, j, "s1")
	if want := DefaultTitle(long); s.Title != want || s.TitleSet || !strings.HasPrefix(want, "What computer am I on? and more") ||
		len([]rune(want)) != MaxTitleRunes || !strings.HasSuffix(want, "…") {
		t.Fatalf("default title = %q (set %v); want the first prompt on one line, 80 characters: %q", s.Title, s.TitleSet, want)
	}
	if got := DefaultTitle("  short\tone "); got != "short one" {
		t.Errorf("DefaultTitle = %q", got)
	}
	for _, title := range []string{"First name", "  Second\n name  "} {
		if err := j.SetTitle(ctx, "s1", title, "user:t"); err != nil {
			t.Fatal(err)
		}
	}
	if s := listed(t, j, "s1"); s.Title != "Second name" || !s.TitleSet {
		t.Errorf("title after two renames = %q (set %v); want the newest, Second name", s.Title, s.TitleSet)
	}
	var rows int
	j.db.QueryRow(`SELECT count(*) FROM session_labels WHERE session_id='s1' AND title IS NOT NULL AND set_by='user:t'`).Scan(&rows)
	if rows != 2 {
		t.Errorf("title rows = %d; want both renames kept", rows)
	}
	for _, bad := range []string{"   ", strings.Repeat("x", MaxTitleRunes+1)} {
		if err := j.SetTitle(ctx, "s1", bad, ""); err == nil {
			t.Errorf("SetTitle(%q) accepted", bad)
		}
	}
	if err := j.SetTitle(ctx, "nope", "x", ""); !errors.Is(err, ErrNotFound) {
		t.Errorf("SetTitle of a missing session = %v; want ErrNotFound", err)
	}
	if rep := mustVerify(t, j); !rep.OK {
		t.Fatalf("Verify after renames: %+v", rep.First)
	}
	// A title changed by hand is a row changed after it was written.
	if _, err := j.db.Exec(`UPDATE session_labels SET title='forged' WHERE id=(SELECT max(id) FROM session_labels)`); err != nil {
		t.Fatal(err)
	}
	if rep := mustVerify(t, j); rep.OK || rep.First.Table != "session_labels" || rep.First.Reason != ReasonRowChanged {
		t.Errorf("Verify after a forged title = %+v; want session_labels %s", rep.First, ReasonRowChanged)
	}
}

// TestHide: a hidden chat leaves the chat list (Visible) but no row goes;
// Activity's list, ListedSession and IncludeHidden still find it, and
// showing it again brings it back.
func TestHide(t *testing.T) {
	ctx := context.Background()
	j := openTest(t)
	for _, id := range []string{"s1", "s2", "s3"} {
		chat(t, j, id, "prompt of "+id, "answer")
	}
	var before int
	j.db.QueryRow(`SELECT (SELECT count(*) FROM sessions)+(SELECT count(*) FROM messages)+(SELECT count(*) FROM turns)`).Scan(&before)
	if err := j.HideSession(ctx, "s2", true, ""); err != nil {
		t.Fatal(err)
	}
	ids := func(q SessionQuery) []string {
		p, err := j.SessionPage(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, s := range p.Sessions {
			out = append(out, s.ID)
		}
		return out
	}
	if got := ids(SessionQuery{Visible: true}); !slices.Equal(got, []string{"s3", "s1"}) {
		t.Errorf("chat list with s2 hidden = %v", got)
	}
	if got := ids(SessionQuery{}); !slices.Equal(got, []string{"s3", "s2", "s1"}) {
		t.Errorf("Activity's list = %v; want every session", got)
	}
	// Paging the visible list skips the hidden one without losing any.
	p, err := j.SessionPage(ctx, SessionQuery{Visible: true, Limit: 1})
	if err != nil || len(p.Sessions) != 1 || p.Sessions[0].ID != "s3" {
		t.Fatalf("page 1 = %+v %v", p, err)
	}
	if got := ids(SessionQuery{Visible: true, Limit: 1, Before: p.Next}); !slices.Equal(got, []string{"s1"}) {
		t.Errorf("page 2 = %v; want s1", got)
	}
	if s := listed(t, j, "s2"); !s.Hidden {
		t.Errorf("s2 listed as not hidden")
	}
	var after int
	j.db.QueryRow(`SELECT (SELECT count(*) FROM sessions)+(SELECT count(*) FROM messages)+(SELECT count(*) FROM turns)`).Scan(&after)
	if after != before {
		t.Errorf("rows after hiding = %d, before %d: hiding must not delete", after, before)
	}
	if got, _ := j.Search(ctx, SearchQuery{Text: "s2"}); len(got) != 0 {
		t.Errorf("search finds the hidden chat: %v", got)
	}
	if got, _ := j.Search(ctx, SearchQuery{Text: "s2", IncludeHidden: true}); len(got) != 1 || got[0].ID != "s2" {
		t.Errorf("search with hidden chats = %v; want s2", got)
	}
	if err := j.HideSession(ctx, "s2", false, ""); err != nil {
		t.Fatal(err)
	}
	if got := ids(SessionQuery{Visible: true}); !slices.Equal(got, []string{"s3", "s2", "s1"}) {
		t.Errorf("chat list after showing s2 again = %v", got)
	}
	var labels int
	j.db.QueryRow(`SELECT count(*) FROM session_labels WHERE session_id='s2'`).Scan(&labels)
	if labels != 2 {
		t.Errorf("labels of s2 = %d; want the hide and the show, both kept", labels)
	}
	if err := j.HideSession(ctx, "nope", true, ""); !errors.Is(err, ErrNotFound) {
		t.Errorf("hiding a missing session = %v", err)
	}
	if rep := mustVerify(t, j); !rep.OK {
		t.Fatalf("Verify: %+v", rep.First)
	}
}

// TestSearch finds words of titles and of user and assistant messages from
// their start, needs every word, and takes any punctuation, quote or FTS5
// operator in the query as a separator, never as syntax.
func TestSearch(t *testing.T) {
	ctx := context.Background()
	j := openTest(t)
	chat(t, j, "s1", "What computer am I on?", "You are on Linux, kernel 6.8.")
	chat(t, j, "s2", "Summarize my notes", "Done: three notes about the ÉTÉ trip.")
	chat(t, j, "s3", "Plan the week", "OK")
	if err := j.SetTitle(ctx, "s3", "Weekly planning (ops)", ""); err != nil {
		t.Fatal(err)
	}
	// A tool result is not searched.
	if _, err := j.AppendMessage(ctx, Message{SessionID: "s3", Role: "tool", Content: json.RawMessage(`{"role":"tool","text":"zebra"}`)}); err != nil {
		t.Fatal(err)
	}
	find := func(q string) []string {
		t.Helper()
		ss, err := j.Search(ctx, SearchQuery{Text: q})
		if err != nil {
			t.Fatalf("Search(%q) = %v", q, err)
		}
		var out []string
		for _, s := range ss {
			out = append(out, s.ID)
		}
		return out
	}
	for _, tc := range []struct {
		q    string
		want []string
	}{
		{"computer", []string{"s1"}},
		{"linux", []string{"s1"}},      // the answer
		{"COMP", []string{"s1"}},       // a prefix, any case
		{"notes", []string{"s2"}},      // both messages
		{"été", []string{"s2"}},        // any script, lowercased
		{"weekly ops", []string{"s3"}}, // the title, every word
		{"notes linux", nil},           // no session has both
		{"zebra", nil},                 // tool results are not indexed
		{"a", []string{"s2", "s1"}},    // newest first
		{`"computer`, []string{"s1"}},
		{`computer"`, []string{"s1"}},
		{`NEAR(computer linux)`, nil}, // "near" is a word like any other, and no chat has it
		{`NEAR(computer`, nil},
		{`comp* OR -linux AND "x" :^{}`, nil},
		{`c'omputer`, nil},
		{`6.8`, []string{"s1"}},
		{`""`, nil},
		{`***`, nil},
		{``, nil},
		{"'; DROP TABLE sessions; --", nil},
	} {
		if got := find(tc.q); !slices.Equal(got, tc.want) {
			t.Errorf("Search(%q) = %v, want %v", tc.q, got, tc.want)
		}
	}
	if ss, _ := j.Search(ctx, SearchQuery{Text: "weekly"}); len(ss) != 1 || ss[0].Title != "Weekly planning (ops)" || ss[0].Coworker != "device" {
		t.Errorf("a search result = %+v; want it listed with its title and coworker", ss)
	}
	if _, err := j.Search(ctx, SearchQuery{Text: "x", Limit: MaxSearchResults + 1}); err == nil {
		t.Error("a limit over the most was accepted")
	}
	// A renamed chat is still found by its old title's words (the index only grows).
	if err := j.SetTitle(ctx, "s3", "Renamed", ""); err != nil {
		t.Fatal(err)
	}
	if got := find("renamed"); !slices.Equal(got, []string{"s3"}) {
		t.Errorf("Search(renamed) = %v", got)
	}
}

// TestMigrate11 upgrades a version-10 file with chats in it: the
// labels table and the word index appear, the old messages are indexed,
// no row or chain entry changes, and old chats are titled by their first
// prompt.
func TestMigrate11(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "j.db")
	j := openVersion(t, path, 1)
	fillV1(t, j) // ses_old: "write a note"
	if err := migrate(ctx, j.db, path, 10, j.now); err != nil {
		t.Fatal(err)
	}
	before := mustVerify(t, j)
	if err := migrate(ctx, j.db, path, 11, j.now); err != nil {
		t.Fatalf("migrate 10→11 = %v", err)
	}
	after := mustVerify(t, j)
	if !after.OK || after.Rows != before.Rows || after.Entries != before.Entries || after.Head != before.Head {
		t.Errorf("Verify after migrate 10→11 = %+v; want it as before: %+v", after, before)
	}
	if s := listed(t, j, "ses_old"); s.Title != "write a note" || s.Hidden {
		t.Errorf("old chat after the upgrade = %+v; want titled by its first prompt", s)
	}
	if ss, err := j.Search(ctx, SearchQuery{Text: "note"}); err != nil || len(ss) != 1 || ss[0].ID != "ses_old" {
		t.Errorf("Search(note) after the upgrade = %v, %v; want the old message indexed", ss, err)
	}
}

// A chat's last activity is its newest message: closing it (as quitting
// the app does) or hiding and showing it again does not make it "now".
func TestLastActivityIsTheNewestMessage(t *testing.T) {
	ctx := context.Background()
	j := openTest(t)
	chat(t, j, "s1", "hello", "hi")
	before := listed(t, j, "s1").LastActivity
	if before.IsZero() {
		t.Fatal("no last activity after two messages")
	}
	if err := j.FinishSession(ctx, "s1", SessionClosed, ""); err != nil {
		t.Fatal(err)
	}
	for _, h := range []bool{true, false} {
		if err := j.HideSession(ctx, "s1", h, "user:t"); err != nil {
			t.Fatal(err)
		}
	}
	s := listed(t, j, "s1")
	if !s.LastActivity.Equal(before) || !s.UpdatedAt.After(before) {
		t.Fatalf("last activity %v after closing and hiding (updated %v); want %v, the newest message", s.LastActivity, s.UpdatedAt, before)
	}
}

// A title drops invalid UTF-8, control characters, bidirectional
// overrides and zero-width characters; one with nothing else is refused.
func TestSetTitleCleans(t *testing.T) {
	j := openTest(t)
	chat(t, j, "s1", "hello", "hi")
	ctx := context.Background()
	if err := j.SetTitle(ctx, "s1", "bad\xffutf8 \x1b[31mred\x00 \u202eevil\u202c", ""); err != nil {
		t.Fatal(err)
	}
	if got := listed(t, j, "s1").Title; got != "badutf8 [31mred evil" {
		t.Errorf("title = %q; want it cleaned", got)
	}
	for _, bad := range []string{"\u200b", "\x00", "\u202e\u200d "} {
		if err := j.SetTitle(ctx, "s1", bad, ""); err == nil {
			t.Errorf("SetTitle(%q) accepted a title that shows nothing", bad)
		}
	}
}
