package journal

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestOpenRefusesToWriteADamagedFile: after one page of the file is
// flipped, Open opens it degraded (quick_check), every write fails with
// ErrDegraded naming the file and what to do, and nothing is written.
func TestOpenRefusesToWriteADamagedFile(t *testing.T) {
	ctx := context.Background()
	path := damagedJournal(t)
	j, err := Open(path, nil)
	if err != nil {
		t.Fatalf("Open = %v; want a degraded journal", err)
	}
	defer j.Close()
	h := j.Health()
	if h.Problem != ProblemDamaged || !strings.Contains(h.Summary, path) || len(h.Details) == 0 {
		t.Fatalf("Health = %+v; want damaged, naming %s, with SQLite's lines", h, path)
	}
	err = j.CreateSession(ctx, Session{ID: "s2", Coworker: "demo", Identity: "id"})
	if !errors.Is(err, ErrDegraded) {
		t.Fatalf("CreateSession on a damaged file = %v; want ErrDegraded", err)
	}
	for _, want := range []string{path, "is damaged", "restore a backup", "move the file aside"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if _, err := j.Session(ctx, "s2"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Session(s2) after a refused write = %v; want not found", err)
	}
	// Reads still work where the file allows: the session row is on a sound page.
	if s, err := j.Session(ctx, "s1"); err != nil || s.ID != "s1" {
		t.Errorf("Session(s1) of a damaged file = %+v, %v; want it read", s, err)
	}
}

// TestOpenFindsABrokenChain: a row changed outside the journal, among the
// newest chain entries, degrades the journal at Open.
func TestOpenFindsABrokenChain(t *testing.T) {
	ctx := context.Background()
	path := testPath(t)
	j := openAt(t, path)
	mkSession(t, j, "s1")
	j.Close()
	if _, err := rawDB(t, path).Exec(`UPDATE turns SET prompt = 'something else' WHERE id = 's1-t1'`); err != nil {
		t.Fatal(err)
	}
	j2 := openAt(t, path)
	h := j2.Health()
	if h.Problem != ProblemChainBroken || !strings.Contains(h.Details[0], "(turns row s1-t1): "+ReasonRowChanged) {
		t.Fatalf("Health after a changed row = %+v; want chain_broken naming turns row s1-t1", h)
	}
	if err := j2.Warn(ctx, "s1", "", "x", "y"); !errors.Is(err, ErrDegraded) || !strings.Contains(err.Error(), "Verify the journal "+path+" to list every break") {
		t.Errorf("Warn on a broken chain = %v; want ErrDegraded pointing at journal verify", err)
	}
}

// TestDeferCheck: with DeferCheck, Open does not check and a later Check
// degrades the journal.
func TestDeferCheck(t *testing.T) {
	path := damagedJournal(t)
	j, err := Open(path, &Options{DeferCheck: true})
	if err != nil {
		t.Fatalf("Open(DeferCheck) = %v", err)
	}
	defer j.Close()
	if !j.Health().OK() {
		t.Fatalf("Health before Check = %+v; want not yet checked", j.Health())
	}
	h, err := j.Check(context.Background())
	if err != nil || h.Problem != ProblemDamaged || j.Health().Problem != ProblemDamaged {
		t.Fatalf("Check = %+v, %v; want damaged", h, err)
	}
}

// TestDurabilityReadBack: Open reads journal_mode, synchronous and (where
// demanded, as on macOS) fullfsync back. Demanding fullfsync on Linux
// while the ConnectHook does not set it must degrade the journal; with the
// hook setting it, every pooled connection reads it back on.
func TestDurabilityReadBack(t *testing.T) {
	oldFull, oldSet := fullFsync, setFullFsync
	t.Cleanup(func() { fullFsync, setFullFsync = oldFull, oldSet })
	fullFsync, setFullFsync = true, false
	j, err := Open(filepath.Join(t.TempDir(), "j.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	h := j.Health()
	j.Close()
	if h.Problem != ProblemNotDurable || !strings.Contains(h.Summary, "fullfsync is 0, not 1") {
		t.Fatalf("Health without fullfsync = %+v; want not_durable naming fullfsync", h)
	}

	setFullFsync = true
	j = openAt(t, filepath.Join(t.TempDir(), "j.db"))
	if !j.Health().OK() {
		t.Fatalf("Health with fullfsync set = %+v", j.Health())
	}
	ctx := context.Background()
	var conns []interface{ Close() error }
	for range 3 { // distinct pooled connections, each made by the driver
		c, err := j.db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		for _, p := range []string{"fullfsync", "checkpoint_fullfsync", "synchronous"} {
			var v int
			if err := c.QueryRowContext(ctx, "PRAGMA "+p).Scan(&v); err != nil || (p == "synchronous" && v != 2) || (p != "synchronous" && v != 1) {
				t.Errorf("connection %d: PRAGMA %s = %d, %v", len(conns), p, v, err)
			}
		}
	}
	for _, c := range conns {
		c.Close()
	}
}

// TestDurabilityReadBackSeesDeleteMode: a connection not in WAL mode (as
// on a file system without shared memory) is named.
func TestDurabilityReadBackSeesDeleteMode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j.db")
	db := rawDB(t, path)
	if _, err := db.Exec(`PRAGMA journal_mode=DELETE`); err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	bad, err := readBackDurability(context.Background(), db)
	if err != nil || len(bad) == 0 || !strings.Contains(bad[0], "journal_mode is delete, not wal") {
		t.Fatalf("readBackDurability(DELETE mode) = %q, %v", bad, err)
	}
}

// TestRecoveryDoesNotLaunderAnEdit: a row edited outside the journal,
// older than the entries the check at open covers, is not rewritten (and
// so chained) by recovery or reconciliation: the journal becomes
// degraded, the row stays as the edit left it, and Verify still reports it.
func TestRecoveryDoesNotLaunderAnEdit(t *testing.T) {
	old := tailEntries
	tailEntries = 1
	t.Cleanup(func() { tailEntries = old })
	ctx := context.Background()
	path := testPath(t)
	j := openAt(t, path)
	mkSession(t, j, "s1")
	if err := j.BeginInvocation(ctx, Invocation{ID: "inv_done", SessionID: "s1", TurnID: "s1-t1", Tool: "files.write"}, nil); err != nil {
		t.Fatal(err)
	}
	if err := j.FinishInvocation(ctx, "inv_done", Finish{Status: InvSucceeded}); err != nil {
		t.Fatal(err)
	}
	if err := j.BeginInvocation(ctx, Invocation{ID: "inv_unknown", SessionID: "s1", TurnID: "s1-t1", Tool: "files.write"}, nil); err != nil {
		t.Fatal(err)
	}
	if err := j.FinishInvocation(ctx, "inv_unknown", Finish{Status: InvUnknown}); err != nil {
		t.Fatal(err)
	}
	for range 3 { // newer entries, so that the edited rows are outside the checked tail
		if err := j.Warn(ctx, "s1", "", "note", "later"); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.FinishTurn(ctx, "s1-t1", TurnCompleted, "", 1, 2); err != nil {
		t.Fatal(err)
	}
	j.Close()

	// A succeeded call set back to executing by hand: recovery would make it unknown.
	if _, err := rawDB(t, path).Exec(`UPDATE invocations SET status='executing', effect='', finished_at=NULL WHERE id='inv_done'`); err != nil {
		t.Fatal(err)
	}
	j2 := openAt(t, path)
	if h := j2.Health(); h.Problem != ProblemChainBroken || !strings.Contains(h.Details[0], "invocations row inv_done: "+ReasonRowChanged) {
		t.Fatalf("Health after recovery met an edited row = %+v; want chain_broken naming inv_done", h)
	}
	if inv, _ := j2.Invocation(ctx, "inv_done"); inv.Status != InvExecuting {
		t.Errorf("the edited row was recovered to %s; want it left as the edit made it", inv.Status)
	}
	if rep := mustVerify(t, j2); rep.OK {
		t.Error("Verify calls the journal sound after recovery met an edited row")
	}
	j2.Close()

	// An unknown call edited by hand: reconciling it is refused.
	fresh := testPath(t)
	j3 := openAt(t, fresh)
	mkSession(t, j3, "s2")
	if err := j3.BeginInvocation(ctx, Invocation{ID: "inv_u", SessionID: "s2", TurnID: "s2-t1", Tool: "files.write"}, nil); err != nil {
		t.Fatal(err)
	}
	if err := j3.FinishInvocation(ctx, "inv_u", Finish{Status: InvUnknown}); err != nil {
		t.Fatal(err)
	}
	if _, err := j3.db.Exec(`UPDATE invocations SET error='edited' WHERE id='inv_u'`); err != nil {
		t.Fatal(err)
	}
	if err := j3.ReconcileAs(ctx, "inv_u", EffectApplied, "user:t"); !errors.Is(err, ErrDegraded) {
		t.Fatalf("ReconcileAs of an edited row = %v; want ErrDegraded", err)
	}
	if rep := mustVerify(t, j3); rep.OK {
		t.Error("Verify calls the journal sound after reconciling an edited row")
	}
}

// TestOpenUnreadableFile: a file whose header is damaged cannot be opened
// at all; the error names the file, says so and points at a backup, not
// at an export that would fail the same way. A new journal is 0600.
func TestOpenUnreadableFile(t *testing.T) {
	path := testPath(t)
	j := openAt(t, path)
	mkSession(t, j, "s1")
	j.Close()
	// Windows has no mode bits: Go reports 0666 for any writable file.
	if fi, err := os.Stat(path); err != nil || (runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600) {
		t.Errorf("a new journal file: %v, %v; want mode 0600", fi.Mode(), err)
	}
	for _, c := range []struct {
		name     string
		from, to int
	}{{"magic", 0, 16}, {"format numbers", 40, 80}} {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "journal.db")
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			for i := c.from; i < c.to; i++ {
				data[i] ^= 0x5A
			}
			os.WriteFile(p, data, 0o600)
			_, err = Open(p, nil)
			if err == nil || !strings.Contains(err.Error(), p+" cannot be read at all") || !strings.Contains(err.Error(), "restore a backup") ||
				strings.Contains(err.Error(), "export") {
				t.Errorf("Open(header %s damaged) = %v", c.name, err)
			}
		})
	}
}

