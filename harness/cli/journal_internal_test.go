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
