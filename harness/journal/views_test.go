package journal

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

const testDigest = "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"

// viewCall is a call of session sid, turn sid-t1, asked by origin.
func viewCall(sid, id, origin string) Invocation {
	return Invocation{ID: id, SessionID: sid, TurnID: sid + "-t1", CallID: "call-" + id, Tool: "charts.show", Alias: "charts_show",
		Provider: "mcp:charts", RemoteName: "show", Risk: "read", Origin: origin, Arguments: json.RawMessage(`{}`)}
}

// SetUIResource records the view of an executing or succeeded call, once;
// FinishInvocation keeps a view set while the call executed; the chain
// verifies after each write.
func TestSetUIResource(t *testing.T) {
	ctx := context.Background()
	j := openTest(t)
	mkSession(t, j, "s")
	for _, id := range []string{"inv_early", "inv_late", "inv_failed"} {
		if err := j.BeginInvocation(ctx, viewCall("s", id, ""), nil); err != nil {
			t.Fatal(err)
		}
	}
	// While executing: FinishInvocation chains from the payload with the view.
	if err := j.SetUIResource(ctx, "inv_early", "ui://charts/a.html", 10, testDigest); err != nil {
		t.Fatalf("SetUIResource on an executing call = %v", err)
	}
	for id, st := range map[string]InvocationStatus{"inv_early": InvSucceeded, "inv_late": InvSucceeded, "inv_failed": InvFailed} {
		if err := j.FinishInvocation(ctx, id, Finish{Status: st, Error: map[bool]string{true: "boom"}[st == InvFailed]}); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.SetUIResource(ctx, "inv_late", "ui://charts/b.html", 0, testDigest); err != nil {
		t.Fatalf("SetUIResource on a succeeded call = %v", err)
	}
	if rep := mustVerify(t, j); !rep.OK {
		t.Fatalf("Verify after views = %+v", rep.First)
	}
	for id, uri := range map[string]string{"inv_early": "ui://charts/a.html", "inv_late": "ui://charts/b.html"} {
		if inv, err := j.Invocation(ctx, id); err != nil || inv.UIURI != uri || inv.UIDigest != testDigest || inv.Status != InvSucceeded {
			t.Errorf("Invocation(%s) = %+v, %v; want succeeded with the view %s", id, inv, err, uri)
		}
	}
	// The same view again is a no-op; another one is refused.
	entries := mustVerify(t, j).Entries
	if err := j.SetUIResource(ctx, "inv_late", "ui://charts/b.html", 0, testDigest); err != nil {
		t.Errorf("the same view again = %v, want nil", err)
	}
	if got := mustVerify(t, j).Entries; got != entries {
		t.Errorf("the same view again added %d chain entries", got-entries)
	}
	err := j.SetUIResource(ctx, "inv_late", "ui://charts/other.html", 5, testDigest)
	if !errors.Is(err, ErrBadTransition) || !strings.Contains(err.Error(), "inv_late has the view ui://charts/b.html") {
		t.Errorf("a second view = %v, want ErrBadTransition naming the first", err)
	}
	err = j.SetUIResource(ctx, "inv_failed", "ui://charts/a.html", 10, testDigest)
	if !errors.Is(err, ErrBadTransition) || !strings.Contains(err.Error(), "inv_failed is failed") {
		t.Errorf("a view of a failed call = %v, want ErrBadTransition naming its status", err)
	}
	if err := j.SetUIResource(ctx, "inv_nowhere", "ui://charts/a.html", 10, testDigest); !errors.Is(err, ErrNotFound) {
		t.Errorf("a view of an unknown call = %v, want ErrNotFound", err)
	}
	for _, bad := range []struct {
		uri, digest string
		size        int
		want        string
	}{
		{"https://x/a.html", testDigest, 1, "URI"},
		{"ui://a b", testDigest, 1, "URI"},
		{"ui://" + strings.Repeat("a", MaxUIURIBytes), testDigest, 1, "URI"},
		{"ui://charts/a.html", testDigest, -1, "size -1"},
		{"ui://charts/a.html", "", 1, "digest"},
		{"ui://charts/a.html", "sha256:abc", 1, "digest"},
		{"ui://charts/a.html", strings.ToUpper(testDigest), 1, "digest"},
	} {
		err := j.SetUIResource(ctx, "inv_failed", bad.uri, bad.size, bad.digest)
		if err == nil || !strings.Contains(err.Error(), "invocation inv_failed") || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("SetUIResource(%.30q, %d, %q) = %v; want an error naming inv_failed and the %s", bad.uri, bad.size, bad.digest, err, bad.want)
		}
	}
	if rep := mustVerify(t, j); !rep.OK || rep.Entries != entries {
		t.Errorf("Verify after refused views = %+v (%d entries, want %d)", rep.First, rep.Entries, entries)
	}
}

