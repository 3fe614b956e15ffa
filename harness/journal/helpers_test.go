package journal

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// TestMain doubles as the crash child: with JOURNAL_CRASH_CHILD=<db> the
// test binary opens the journal, starts a turn, begins one invocation
// (approval, prepared and executing in one commit), says so on
// stdout and waits to be killed (see TestCrashRecovery).
func TestMain(m *testing.M) {
	if path := os.Getenv("JOURNAL_CRASH_CHILD"); path != "" {
		crashChild(path)
		return
	}
	for env, child := range testChildren {
		if v := os.Getenv(env); v != "" {
			child(v)
			return
		}
	}
	os.Exit(m.Run())
}

// testChildren are the other child modes of the test binary, by the
// environment variable that selects them (set up by per-OS test files).
var testChildren = map[string]func(string){}

func crashChild(path string) {
	ctx := context.Background()
	j, err := Open(path, nil)
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(2)
	}
	must := func(err error) {
		if err != nil {
			fmt.Println("error:", err)
			os.Exit(2)
		}
	}
	must(j.CreateSession(ctx, Session{ID: "ses_crash", Coworker: "demo", Identity: "id"}))
	must(j.StartTurn(ctx, Turn{ID: "ses_crash-t1", SessionID: "ses_crash", Prompt: "write a"}))
	must(j.BeginInvocation(ctx, Invocation{ID: "inv_crash", SessionID: "ses_crash", TurnID: "ses_crash-t1", Tool: "files.write",
		Arguments: json.RawMessage(`{"path":"a"}`)}, &Approval{SessionID: "ses_crash", Decision: "allow_once", Source: "prompt"}))
	// Two more turns: one whose model reply was its last message (its work
	// is done), one whose last message asks for a call.
	msg := func(ses, turn, role, content string) {
		_, err := j.AppendMessage(ctx, Message{SessionID: ses, TurnID: turn, Role: role, Content: json.RawMessage(content)})
		must(err)
	}
	for _, ses := range []string{"ses_replied", "ses_asked"} {
		must(j.CreateSession(ctx, Session{ID: ses, Coworker: "demo", Identity: "id"}))
		must(j.StartTurn(ctx, Turn{ID: ses + "-t1", SessionID: ses, Prompt: "go"}))
		msg(ses, ses+"-t1", "user", `{"role":"user","text":"go"}`)
		msg(ses, ses+"-t1", "assistant", `{"role":"assistant","tool_calls":[{"id":"c1","name":"a"}]}`)
		msg(ses, ses+"-t1", "tool", `{"role":"tool","tool_call_id":"c1","text":"ok"}`)
	}
	msg("ses_replied", "ses_replied-t1", "assistant", `{"role":"assistant","text":"Done."}`)
	msg("ses_asked", "ses_asked-t1", "assistant", `{"role":"assistant","text":"Next:","tool_calls":[{"id":"c2","name":"a"}]}`)
	w := bufio.NewWriter(os.Stdout)
	fmt.Fprintln(w, "executing")
	w.Flush()
	time.Sleep(time.Hour) // "doing I/O" until SIGKILL
}

// clock is a fake time source that advances one millisecond per reading.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock {
	return &clock{t: time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)}
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(time.Millisecond)
	return c.t
}

// patientBusy makes the journals the test opens wait up to a minute for
// another one's write lock (busyTimeoutMS, SQLite's busy_timeout) instead
// of 5 s, for tests where two journals contend on purpose: one holding the
// lock may be descheduled for seconds on a loaded machine. Call it before
// opening them.
func patientBusy(t *testing.T) {
	old := busyTimeoutMS
	busyTimeoutMS = 60_000
	t.Cleanup(func() { busyTimeoutMS = old })
}

func testPath(t *testing.T) string { return filepath.Join(t.TempDir(), "sub", "journal.db") }

// openAt opens a journal at path and closes it at the end of the test.
func openAt(t *testing.T, path string) *Journal {
	t.Helper()
	j, err := Open(path, &Options{Now: newClock().Now})
	if err != nil {
		t.Fatalf("Open(%s) = %v", path, err)
	}
	t.Cleanup(func() { j.Close() })
	return j
}

func openTest(t *testing.T) *Journal { return openAt(t, testPath(t)) }

// mkSession creates an open session with one running turn (id+"-t1").
func mkSession(t *testing.T, j *Journal, id string) {
	t.Helper()
	ctx := context.Background()
	if err := j.CreateSession(ctx, Session{ID: id, Coworker: "demo", CoworkerVersion: "1.0.0", Identity: "sha-" + id,
		Provider: "openai", Model: "m", Approve: "ask", IdentityParts: json.RawMessage(`{"bundle":"b"}`)}); err != nil {
		t.Fatalf("CreateSession(%s) = %v", id, err)
	}
	if err := j.StartTurn(ctx, Turn{ID: id + "-t1", SessionID: id, Prompt: "hello"}); err != nil {
		t.Fatalf("StartTurn = %v", err)
	}
}

// prepare prepares an invocation in session sid, turn sid-t1.
func prepare(t *testing.T, j *Journal, sid, id string) {
	t.Helper()
	err := j.PrepareInvocation(context.Background(), Invocation{ID: id, SessionID: sid, TurnID: sid + "-t1", CallID: "call-" + id,
		Tool: "notes.append", Alias: "notes_append", Provider: "native", RemoteName: "append", Risk: "write",
		DescriptorDigest: "sha256:d", Arguments: json.RawMessage(`{"text":"hi"}`)})
	if err != nil {
		t.Fatalf("PrepareInvocation(%s) = %v", id, err)
	}
}

func status(t *testing.T, j *Journal, id string) InvocationStatus {
	t.Helper()
	inv, err := j.Invocation(context.Background(), id)
	if err != nil {
		t.Fatalf("Invocation(%s) = %v", id, err)
	}
	return inv.Status
}

// rawDB opens a second, independent connection to the file, as a tamperer
// or an old app would.
func rawDB(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite3", dsn(path))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func mustVerify(t *testing.T, j *Journal) VerifyReport {
	t.Helper()
	rep, err := j.Verify(context.Background())
	if err != nil {
		t.Fatalf("Verify() error = %v", err)
	}
	return rep
}