// TestReadingOpenChecksBeforeItWrites: an open for reading skips the
// quick_check of the whole file, so damage outside the newest chain
// entries goes unseen while it only reads; its first write runs the
// quick_check first and is refused.
func TestReadingOpenChecksBeforeItWrites(t *testing.T) {
	old := tailEntries
	tailEntries = 1
	t.Cleanup(func() { tailEntries = old })
	path := damagedJournal(t)
	j, err := Open(path, &Options{Reading: true})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if !j.Health().OK() {
		t.Fatalf("Health of a reading open = %+v; want the quick_check not run yet", j.Health())
	}
	if _, err := j.Session(context.Background(), "s1"); err != nil {
		t.Fatal(err)
	}
	err = j.Warn(context.Background(), "s1", "", "x", "y")
	if !errors.Is(err, ErrDegraded) || j.Health().Problem != ProblemDamaged {
		t.Errorf("first write of a reading open on a damaged file = %v (health %+v); want the quick_check to refuse it", err, j.Health())
	}
}

// TestDegradedStateOutlivesTheProcess: a break that only the full Verify
// finds (a row outside the chain) degrades every later Open of the same
// file; once another file is in its place (a restored backup, a new
// journal: another head), the marker is dropped.
func TestDegradedStateOutlivesTheProcess(t *testing.T) {
	ctx := context.Background()
	path := testPath(t)
	j := openAt(t, path)
	mkSession(t, j, "s1")
	j.Close()
	// Closed at once: a file still open is not deleted by os.Remove below on
	// a Windows volume without POSIX delete semantics (Wine's, FAT32).
	raw := rawDB(t, path)
	if _, err := raw.Exec(`INSERT INTO warnings(session_id, code, message, created_at) VALUES ('s1','forged','by hand','2025-01-01T00:00:00.000000000Z')`); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	j = openAt(t, path)
	if !j.Health().OK() {
		t.Fatalf("Health before Verify = %+v; the check at open cannot see a row outside the chain", j.Health())
	}
	if rep := mustVerify(t, j); rep.OK {
		t.Fatal("Verify missed the forged row")
	}
	j.Close()
	later := openAt(t, path)
	h := later.Health()
	if h.Problem != ProblemChainBroken || !strings.Contains(h.Summary, "An earlier check found this") {
		t.Fatalf("Health of a later Open = %+v; want the break Verify found", h)
	}
	if err := later.Warn(ctx, "s1", "", "x", "y"); !errors.Is(err, ErrDegraded) {
		t.Errorf("a later write = %v; want ErrDegraded", err)
	}
	later.Close()

	// Another journal in its place: the marker no longer applies.
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		os.Remove(p)
	}
	fresh := openAt(t, path)
	if !fresh.Health().OK() {
		t.Errorf("Health of a new journal at the same path = %+v; want sound", fresh.Health())
	}
	if _, err := os.Stat(markerPath(path)); !os.IsNotExist(err) {
		t.Errorf("marker after a new journal took the path: %v; want it removed", err)
	}
}

