package journal

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/openworker/desktop/harness/internal/atomicfile"
)

// The outbox keeps the known outcome of a call that ran when the journal
// stayed busy past every retry (docs/journal.md#busy): in memory, written
// before the next write of this Journal and at Close, and in a file
// <db>.outbox/<invocation id>.json, so that if the process ends first the
// next Open writes the outcome with the honest reason instead of turning
// the call into "unknown".

// ErrFinishDeferred is returned (wrapped, with the busy error) by
// FinishInvocation when the journal stayed busy: the outcome is kept and
// will be written as soon as the journal is free; the call's outcome is
// not lost.
var ErrFinishDeferred = errors.New("the journal was busy; the call's outcome is kept and will be written when it is free")

// BusyCode is the ErrorCode of an outcome written from the outbox by a
// later Open, and BusyNote the text added to its error.
const (
	BusyCode = "journal_busy"
	busyNote = "the journal was busy when this call ended; its outcome was kept and written later by the next open"
)

// outbox is the outcomes of one Journal not yet written.
type outbox struct {
	mu      sync.Mutex
	pending map[string]Finish
}

func outboxDir(dbPath string) string { return dbPath + ".outbox" }

func outboxFile(dbPath, id string) (string, bool) {
	if id == "" || strings.ContainsAny(id, `/\.`) {
		return "", false
	}
	return filepath.Join(outboxDir(dbPath), id+".json"), true
}

// deferFinish keeps f for invocation id after busy failed its write.
func (j *Journal) deferFinish(id string, f Finish, busy error) error {
	if p, ok := outboxFile(j.path, id); ok {
		b, _ := json.Marshal(f)
		if err := os.MkdirAll(outboxDir(j.path), 0o700); err == nil {
			_ = atomicfile.WriteFile(p, b, 0o600) // best effort: the memory copy is written at Close anyway
		}
	}
	j.out.mu.Lock()
	if j.out.pending == nil {
		j.out.pending = map[string]Finish{}
	}
	j.out.pending[id] = f
	j.out.mu.Unlock()
	return fmt.Errorf("journal: finish invocation %s: %w: %w", id, ErrFinishDeferred, busy)
}

// flushPending writes the outcomes this Journal kept, one commit each,
// and forgets those written (or no longer executing). The first that is
// still busy stops it: the others wait for the next write.
func (j *Journal) flushPending(ctx context.Context) {
	j.out.mu.Lock()
	defer j.out.mu.Unlock()
	for id, f := range j.out.pending {
		err := j.finishInvocation(ctx, id, f)
		if isBusy(err) {
			return
		}
		delete(j.out.pending, id)
		if p, ok := outboxFile(j.path, id); ok {
			os.Remove(p)
		}
	}
}

// Pending returns how many outcomes this Journal keeps that the journal
// was too busy to take.
func (j *Journal) Pending() int {
	j.out.mu.Lock()
	defer j.out.mu.Unlock()
	return len(j.out.pending)
}

// outboxFinish is the kept outcome of invocation id, if a process that
// is gone left one.
func (j *Journal) outboxFinish(id string) (Finish, bool) {
	p, ok := outboxFile(j.path, id)
	if !ok {
		return Finish{}, false
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return Finish{}, false
	}
	var f Finish
	if json.Unmarshal(b, &f) != nil {
		return Finish{}, false
	}
	if _, err := finishEffect(id, f); err != nil {
		return Finish{}, false
	}
	return f, true
}
