package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/journal/journaltest"
)

// TestDamagedJournalBanner: the app opens a journal with a damaged page,
// checks it in the background and shows the journal banner saying what
// is wrong and what to do; a new chat is refused with the same words and
// the file is left as it was.
func TestDamagedJournalBanner(t *testing.T) {
	db := filepath.Join(t.TempDir(), "journal.db")
	journaltest.Damaged(t, db)
	before, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	e := newTestEnv(t, envOpts{cfg: config{DBPath: db}})
	n := e.rec.waitFor(t, EventNotice, func(p any) bool { return p.(Notice).Key == NoticeKeyJournal }).(Notice)
	for _, want := range []string{"The journal " + db + " is damaged", "restore a backup", "move the file aside"} {
		if n.Level != NoticeError || !strings.Contains(n.Message, want) {
			t.Errorf("journal banner %+v lacks %q", n, want)
		}
	}
	info, err := e.app.Window.Info()
	if err != nil {
		t.Fatal(err)
	}
	if len(info.Notices) == 0 || info.Notices[len(info.Notices)-1] != n {
		t.Errorf("Info().Notices = %+v; want the journal banner too (a window that asks after the event)", info.Notices)
	}
	if _, err := e.app.Chats.OpenChat("helper"); err == nil || !strings.Contains(err.Error(), "nothing new is written into it") {
		t.Errorf("OpenChat on a damaged journal = %v; want the degraded refusal", err)
	}
	e.app.shutdown()
	if after, _ := os.ReadFile(db); string(after) != string(before) {
		t.Error("the app changed the damaged journal file")
	}
}

// TestRowOutsideTheChainFoundInTheBackground: a row inserted outside the
// journal (no chain entry: the check at open, which covers the newest
// chain entries, cannot see it) is found by the full Verify the app runs
// in the background: the journal banner says so and new chats are refused.
func TestRowOutsideTheChainFoundInTheBackground(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "journal.db")
	j, err := journal.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.CreateSession(ctx, journal.Session{ID: "ses_1", Coworker: "helper", Identity: "sha256:id"}); err != nil {
		t.Fatal(err)
	}
	j.Close()
	journaltest.Edit(t, db, `INSERT INTO warnings(session_id, code, message, created_at) VALUES ('ses_1', 'forged', 'written by hand', '2026-01-01T00:00:00.000000000Z')`)
	e := newTestEnv(t, envOpts{cfg: config{DBPath: db}})
	n := e.rec.waitFor(t, EventNotice, func(p any) bool { return p.(Notice).Key == NoticeKeyJournal }).(Notice)
	if n.Level != NoticeError || !strings.Contains(n.Message, "does not match its hash chain") || !strings.Contains(n.Message, "warnings row") {
		t.Errorf("journal banner = %+v; want the chain break of the forged warnings row", n)
	}
	if _, err := e.app.Chats.OpenChat("helper"); err == nil || !strings.Contains(err.Error(), "nothing new is written into it") {
		t.Errorf("OpenChat on a broken chain = %v; want the degraded refusal", err)
	}
}
