package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
)

// TestUnattendedParkResumeExactlyOnce drives the real binary, a real MCP
// server child process (this test binary's append server, which appends
// a line to a file for every execution) and a scripted model on
// 127.0.0.1, over one real journal file, 50 times (10 with -short):
//
//  1. run --unattended parks on the approval of append (exit 3, the item's
//     ID printed) and is SIGKILLed while parked (or has exited already);
//  2. the approval is answered from the CLI (every 10th one denied);
//  3. resume is started and SIGKILLed at a random moment, again and
//     again, until one runs to its end.
//
// Then: the call ran at most once (lines in the file), exactly once when
// its invocation succeeded; there is exactly one invocation of it (never
// two); the answer was consumed (none lost); a denied call never ran and
// the model was told; and the session's last turn completed.
func TestUnattendedParkResumeExactlyOnce(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "journal.db")
	ledger := filepath.Join(dir, "ledger.txt")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	servers := filepath.Join(dir, "servers.json")
	body, _ := json.Marshal(map[string]any{"servers": map[string]any{
		"ap": map[string]any{"transport": "stdio", "command": exe, "env": map[string]string{appendEnv: ledger, "GORACE": "atexit_sleep_ms=0"}}}})
	if err := os.WriteFile(servers, body, 0o644); err != nil {
		t.Fatal(err)
	}
	bundles := filepath.Join(dir, "coworkers")
	writeBundleAt(t, bundles, "keeper", "ap.append")
	env := binEnv(t)
	rng := rand.New(rand.NewPCG(36, uint64(time.Now().UnixNano())))

	type proc struct {
		code           int
		stdout, stderr string
	}
	start := func(args ...string) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer) {
		cmd := exec.Command(binary, args...)
		cmd.Env = env
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		return cmd, &out, &errb
	}
	wait := func(cmd *exec.Cmd, out, errb *bytes.Buffer) proc {
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			code := 0
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				code = ee.ExitCode()
			}
			return proc{code, out.String(), errb.String()}
		case <-time.After(120 * time.Second):
			cmd.Process.Kill()
			<-done
			t.Fatalf("%v did not end within 120 s\n%s\n%s", cmd.Args, out, errb)
			return proc{}
		}
	}
	openJ := func() *journal.Journal {
		j, err := journal.Open(db, nil)
		if err != nil {
			t.Fatal(err)
		}
		return j
	}

	var killsBefore, killsAfter, unknown, resumes int
	rounds := 50
	if testing.Short() {
		// 10 rounds, one of them denied: the Wine step runs harness/cli
		// with -test.short, where 50 rounds of started and killed
		// processes take 107 s (docs/ci.md#under-wine).
		rounds = 10
	}
	for round := 0; round < rounds; round++ {
		text := fmt.Sprintf("line-%02d", round)
		replies := []modeltest.Reply{{ToolCalls: []model.ToolCall{{ID: "c1", Name: "ap__append", Arguments: `{"text":"` + text + `"}`}}}}
		for k := 0; k < 40; k++ {
			replies = append(replies, modeltest.Reply{Text: "Done."})
		}
		m := modeltest.NewOpenAI(t, replies...)
		modelFlags := []string{"--coworkers", bundles, "--servers", servers, "--db", db, "--base-url", m.URL, "--model", "test"}

		// 1. Park, and SIGKILL while parked.
		cmd, out, errb := start(append([]string{"run", "--unattended", "--coworker", "keeper"}, append(modelFlags, "Append a line.")...)...)
		var item journal.InboxItem
		deadline := time.Now().Add(60 * time.Second)
		for item.ID == "" && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
			j := openJ()
			items, _ := j.Inbox(context.Background(), journal.InboxFilter{})
			j.Close()
			if len(items) == 1 {
				item = items[0]
			}
		}
		if item.ID == "" {
			cmd.Process.Kill()
			t.Fatalf("round %d: no inbox item within 60 s\n%s\n%s", round, out, errb)
		}
		sent := cmd.Process.Signal(syscall.SIGKILL) == nil
		p := wait(cmd, out, errb)
		if p.code != 3 && !killedCode(p.code, sent) {
			t.Fatalf("round %d: run --unattended exited %d; want 3 (parked) or killed\n%s\n%s", round, p.code, p.stdout, p.stderr)
		}
		if p.code == 3 && !strings.Contains(p.stdout, "waiting  "+item.ID+"  approval  may it run ap.append") {
			t.Fatalf("round %d: a parked run printed\n%s\nwant the item's ID and what it waits for", round, p.stdout)
		}

		// Honest status while parked: waiting on you, never succeeded.
		if round == 0 {
			cmd, out, errb := start("journal", "show", item.SessionID, "--db", db)
			p := wait(cmd, out, errb)
			if want := "run      waiting on you: " + item.ID + " (approval of ap.append)"; p.code != 0 || !strings.Contains(p.stdout, want) {
				t.Fatalf("journal show of a parked run = %d\n%s\n%s\nwant %q", p.code, p.stdout, p.stderr, want)
			}
			cmd, out, errb = start("journal", "list", "--db", db)
			if p := wait(cmd, out, errb); p.code != 0 || !strings.Contains(p.stdout, "waiting on you: "+item.ID) {
				t.Fatalf("journal list with a parked run = %d\n%s\n%s", p.code, p.stdout, p.stderr)
			}
		}

		// 2. Answer from the CLI.
		answer := "allow"
		if round%10 == 9 {
			answer = "deny"
		}
		cmd, out, errb = start("inbox", "answer", item.ID, answer, "--db", db)
		if p := wait(cmd, out, errb); p.code != 0 {
			t.Fatalf("round %d: inbox answer = %d\n%s\n%s", round, p.code, p.stdout, p.stderr)
		}

		// 3. Resume, killed at random moments, until one ends by itself.
		for attempt := 0; ; attempt++ {
			resumes++
			cmd, out, errb = start(append([]string{"resume"}, modelFlags...)...)
			if attempt < 8 && rng.IntN(4) != 0 {
				time.Sleep(time.Duration(rng.IntN(800)) * time.Millisecond)
				sent := cmd.Process.Signal(syscall.SIGKILL) == nil
				p := wait(cmd, out, errb)
				if killedCode(p.code, sent) {
					if lines(t, ledger, text) == 0 {
						killsBefore++
					} else {
						killsAfter++
					}
					continue
				}
				if p.code != 0 {
					t.Fatalf("round %d: resume = %d\n%s\n%s", round, p.code, p.stdout, p.stderr)
				}
				break
			}
			if p := wait(cmd, out, errb); p.code != 0 {
				t.Fatalf("round %d: resume = %d\n%s\n%s", round, p.code, p.stdout, p.stderr)
			}
			break
		}

		if round == 0 {
			cmd, out, errb := start("journal", "show", item.SessionID, "--db", db)
			if p := wait(cmd, out, errb); p.code != 0 || !strings.Contains(p.stdout, "run      succeeded\n") {
				t.Fatalf("journal show of the resumed run = %d\n%s\n%s", p.code, p.stdout, p.stderr)
			}
		}

		// The outcome.
		j := openJ()
		ctx := context.Background()
		got, err := j.InboxItem(ctx, item.ID)
		if err != nil || got.Status != journal.InboxConsumed {
			t.Fatalf("round %d: item = %+v, %v; want consumed (an answer is never lost)", round, got, err)
		}
		invs, err := j.Invocations(ctx, item.SessionID)
		if err != nil || len(invs) != 1 {
			t.Fatalf("round %d: %d invocations (%v); want exactly one: %+v", round, len(invs), err, invs)
		}
		inv, n := invs[0], lines(t, ledger, text)
		switch {
		case answer == "deny":
			if inv.Status != journal.InvRefused || n != 0 {
				t.Fatalf("round %d: denied call: status %s, ran %d times", round, inv.Status, n)
			}
		case n > 1:
			t.Fatalf("round %d: the call ran %d times", round, n)
		case inv.Status == journal.InvSucceeded && n != 1:
			t.Fatalf("round %d: the call succeeded but ran %d times", round, n)
		case inv.Status == journal.InvUnknown:
			unknown++
		case inv.Status != journal.InvSucceeded:
			t.Fatalf("round %d: invocation %s; want succeeded or unknown (killed during the call)", round, inv.Status)
		}
		turns, err := j.Turns(ctx, item.SessionID)
		if err != nil || len(turns) < 2 || turns[len(turns)-1].Status != journal.TurnCompleted {
			t.Fatalf("round %d: turns %+v, %v; want the last one completed", round, turns, err)
		}
		msgs, _ := j.Messages(ctx, item.SessionID)
		var toolAnswer string
		for _, m := range msgs {
			var mm model.Message
			if json.Unmarshal(m.Content, &mm) == nil && mm.Role == model.ToolRole && mm.ToolCallID == "c1" {
				toolAnswer = mm.Text
			}
		}
		if answer == "deny" && !strings.Contains(toolAnswer, "denied") {
			t.Fatalf("round %d: the model was told %q; want a denial", round, toolAnswer)
		}
		if rep, err := j.Verify(ctx); err != nil || !rep.OK {
			t.Fatalf("round %d: Verify = %+v, %v", round, rep, err)
		}
		j.Close()
		m.Close()
	}
	j := openJ()
	defer j.Close()
	if rep, err := j.Verify(context.Background()); err != nil || !rep.OK {
		t.Fatalf("Verify = %+v, %v", rep, err)
	}
	t.Logf("%d rounds, %d resume processes, %d killed before the append, %d after it; %d calls left unknown (killed during the call)",
		rounds, resumes, killsBefore, killsAfter, unknown)
}

// lines counts the lines of path equal to text.
func lines(t *testing.T, path, text string) int {
	b, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	n := 0
	for _, l := range strings.Split(string(b), "\n") {
		if l == text {
			n++
		}
	}
	return n
}

// killedCode reports whether a process that exited with code was ended by
// the SIGKILL sent to it (sent: Signal returned nil). On Unix its code is
// -1 (ended by a signal). On Windows SIGKILL is TerminateProcess, which
// makes the code 1, and succeeds only on a process still running: the
// code of one that exited by itself before it is its own.
func killedCode(code int, sent bool) bool {
	if runtime.GOOS == "windows" {
		return sent && code == 1
	}
	return code == -1
}
