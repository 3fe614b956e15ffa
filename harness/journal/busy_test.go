package journal

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestBusyNamesTheHolder: while one Journal holds the write lock past the
// busy timeout, another's write fails naming the file and the process
// that has the journal open (from its lease's .who file), and says to
// wait or stop it. Opening needs no write lock when there is nothing to
// migrate or recover, so the second Open itself succeeds.
func TestBusyNamesTheHolder(t *testing.T) {
	old := busyTimeoutMS
	busyTimeoutMS = 100
	oldRetry := busyRetryFor
	busyRetryFor = 0
	t.Cleanup(func() { busyTimeoutMS, busyRetryFor = old, oldRetry })
	ctx := context.Background()
	path := testPath(t)
	a := openAt(t, path)
	mkSession(t, a, "s1")
	tx, err := a.db.BeginTx(ctx, nil) // BEGIN IMMEDIATE: the write lock
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `UPDATE sessions SET error = 'held' WHERE id = 's1'`); err != nil {
		t.Fatal(err)
	}
	b, err := Open(path, nil)
	if err != nil {
		t.Fatalf("Open while another Journal holds the write lock = %v; want it open (nothing to migrate or recover)", err)
	}
	defer b.Close()
	err = b.Warn(ctx, "s1", "", "x", "y")
	want := fmt.Sprintf("journal: %s is busy: another process has held its write lock for more than 0.1 s", path)
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("unless another program (a sqlite3 shell?) does:\n  pid %d (", os.Getpid())) {
		t.Errorf("write while locked = %v; want the holder on a line of its own", err)
	}
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "wait for it to finish or stop it") {
		t.Fatalf("write while locked = %v; want %q…", err, want)
	}
}
