package journal_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/openworker/desktop/harness/journal"
)

// One tool call's life in the journal.
func Example() {
	dir, _ := os.MkdirTemp("", "journal-example")
	defer os.RemoveAll(dir)
	ctx := context.Background()

	j, err := journal.Open(filepath.Join(dir, "journal.db"), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer j.Close()

	sid := journal.NewID("ses_")
	j.CreateSession(ctx, journal.Session{ID: sid, Coworker: "notes", Identity: "3f2a..."})
	inv := journal.Invocation{ID: journal.NewID("inv_"), SessionID: sid, Tool: "notes.append",
		Arguments: json.RawMessage(`{"text":"buy milk"}`)}
	j.PrepareInvocation(ctx, inv) // validated, allowed, within budget
	if err := j.MarkExecuting(ctx, inv.ID); err != nil {
		return // not durable: do not call the tool
	}
	// ... exactly one provider call here ...
	j.FinishInvocation(ctx, inv.ID, journal.Finish{Status: "succeeded", Result: json.RawMessage(`{"ok":true}`)})

	got, _ := j.Invocation(ctx, inv.ID)
	fmt.Println(got.Status, got.Effect, got.ResultDigest)
	rep, _ := j.Verify(ctx)
	fmt.Println("chain ok:", rep.OK, "entries:", rep.Entries)
	// Output:
	// succeeded applied sha256:4062edaf750fb8074e7e83e0c9028c94e32468a8b6f1614774328ef045150f93
	// chain ok: true entries: 4
}
