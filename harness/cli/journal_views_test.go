package cli_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness/journal"
)

const viewDigest = "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"

// viewSession writes a journal at db with one session whose turn has a
// call with an app view (inv_chart, charts.show) and a call that view
// asked (inv_refresh, charts.refresh), and one the view asked that was
// refused (inv_denied).
func viewSession(t *testing.T, db string) {
	t.Helper()
	ctx := context.Background()
	j, err := journal.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if err := j.CreateSession(ctx, journal.Session{ID: "ses_1", Coworker: "helper", Identity: "sha256:id"}); err != nil {
		t.Fatal(err)
	}
	if err := j.StartTurn(ctx, journal.Turn{ID: "turn_1", SessionID: "ses_1", Prompt: "show the chart"}); err != nil {
		t.Fatal(err)
	}
	shown := journal.Invocation{ID: "inv_chart", SessionID: "ses_1", TurnID: "turn_1", Tool: "charts.show", Risk: "read"}
	if err := j.BeginInvocation(ctx, shown, nil); err != nil {
		t.Fatal(err)
	}
	if err := j.FinishInvocation(ctx, shown.ID, journal.Finish{Status: journal.InvSucceeded, Result: json.RawMessage(`{"ok":true}`)}); err != nil {
		t.Fatal(err)
	}
	if err := j.SetUIResource(ctx, shown.ID, "ui://charts/view.html", 1234, viewDigest); err != nil {
		t.Fatal(err)
	}
	asked := journal.Invocation{ID: "inv_refresh", SessionID: "ses_1", TurnID: "turn_1", Tool: "charts.refresh", Risk: "read",
		Origin: journal.ViewOrigin(shown.ID)}
	if err := j.BeginInvocation(ctx, asked, nil); err != nil {
		t.Fatal(err)
	}
	if err := j.FinishInvocation(ctx, asked.ID, journal.Finish{Status: journal.InvSucceeded}); err != nil {
		t.Fatal(err)
	}
	denied := journal.Invocation{ID: "inv_denied", SessionID: "ses_1", TurnID: "turn_1", Tool: "charts.delete", Risk: "write",
		Origin: journal.ViewOrigin(shown.ID), ErrorCode: "denied", Error: "the person said no"}
	if err := j.RefuseInvocation(ctx, denied, nil); err != nil {
		t.Fatal(err)
	}
}

// journal show prints the view of a call's result and, under a call an
// app view asked, the tool whose view it was; --json has the fields.
func TestJournalShowViews(t *testing.T) {
	db := filepath.Join(t.TempDir(), "journal.db")
	viewSession(t, db)
	code, out := runCLI(t, "journal", "show", "ses_1", "--db", db)
	if code != 0 {
		t.Fatalf("show: exit %d\n%s", code, out)
	}
	lines := strings.Split(out, "\n")
	after := func(id string) string { // the line after the invocation line of id
		for i, l := range lines {
			if strings.HasPrefix(strings.TrimSpace(l), id+" ") && i+1 < len(lines) {
				return strings.TrimSpace(lines[i+1])
			}
		}
		return ""
	}
	if got, want := after("inv_chart"), "view: ui://charts/view.html (1234 bytes, "+viewDigest+")"; got != want {
		t.Errorf("after inv_chart: %q, want %q\n%s", got, want, out)
	}
	for _, id := range []string{"inv_refresh", "inv_denied"} {
		if got, want := after(id), "from: the app view of charts.show (inv_chart)"; got != want {
			t.Errorf("after %s: %q, want %q\n%s", id, got, want, out)
		}
	}
	if strings.Count(out, "view: ") != 1 || strings.Count(out, "from: ") != 2 {
		t.Errorf("show: want 1 view line and 2 from lines\n%s", out)
	}

	code, out = runCLI(t, "journal", "show", "ses_1", "--json", "--db", db)
	var d journal.SessionDetail
	if err := json.Unmarshal([]byte(out), &d); code != 0 || err != nil || len(d.Invocations) != 3 {
		t.Fatalf("show --json: exit %d, %v\n%s", code, err, out)
	}
	for _, inv := range d.Invocations {
		switch inv.ID {
		case "inv_chart":
			if inv.UIURI != "ui://charts/view.html" || inv.UISize != 1234 || inv.UIDigest != viewDigest || inv.Origin != "" {
				t.Errorf("show --json: inv_chart = %+v", inv)
			}
		default:
			if inv.Origin != "view:inv_chart" || inv.UIURI != "" {
				t.Errorf("show --json: %s = %+v; want origin view:inv_chart", inv.ID, inv)
			}
		}
	}
	for _, key := range []string{`"ui_uri": "ui://charts/view.html"`, `"ui_size": 1234`, `"ui_digest": "` + viewDigest + `"`, `"origin": "view:inv_chart"`} {
		if !strings.Contains(out, key) {
			t.Errorf("show --json has no %s\n%s", key, out)
		}
	}
	code, out, _ = runCLISplit(t, "journal", "export", "--db", db) // stderr: "exported 1 of 1 sessions"
	var exported journal.SessionDetail
	first, _, _ := strings.Cut(out, "\n") // the last line holds the checkpoints (docs/journal.md#checkpoints)
	if err := json.Unmarshal([]byte(first), &exported); code != 0 || err != nil || len(exported.Invocations) != 3 {
		t.Fatalf("export: exit %d, %v\n%s", code, err, out)
	}
	for i, inv := range exported.Invocations {
		if want := d.Invocations[i]; inv.Origin != want.Origin || inv.UIURI != want.UIURI || inv.UISize != want.UISize || inv.UIDigest != want.UIDigest {
			t.Errorf("export: %s = %+v; want the view fields of show --json %+v", inv.ID, inv, want)
		}
	}
	if code, out := runCLI(t, "journal", "verify", "--db", db); code != 0 || !strings.HasPrefix(out, "ok: ") {
		t.Errorf("verify: exit %d\n%s", code, out)
	}
}

// A call whose origin names an invocation not in the session says so
// instead of naming a tool.
func TestJournalShowViewOriginElsewhere(t *testing.T) {
	db := filepath.Join(t.TempDir(), "journal.db")
	ctx := context.Background()
	j, err := journal.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.CreateSession(ctx, journal.Session{ID: "ses_1", Coworker: "helper", Identity: "sha256:id"}); err != nil {
		t.Fatal(err)
	}
	if err := j.StartTurn(ctx, journal.Turn{ID: "turn_1", SessionID: "ses_1", Prompt: "p"}); err != nil {
		t.Fatal(err)
	}
	if err := j.RefuseInvocation(ctx, journal.Invocation{ID: "inv_x", SessionID: "ses_1", TurnID: "turn_1", Tool: "charts.x",
		Origin: journal.ViewOrigin("inv_gone"), ErrorCode: "not_selected", Error: "no"}, nil); err != nil {
		t.Fatal(err)
	}
	j.Close()
	code, out := runCLI(t, "journal", "show", "ses_1", "--db", db)
	if code != 0 || !strings.Contains(out, "    from: the app view of inv_gone (not an invocation of this session)\n") {
		t.Errorf("show: exit %d\n%s", code, out)
	}
}
