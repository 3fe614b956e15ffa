package journal

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/openworker/desktop/harness/internal/npmtest"
)

func init() { testChildren["JOURNAL_DISKFULL_CHILD"] = diskFullChild }

// TestDiskFull fills a real, small file system (a 12 MiB tmpfs mounted in
// a private mount namespace of a child process) while a call is running:
// the write that meets the full disk fails with ErrDiskFull naming the
// file and saying to free space; the running call still gets its real
// outcome and the turn its reason, "the disk is full" (the reserve gives
// them room); new work is refused until space is freed, then accepted.
func TestDiskFull(t *testing.T) {
	if os.Geteuid() != 0 {
		npmtest.SkipOrFail(t, "mounting a tmpfs needs root")
	}
	if _, err := exec.LookPath("unshare"); err != nil {
		npmtest.SkipOrFail(t, "unshare (util-linux) is not installed")
	}
	dir := t.TempDir()
	cmd := exec.Command("unshare", "--mount", "--propagation", "private", os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "JOURNAL_DISKFULL_CHILD="+dir)
	out, err := cmd.CombinedOutput()
	t.Logf("child:\n%s", out)
	if err != nil {
		if strings.Contains(string(out), "unshare failed") || strings.Contains(string(out), "mount tmpfs:") {
			npmtest.SkipOrFail(t, "no private mount namespace here: "+strings.TrimSpace(string(out)))
		}
		t.Fatalf("child: %v", err)
	}
	// The copy the child made of its journal before its tmpfs went away.
	j := openAt(t, filepath.Join(dir, "out.db"))
	ctx := context.Background()
	inv, err := j.Invocation(ctx, "inv_1")
	if err != nil || inv.Status != InvSucceeded {
		t.Errorf("the call running when the disk filled = %+v, %v; want succeeded (its real outcome)", inv, err)
	}
	d, err := j.Detail(ctx, "ses_1")
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Turns) != 2 || d.Turns[0].Status != TurnFailed || !strings.Contains(d.Turns[0].Reason, "the disk is full") {
		t.Errorf("turns = %+v; want turn 1 failed with \"the disk is full\", turn 2 started after space was freed", d.Turns)
	}
	if rep := mustVerify(t, j); !rep.OK {
		t.Errorf("Verify after a full disk: %v", rep.First)
	}
}

// diskFullChild is TestDiskFull's child, in its own mount namespace.
func diskFullChild(dir string) {
	fail := func(format string, args ...any) {
		fmt.Printf("FAIL: "+format+"\n", args...)
		os.Exit(1)
	}
	mnt := filepath.Join(dir, "mnt")
	os.MkdirAll(mnt, 0o700)
	if err := syscall.Mount("tmpfs", mnt, "tmpfs", 0, "size=12m"); err != nil {
		fail("mount tmpfs: %v", err)
	}
	ballast := filepath.Join(mnt, "ballast")
	if err := os.WriteFile(ballast, make([]byte, 5<<20), 0o600); err != nil {
		fail("ballast: %v", err)
	}
	ctx := context.Background()
	path := filepath.Join(mnt, "journal.db")
	j, err := Open(path, nil)
	if err != nil {
		fail("Open: %v", err)
	}
	if fi, err := os.Stat(reservePath(path)); err != nil || fi.Size() != reserveBytes {
		fail("reserve: %v", err)
	}
	must := func(what string, err error) {
		if err != nil {
			fail("%s: %v", what, err)
		}
	}
	must("CreateSession", j.CreateSession(ctx, Session{ID: "ses_1", Coworker: "demo", Identity: "id"}))
	must("StartTurn", j.StartTurn(ctx, Turn{ID: "ses_1-t1", SessionID: "ses_1", Prompt: "fill the disk"}))
	must("BeginInvocation", j.BeginInvocation(ctx, Invocation{ID: "inv_1", SessionID: "ses_1", TurnID: "ses_1-t1", Tool: "files.write"}, nil))
	// Fill in 64 KiB messages, then in smaller ones, so that what is left
	// free does not depend on where the last big one happened to fail
	// (the schema's size moves that): the reserve given up below must be
	// all the room there is.
	var fullErr error
	for _, size := range []int{64 << 10, 4 << 10, 256} {
		text, _ := json.Marshal(strings.Repeat("y", size))
		fullErr = nil
		for i := 0; i < 1000 && fullErr == nil; i++ {
			_, fullErr = j.AppendMessage(ctx, Message{SessionID: "ses_1", TurnID: "ses_1-t1", Role: "user", Content: text})
		}
		if !errors.Is(fullErr, ErrDiskFull) {
			break
		}
	}
	if !errors.Is(fullErr, ErrDiskFull) || !strings.Contains(fullErr.Error(), path) || !strings.Contains(fullErr.Error(), "free some space") {
		fail("the write that met the full disk = %v; want ErrDiskFull naming %s", fullErr, path)
	}
	fmt.Println("full:", fullErr)
	// What was running is finished with its real outcome.
	must("FinishInvocation on a full disk", j.FinishInvocation(ctx, "inv_1", Finish{Status: InvSucceeded, Result: json.RawMessage(`{"ok":true}`)}))
	must("FinishTurn on a full disk", j.FinishTurn(ctx, "ses_1-t1", TurnFailed, "the journal could not record a message: "+fullErr.Error(), 1, 1))
	// New work waits for space.
	if err := j.StartTurn(ctx, Turn{ID: "ses_1-t2", SessionID: "ses_1", Prompt: "again"}); !errors.Is(err, ErrDiskFull) {
		fail("StartTurn on a full disk = %v; want ErrDiskFull", err)
	}
	must("remove ballast", os.Remove(ballast))
	must("StartTurn after space was freed", j.StartTurn(ctx, Turn{ID: "ses_1-t2", SessionID: "ses_1", Prompt: "again"}))
	must("FinishTurn", j.FinishTurn(ctx, "ses_1-t2", TurnCompleted, "", 1, 0))
	must("Close", j.Close())
	for _, suffix := range []string{"", "-wal"} {
		b, err := os.ReadFile(path + suffix)
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, "out.db"+suffix), b, 0o600)
		}
		if err != nil && suffix == "" {
			fail("copy out: %v", err)
		}
	}
	fmt.Println("ok")
}