// TestVerifyClearsAStaleMarker: a backup of the same file, from before a
// row was forged, restored in place has the same chain head, so the
// marker still applies at Open; a full Verify that finds it sound clears
// the state, for this Journal and later ones.
func TestVerifyClearsAStaleMarker(t *testing.T) {
	path := testPath(t)
	j := openAt(t, path)
	mkSession(t, j, "s1")
	if err := j.FinishTurn(context.Background(), "s1-t1", TurnCompleted, "", 1, 0); err != nil { // nothing to recover at the next Open
		t.Fatal(err)
	}
	j.Close()
	// The backup: a copy of the file (and of its WAL, if one is left).
	clean, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cleanWAL, _ := os.ReadFile(path + "-wal")
	raw := rawDB(t, path)
	if _, err := raw.Exec(`INSERT INTO warnings(session_id, code, message, created_at) VALUES ('s1','forged','by hand','2025-01-01T00:00:00.000000000Z')`); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	j = openAt(t, path)
	mustVerify(t, j)
	j.Close()
	os.Remove(path + "-shm")
	if err := os.WriteFile(path, clean, 0o600); err != nil { // the backup, restored
		t.Fatal(err)
	}
	if err := os.WriteFile(path+"-wal", cleanWAL, 0o600); err != nil {
		t.Fatal(err)
	}
	j = openAt(t, path)
	if j.Health().OK() {
		t.Fatal("Health after the restore = sound; the marker (same head) should still apply until Verify")
	}
	if rep := mustVerify(t, j); !rep.OK || !j.Health().OK() {
		t.Fatalf("Verify of the restored file = %+v, health %+v; want sound and the state cleared", rep, j.Health())
	}
	j.Close()
	if again := openAt(t, path); !again.Health().OK() {
		t.Errorf("a later Open = %+v; want sound", again.Health())
	}
}

// TestCheckWhileAnotherWrites: the check at open reads the chain's tail
// and its rows in one snapshot, so another journal committing meanwhile
// (another process on the same file) is never taken for a broken chain.
func TestCheckWhileAnotherWrites(t *testing.T) {
	patientBusy(t)
	ctx := context.Background()
	path := testPath(t)
	w := openAt(t, path)
	mkSession(t, w, "ses_w")
	r := openAt(t, path)
	stop := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				done <- nil
				return
			default:
			}
			if err := w.StartTurn(ctx, Turn{ID: fmt.Sprintf("ses_w-x%d", i), SessionID: "ses_w", Seq: i + 2, Prompt: "p"}); err != nil {
				done <- err
				return
			}
			if err := w.FinishTurn(ctx, fmt.Sprintf("ses_w-x%d", i), TurnCompleted, "", 1, 0); err != nil {
				done <- err
				return
			}
		}
	}()
	for i := 0; i < 300; i++ {
		h, err := r.Check(ctx)
		if err != nil || !h.OK() {
			close(stop)
			<-done
			t.Fatalf("check %d while another journal writes = %+v, %v; want OK", i, h, err)
		}
	}
	close(stop)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