// A call's origin is recorded by BeginInvocation and RefuseInvocation and
// read back by every reader; an origin that is not "view:<id>" is refused.
func TestInvocationOrigin(t *testing.T) {
	ctx := context.Background()
	j := openTest(t)
	mkSession(t, j, "s")
	origin := ViewOrigin("inv_shown")
	if origin != "view:inv_shown" {
		t.Fatalf("ViewOrigin = %q", origin)
	}
	if id, ok := OriginInvocation(origin); !ok || id != "inv_shown" {
		t.Errorf("OriginInvocation(%q) = %q, %v", origin, id, ok)
	}
	for _, o := range []string{"", "view:", "model"} {
		if _, ok := OriginInvocation(o); ok {
			t.Errorf("OriginInvocation(%q) is a view", o)
		}
	}
	if err := j.BeginInvocation(ctx, viewCall("s", "inv_begun", origin), nil); err != nil {
		t.Fatal(err)
	}
	refused := viewCall("s", "inv_refused", origin)
	refused.ErrorCode, refused.Error = "not_selected", "the view asked for a tool not selected"
	if err := j.RefuseInvocation(ctx, refused, nil); err != nil {
		t.Fatal(err)
	}
	prepared := viewCall("s", "inv_prepared", origin)
	if err := j.PrepareInvocation(ctx, prepared); err != nil {
		t.Fatal(err)
	}
	if err := j.MarkExecuting(ctx, prepared.ID); err != nil {
		t.Fatal(err)
	}
	if err := j.FinishInvocation(ctx, "inv_begun", Finish{Status: InvUnknown, Error: "timed out"}); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"model", "view:", "view:a b", "VIEW:inv_x"} {
		err := j.BeginInvocation(ctx, viewCall("s", "inv_bad", bad), nil)
		if err == nil || !strings.Contains(err.Error(), "inv_bad") || !strings.Contains(err.Error(), "view:<invocation id>") {
			t.Errorf("BeginInvocation with origin %q = %v; want an error naming the call and the form", bad, err)
		}
	}
	d, err := j.Detail(ctx, "s")
	if err != nil || len(d.Invocations) != 3 {
		t.Fatalf("Detail = %d invocations, %v", len(d.Invocations), err)
	}
	for _, inv := range d.Invocations {
		if inv.Origin != origin {
			t.Errorf("Detail: %s origin %q, want %q", inv.ID, inv.Origin, origin)
		}
	}
	page, err := j.Unknown(ctx, UnknownQuery{})
	if err != nil || len(page.Invocations) != 1 || page.Invocations[0].Origin != origin {
		t.Errorf("Unknown = %+v, %v; want inv_begun with its origin", page, err)
	}
	if rep := mustVerify(t, j); !rep.OK {
		t.Fatalf("Verify = %+v", rep.First)
	}
	b, _ := json.Marshal(d.Invocations[0])
	if !strings.Contains(string(b), `"origin":"view:inv_shown"`) || strings.Contains(string(b), `"ui_uri"`) {
		t.Errorf("JSON of a view's call = %s; want origin and no ui_uri", b)
	}
}

// The chain covers the new columns: changing a view's digest or a call's
// origin outside the journal, or giving a model call an origin, is caught
// by Verify.
func TestVerifyCatchesViewTampering(t *testing.T) {
	ctx := context.Background()
	for _, edit := range []struct{ name, sql string }{
		{"ui_digest changed", `UPDATE invocations SET ui_digest='sha256:` + strings.Repeat("0", 64) + `' WHERE id='inv_shown'`},
		{"ui_size changed", `UPDATE invocations SET ui_size=1 WHERE id='inv_shown'`},
		{"ui_uri removed", `UPDATE invocations SET ui_uri=NULL WHERE id='inv_shown'`},
		{"origin changed", `UPDATE invocations SET origin='view:inv_other' WHERE id='inv_asked'`},
		{"origin removed", `UPDATE invocations SET origin=NULL WHERE id='inv_asked'`},
		{"origin added", `UPDATE invocations SET origin='view:inv_asked' WHERE id='inv_shown'`},
	} {
		t.Run(edit.name, func(t *testing.T) {
			path := testPath(t)
			j := openAt(t, path)
			mkSession(t, j, "s")
			if err := j.BeginInvocation(ctx, viewCall("s", "inv_shown", ""), nil); err != nil {
				t.Fatal(err)
			}
			if err := j.FinishInvocation(ctx, "inv_shown", Finish{Status: InvSucceeded}); err != nil {
				t.Fatal(err)
			}
			if err := j.SetUIResource(ctx, "inv_shown", "ui://charts/a.html", 10, testDigest); err != nil {
				t.Fatal(err)
			}
			if err := j.BeginInvocation(ctx, viewCall("s", "inv_asked", ViewOrigin("inv_shown")), nil); err != nil {
				t.Fatal(err)
			}
			if rep := mustVerify(t, j); !rep.OK {
				t.Fatalf("Verify before the edit = %+v", rep.First)
			}
			if _, err := rawDB(t, path).Exec(edit.sql); err != nil {
				t.Fatal(err)
			}
			rep := mustVerify(t, j)
			if rep.OK || rep.First == nil || rep.First.Table != "invocations" {
				t.Fatalf("Verify after %s = OK %v, first break %+v; want a break in invocations", edit.name, rep.OK, rep.First)
			}
		})
	}
}
