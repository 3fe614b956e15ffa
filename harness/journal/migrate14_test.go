package journal

import (
	"context"
	"encoding/json"
	"testing"
)

// TestMigrate14 upgrades the version-13 fixture (written by the commit
// that had schema 13, scripts/journal-fixtures.sh 13): every row is kept
// as it was (the executing call's handle too; Open recovers that call as
// unknown), the new columns are NULL in old rows, the chain verifies as
// before, and a view and a view's call recorded afterwards are chained and
// read back.
func TestMigrate14(t *testing.T) {
	ctx := context.Background()
	j, before, after := upgradeFixture(t, 13)
	if h := before["invocations"]["inv_fx_executing"]["handle"]; h != "task-fx-42" {
		t.Fatalf("journal-v13.db: the executing call's handle is %v; want task-fx-42 (fixturegen since13)", h)
	}

	for table, rows := range before {
		if table == "chain" || table == "schema_migrations" {
			continue
		}
		if len(after[table]) != len(rows) {
			t.Errorf("%s: %d rows after the upgrade, %d before", table, len(after[table]), len(rows))
		}
	}
	for key, r := range after["invocations"] {
		for _, c := range []string{"origin", "ui_uri", "ui_size", "ui_digest"} {
			if v, ok := r[c]; !ok || v != nil {
				t.Errorf("invocation %s column %s = %v (present %v) after the upgrade; want NULL", key, c, v, ok)
			}
		}
	}
	if h, err := j.Handle(ctx, "inv_fx_executing"); err != nil || h != "task-fx-42" {
		t.Errorf("Handle(inv_fx_executing) after the upgrade = %q, %v", h, err)
	}
	rep := mustVerify(t, j)
	if !rep.OK {
		t.Fatalf("Verify after the upgrade: %+v", rep.First)
	}
	old, err := j.Invocation(ctx, "inv_fx_ok")
	if err != nil || old.Origin != "" || old.UIURI != "" || old.UISize != 0 || old.UIDigest != "" {
		t.Fatalf("old invocation inv_fx_ok = %+v, %v; want no origin and no view", old, err)
	}

	// After the upgrade: a call with a view, then a call its view asks.
	sid := "ses_fx_closed"
	if err := j.ReopenSession(ctx, sid, Reopening{}); err != nil {
		t.Fatal(err)
	}
	turn := sid + "-v14"
	if err := j.StartTurn(ctx, Turn{ID: turn, SessionID: sid, Prompt: "show the chart"}); err != nil {
		t.Fatal(err)
	}
	shown := Invocation{ID: "inv_chart", SessionID: sid, TurnID: turn, Tool: "charts.show", Arguments: json.RawMessage(`{}`)}
	if err := j.BeginInvocation(ctx, shown, nil); err != nil {
		t.Fatal(err)
	}
	if err := j.FinishInvocation(ctx, shown.ID, Finish{Status: InvSucceeded, Result: json.RawMessage(`{"ok":true}`)}); err != nil {
		t.Fatal(err)
	}
	if err := j.SetUIResource(ctx, shown.ID, "ui://charts/view.html", 1234, testDigest); err != nil {
		t.Fatal(err)
	}
	asked := Invocation{ID: "inv_refresh", SessionID: sid, TurnID: turn, Tool: "charts.refresh", Origin: ViewOrigin(shown.ID), Arguments: json.RawMessage(`{}`)}
	if err := j.BeginInvocation(ctx, asked, nil); err != nil {
		t.Fatal(err)
	}
	if err := j.FinishInvocation(ctx, asked.ID, Finish{Status: InvSucceeded}); err != nil {
		t.Fatal(err)
	}
	d, err := j.Detail(ctx, sid)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Invocation{}
	for _, inv := range d.Invocations {
		got[inv.ID] = inv
	}
	if v := got["inv_chart"]; v.UIURI != "ui://charts/view.html" || v.UISize != 1234 || v.UIDigest != testDigest || v.Origin != "" {
		t.Errorf("Detail: inv_chart = %+v; want its view", v)
	}
	if v := got["inv_refresh"]; v.Origin != "view:inv_chart" || v.UIURI != "" {
		t.Errorf("Detail: inv_refresh = %+v; want origin view:inv_chart", v)
	}
	if end := mustVerify(t, j); !end.OK || end.Entries <= rep.Entries {
		t.Errorf("Verify after the new rows = %+v; want OK with more than %d entries", end, rep.Entries)
	}
}
