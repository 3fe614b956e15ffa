//go:build fixturegen

// Command fixturegen writes one journal fixture, testdata/journal-vN.db,
// through the public API of the journal package it is built with. It is
// not built against today's package: scripts/journal-fixtures.sh checks
// out, in a temporary worktree, the last commit whose newest migration was
// N, copies this directory into it and runs
//
//	go run -tags fixturegen,since3,... ./fixturegen -out FILE -now TIME
//
// The since<K> tags (K ≤ N) switch on the calls that schema version K
// brought (see since*.go and before*.go); everything in this file is in
// the API of every version. The clock starts at TIME (the commit's date)
// and moves one millisecond per reading, and every ID is fixed, so a run
// writes the same rows each time (lease tokens excepted).
//
// What it writes: a closed session with a completed turn, messages, an
// approval per call, a succeeded, a failed, a refused and two unknown
// calls (reconciled applied and not applied), warnings and saved user
// policies; a failed session; and a session left as a crash leaves it:
// its turn still running and its call still executing.
package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"flag"
	"log"
	"os"
	"path/filepath"
	"time"

	_ "github.com/mattn/go-sqlite3"
	"github.com/openworker/desktop/harness/journal"
)

type clock struct{ t time.Time }

func (c *clock) Now() time.Time { c.t = c.t.Add(time.Millisecond); return c.t }

type gen struct {
	ctx context.Context
	j   *journal.Journal
}

func must(err error) {
	if err != nil {
		log.Fatal(err)
	}
}

func main() {
	out := flag.String("out", "", "the fixture file to write")
	now := flag.String("now", "2026-01-01T00:00:00Z", "RFC 3339 time the fake clock starts at")
	flag.Parse()
	start, err := time.Parse(time.RFC3339, *now)
	must(err)
	if *out == "" {
		log.Fatal("fixturegen: -out FILE is required")
	}
	dir, err := os.MkdirTemp("", "fixturegen")
	must(err)
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "journal.db")
	j, err := journal.Open(path, &journal.Options{Now: (&clock{t: start.UTC()}).Now})
	must(err)
	g := &gen{ctx: context.Background(), j: j}
	g.closedSession()
	g.failedSession()
	g.crashedSession()
	handle(g, "inv_fx_executing")
	labels(g, "ses_fx_closed", "ses_fx_failed")
	elicitations(g, "ses_fx_closed", "inv_fx_ok")
	rep, err := j.Verify(g.ctx)
	must(err)
	if !rep.OK {
		log.Fatalf("fixturegen: the new journal does not verify: %+v", rep.First)
	}
	must(j.Close()) // the executing call and running turn have no live owner now
	fold(path, *out)
	log.Printf("fixturegen: wrote %s (schema %d, %d chain entries)", *out, journal.SchemaVersion(), rep.Entries)
}

// fold turns the file back to a rollback journal, so that the WAL is in
// the main file and the fixture is one file, and copies it to out.
func fold(path, out string) {
	db, err := sql.Open("sqlite3", "file:"+path)
	must(err)
	var mode, ok string
	must(db.QueryRow(`PRAGMA journal_mode=DELETE`).Scan(&mode))
	must(db.QueryRow(`PRAGMA integrity_check`).Scan(&ok))
	must(db.Close())
	if mode != "delete" || ok != "ok" {
		log.Fatalf("fixturegen: journal_mode %q, integrity_check %q", mode, ok)
	}
	b, err := os.ReadFile(path)
	must(err)
	must(os.WriteFile(out, b, 0o644))
}

func raw(s string) json.RawMessage { return json.RawMessage(s) }

// call is an invocation of the notes-keeper coworker's tools.
func call(sid, turn, id, tool, risk, args string) journal.Invocation {
	inv := journal.Invocation{ID: id, SessionID: sid, TurnID: turn, CallID: "call_" + id, Tool: tool,
		Alias: "notes_" + tool[len("notes."):], Provider: "native", RemoteName: tool[len("notes."):], Risk: risk,
		DescriptorDigest: "sha256:" + tool, Arguments: raw(args)}
	place(&inv, "on this computer")
	return inv
}

func approval(inv journal.Invocation, decision, scope, source, reason string) *journal.Approval {
	return &journal.Approval{SessionID: inv.SessionID, TurnID: inv.TurnID, InvocationID: inv.ID, CallID: inv.CallID,
		Tool: inv.Tool, Decision: decision, Scope: scope, Source: source, Reason: reason, Identity: "sha256:fixture-identity"}
}

func (g *gen) message(sid, turn, role, content string) {
	_, err := g.j.AppendMessage(g.ctx, journal.Message{SessionID: sid, TurnID: turn, Role: role, Content: raw(content)})
	must(err)
}

func (g *gen) session(id string) {
	must(g.j.CreateSession(g.ctx, journal.Session{ID: id, Coworker: "notes-keeper", CoworkerVersion: "1.2.0",
		Identity: "sha256:fixture-identity", IdentityParts: raw(`{"bundle":"notes-keeper","tools":["notes.append","notes.read"]}`),
		Provider: "openai-compatible http://127.0.0.1:1/v1", Model: "test-model", Approve: "ask"}))
}

