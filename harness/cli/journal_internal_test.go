package cli

import (
	"strings"
	"testing"

	"github.com/openworker/desktop/harness/journal"
)

// journal show says what a turn ran with only when it differs from the
// session's (a continued session that changed model or approval mode).
func TestPrintDetailTurnModel(t *testing.T) {
	d := journal.SessionDetail{Session: journal.Session{ID: "s", Model: "m1", Approve: "ask"}, Turns: []journal.Turn{
		{ID: "t1", Seq: 1, Model: "m1", Approve: "ask"}, {ID: "t2", Seq: 2, Model: "m2", Approve: "bypass"}, {ID: "t3", Seq: 3},
	}}
	var b strings.Builder
	printDetail(&b, d)
	if got := strings.Count(b.String(), "ran with"); got != 1 || !strings.Contains(b.String(), "ran with: m2, approval bypass") {
		t.Errorf("journal show =\n%s\nwant one 'ran with: m2, approval bypass' line", b.String())
	}
}

// The next page command is one the person's shell reads back: a POSIX
// shell's quotes elsewhere, and on Windows a path as it is or in double
// quotes, which cmd.exe and PowerShell both take (cmd.exe keeps single
// quotes as part of the word).
func TestShellJoinFor(t *testing.T) {
	args := []string{"openworker", "journal", "list", "--before", "czF8MjAy-_", "--db"}
	for _, c := range []struct{ goos, db, want string }{
		{"linux", "/tmp/x/journal.db", "/tmp/x/journal.db"},
		{"linux", "/home/Ann Lee/it's.db", `'/home/Ann Lee/it'\''s.db'`},
		{"windows", `C:\Users\ann\journal.db`, `C:\Users\ann\journal.db`},
		{"windows", `C:\Users\Ann Lee\journal.db`, `"C:\Users\Ann Lee\journal.db"`},
		{"windows", `D:\it's\journal.db`, `"D:\it's\journal.db"`},
	} {
		want := "openworker journal list --before czF8MjAy-_ --db " + c.want
		if got := shellJoinFor(c.goos, append(args, c.db)); got != want {
			t.Errorf("shellJoinFor(%s, … %s) = %s, want %s", c.goos, c.db, got, want)
		}
	}
}
