package cli_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness/cli"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/tool"
)

// oldJournal copies the journal package's fixture of schema version v
// (written by the OpenWorker that had it) to a temporary journal.db.
func oldJournal(t *testing.T, v int) string {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("../journal/testdata/journal-v%d.db", v))
	if err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "journal.db")
	if err := os.WriteFile(db, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return db
}

func runSplit(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = cli.Run(context.Background(), tool.NewRegistry(), args,
		cli.WithIO(strings.NewReader(""), &out, &errOut, func(string) string { return "" }, func() bool { return false }))
	return code, out.String(), errOut.String()
}

// The journal commands and run say on stderr that an old journal was
// backed up before its upgrade, once: the next open has nothing to upgrade.
func TestCLISaysJournalBackup(t *testing.T) {
	db := oldJournal(t, 6)
	want := fmt.Sprintf("journal: backed up schema v6 to %s.v6-backup before upgrading to v%d\n", db, journal.SchemaVersion())
	code, out, errOut := runSplit(t, "journal", "list", "--db", db)
	if code != 0 || errOut != want || !strings.Contains(out, "ses_fx_crashed") {
		t.Fatalf("journal list of a v6 file: exit %d\nstdout:\n%s\nstderr:\n%q\nwant stderr %q", code, out, errOut, want)
	}
	if code, _, errOut := runSplit(t, "journal", "verify", "--db", db); code != 0 || strings.Contains(errOut, "backed up") {
		t.Errorf("journal verify after the upgrade: exit %d, stderr %q; want no backup line", code, errOut)
	}

	db = oldJournal(t, 8)
	want = fmt.Sprintf("journal: backed up schema v8 to %s.v8-backup before upgrading to v%d\n", db, journal.SchemaVersion())
	_, _, errOut = runSplit(t, "run", "--coworkers", t.TempDir(), "--coworker", "nobody", "--db", db,
		"--base-url", "http://127.0.0.1:9/v1", "--model", "m", "hello")
	if !strings.HasPrefix(errOut, want) {
		t.Errorf("run with a v8 journal: stderr %q; want it to start with %q", errOut, want)
	}
}

// A backup that cannot be written stops the command with the backup's
// path and what to do, and the journal keeps its version.
func TestCLIBackupFailure(t *testing.T) {
	db := oldJournal(t, 6)
	if err := os.Mkdir(db+".v6-backup", 0o700); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runSplit(t, "journal", "list", "--db", db)
	if code != 1 || !strings.Contains(errOut, db+".v6-backup") || !strings.Contains(errOut, "free disk space") {
		t.Fatalf("journal list with the backup blocked: exit %d, stderr %q", code, errOut)
	}
	os.Remove(db + ".v6-backup")
	if code, _, errOut := runSplit(t, "journal", "verify", "--db", db); code != 0 || !strings.Contains(errOut, "backed up schema v6") {
		t.Errorf("journal verify once the way is clear: exit %d, stderr %q", code, errOut)
	}
}