func (g *gen) turn(sid, id, prompt string) {
	must(g.j.StartTurn(g.ctx, turnWith(journal.Turn{ID: id, SessionID: sid, Prompt: prompt}, "test-model", "ask")))
	g.message(sid, id, "user", `{"text":`+quote(prompt)+`}`)
}

func quote(s string) string { b, _ := json.Marshal(s); return string(b) }

func (g *gen) closedSession() {
	ctx, j := g.ctx, g.j
	sid, t1 := "ses_fx_closed", "ses_fx_closed-t1"
	g.session(sid)
	g.turn(sid, t1, "Add a note <b>ship it</b>, then read the notes.")
	g.message(sid, t1, "assistant", `{"tool_calls":[{"id":"call_inv_fx_ok","name":"notes_append","arguments":{"text":"ship it"}}]}`)

	ok := call(sid, t1, "inv_fx_ok", "notes.append", "write", `{"text":"<b>ship it</b>"}`)
	begin(g, ok, approval(ok, "allow_once", "call", "prompt", ""))
	must(j.FinishInvocation(ctx, ok.ID, journal.Finish{Status: "succeeded",
		Result: raw(`{"structured":{"lines":1},"text":"saved <b>ship it</b>"}`), DurationMS: 12}))
	g.message(sid, t1, "tool", `{"call_id":"call_inv_fx_ok","text":"saved <b>ship it</b>"}`)

	failed := call(sid, t1, "inv_fx_failed", "notes.read", "read", `{"path":"missing.md"}`)
	place(&failed, "mcp.example.com")
	begin(g, failed, approval(failed, "allow_always", "coworker", "policy:user", "saved answer"))
	must(j.FinishInvocation(ctx, failed.ID, journal.Finish{Status: "failed", ErrorCode: "not_found",
		Error: "no note missing.md", DurationMS: 3}))

	denied := call(sid, t1, "inv_fx_denied", "notes.append", "write", `{"text":"again"}`)
	denied.Status, denied.ErrorCode, denied.Error = "refused", "denied", "the person denied this call"
	refuse(g, denied, approval(denied, "deny", "call", "prompt", "not now"))

	timedOut := call(sid, t1, "inv_fx_applied", "notes.append", "write", `{"text":"slow"}`)
	begin(g, timedOut, approval(timedOut, "allow_session", "session", "prompt", ""))
	must(j.FinishInvocation(ctx, timedOut.ID, journal.Finish{Status: "unknown", ErrorCode: "timeout",
		Error: "the call did not finish in 75 s", DurationMS: 75000}))
	must(j.ReconcileAs(ctx, timedOut.ID, "applied", "user:fixture"))

	cancelled := call(sid, t1, "inv_fx_not_applied", "notes.append", "write", `{"text":"cancelled"}`)
	begin(g, cancelled, approval(cancelled, "allow_session", "session", "grant", "allowed for this session"))
	must(j.FinishInvocation(ctx, cancelled.ID, journal.Finish{Status: "unknown", ErrorCode: "cancelled",
		Error: "the turn was cancelled", DurationMS: 40}))
	must(j.ReconcileAs(ctx, cancelled.ID, notApplied, "user:fixture"))

	must(j.Warn(ctx, sid, t1, "catalog_changed", "the description of notes.read changed since the last turn"))
	g.message(sid, t1, "assistant", `{"text":"Saved. The note list could not be read."}`)
	must(j.FinishTurn(ctx, t1, "completed", "", 3, 5))
	must(j.Warn(ctx, sid, "", "model_context_dropped", "the fact clipboard did not fit"))
	toolWarning(g, sid, "notes.delete", "notes.delete was left out: the model provider refuses its name")

	must(j.SaveUserPolicy(ctx, "notes-keeper", "notes.read", "sha256:notes.read", "allow"))
	must(j.SaveUserPolicy(ctx, "notes-keeper", "notes.delete", "sha256:notes.delete", "deny"))
	must(j.SaveUserPolicy(ctx, "notes-keeper", "notes.append", "sha256:notes.append", "allow"))
	must(j.SaveUserPolicy(ctx, "notes-keeper", "notes.append", "sha256:notes.append", "ask")) // an update: a second chain entry
	must(j.FinishSession(ctx, sid, "closed", ""))
	reopen(g, sid)
}

func (g *gen) failedSession() {
	sid, t1 := "ses_fx_failed", "ses_fx_failed-t1"
	g.session(sid)
	g.turn(sid, t1, "Summarise my notes.")
	must(g.j.FinishTurn(g.ctx, t1, "failed", "model provider: 500 Internal Server Error", 1, 0))
	must(g.j.FinishSession(g.ctx, sid, "failed", "model provider: 500 Internal Server Error"))
}

// crashedSession leaves what a killed process leaves: the turn running and
// the call executing (the next Open makes them failed and unknown).
func (g *gen) crashedSession() {
	sid, t1 := "ses_fx_crashed", "ses_fx_crashed-t1"
	g.session(sid)
	g.turn(sid, t1, "Append a line to the log.")
	g.message(sid, t1, "assistant", `{"tool_calls":[{"id":"call_inv_fx_executing","name":"notes_append","arguments":{"text":"line"}}]}`)
	inv := call(sid, t1, "inv_fx_executing", "notes.append", "write", `{"text":"line"}`)
	begin(g, inv, approval(inv, "allow_once", "call", "bypass", "bypass: approval mode is bypass"))
}
