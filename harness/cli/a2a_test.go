package cli_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/openworker/desktop/harness/a2a/a2atest"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
)

func startTestAgent(t *testing.T) *a2atest.Agent {
	t.Helper()
	ag, err := a2atest.Start(a2atest.Options{Streaming: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ag.Close() })
	return ag
}

func writeAgentServers(t *testing.T, path, cardURL string) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"servers": map[string]any{"helper": map[string]any{"transport": "a2a", "card": cardURL}}})
	if err := os.WriteFile(path, body, 0o644); err != nil {
		t.Fatal(err)
	}
}

func openJournalAt(t *testing.T, db string) *journal.Journal {
	t.Helper()
	j, err := journal.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	return j
}

// TestRunA2AAgent: a turn through `openworker run` calls the echo skill
// of a real A2A agent named in servers.json; the model gets the
// artifact, and the journal has the call with the agent's task ID.
func TestRunA2AAgent(t *testing.T) {
	ag := startTestAgent(t)
	dir := t.TempDir()
	servers := filepath.Join(dir, "servers.json")
	writeAgentServers(t, servers, ag.CardURL)
	bundles := filepath.Join(dir, "coworkers")
	writeBundleAt(t, bundles, "delegate", "helper.echo")
	m := modeltest.NewOpenAI(t,
		modeltest.Reply{ToolCalls: []model.ToolCall{{ID: "c1", Name: "helper__echo", Arguments: `{"text":"ping"}`}}},
		modeltest.Reply{Text: "The agent answered."})
	db := filepath.Join(dir, "journal.db")
	out, errs, code := runBinary(t, nil, "run", "--coworkers", bundles, "--coworker", "delegate", "--servers", servers, "--db", db,
		"--base-url", m.URL, "--model", "test", "--approve", "bypass", "Ask the agent.")
	if code != 0 || !strings.Contains(out, "The agent answered.") || !strings.Contains(errs, "✓ helper.echo succeeded") {
		t.Fatalf("run = %d\n%s\n%s", code, out, errs)
	}
	if res := m.Requests()[1].ToolResults(); len(res) != 1 || !strings.Contains(res[0].Text, "echo: ping") {
		t.Errorf("the model saw %+v", res)
	}
	j := openJournalAt(t, db)
	all, err := j.Unreconciled(context.Background())
	if err != nil || len(all) != 0 {
		t.Fatalf("unreconciled %v, %v", all, err)
	}
}

// TestRunA2AKilledThenPoll: `run` is killed (SIGKILL) while the agent's
// slow task works. The journal keeps the task ID; `journal reconcile
// --poll` asks the agent: working (stays unknown), unknown to another
// agent (stays unknown), then completed (applied, with the artifacts).
// Nothing is sent to the agent again.
func TestRunA2AKilledThenPoll(t *testing.T) {
	ag := startTestAgent(t)
	dir := t.TempDir()
	servers := filepath.Join(dir, "servers.json")
	writeAgentServers(t, servers, ag.CardURL)
	bundles := filepath.Join(dir, "coworkers")
	writeBundleAt(t, bundles, "delegate", "helper.slow")
	m := modeltest.NewOpenAI(t,
		modeltest.Reply{ToolCalls: []model.ToolCall{{ID: "c1", Name: "helper__slow", Arguments: `{"text":"the long job"}`}}},
		modeltest.Reply{Text: "never reached"})
	db := filepath.Join(dir, "journal.db")
	cmd := exec.Command(binary, "run", "--coworkers", bundles, "--coworker", "delegate", "--servers", servers, "--db", db,
		"--base-url", m.URL, "--model", "test", "--approve", "bypass", "Start the long job.")
	cmd.Env = append(binEnv(t), "ANTHROPIC_API_KEY=", "ANTHROPIC_BASE_URL=")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	progress := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stderr)
		closed := false
		for sc.Scan() {
			// The task ID is journaled before the first status update is
			// forwarded (docs/a2a.md#durable-handles).
			if strings.Contains(sc.Text(), "slow task started") && !closed {
				close(progress)
				closed = true
			}
		}
		io.Copy(io.Discard, stderr)
	}()
	var task string
	select {
	case task = <-ag.Started():
	case <-time.After(hangGuard):
		t.Fatal("the slow task never started")
	}
	select {
	case <-progress:
	case <-time.After(hangGuard):
		t.Fatalf("run never showed the agent's progress")
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	sends := ag.Requests("/a2a")

	// Which invocation: the only one of the journal.
	j := openJournalAt(t, db)
	unknown, err := j.Unreconciled(context.Background())
	if err != nil || len(unknown) != 1 || unknown[0].Provider != "a2a:helper" {
		t.Fatalf("unreconciled = %+v, %v", unknown, err)
	}
	inv := unknown[0].ID
	if h, err := j.Handle(context.Background(), inv); err != nil || h != task {
		t.Fatalf("handle %q, %v; the agent's task is %s", h, err, task)
	}
	j.Close()

	out, errs, _ := runBinary(t, nil, "journal", "list", "--unknown", "--db", db)
	t.Logf("journal list --unknown:\n%s%s", out, errs)
	poll := func(servers string) (string, string, int) {
		out, errs, code := runBinary(t, nil, "journal", "reconcile", inv, "--poll", "--servers", servers, "--db", db)
		t.Logf("reconcile --poll: exit %d\n%s%s", code, out, errs)
		return out, errs, code
	}
	// Still working: it stays unknown.
	out, errs, code := poll(servers)
	if code != 1 || !strings.Contains(errs, "stays unknown") || !strings.Contains(errs, "task "+task+" is working") {
		t.Fatalf("poll while working = %d\n%s\n%s", code, out, errs)
	}
	// An agent that does not know the task: it stays unknown, for the person.
	other := startTestAgent(t)
	otherServers := filepath.Join(dir, "other.json")
	writeAgentServers(t, otherServers, other.CardURL)
	out, errs, code = poll(otherServers)
	if code != 1 || !strings.Contains(errs, `does not know task `+task) {
		t.Fatalf("poll of an agent that forgot = %d\n%s\n%s", code, out, errs)
	}
	// The agent finishes the task; the poll records its answer.
	ag.Release()
	for i := 0; ; i++ {
		out, errs, code = poll(servers)
		if code == 0 || i == 100 || !strings.Contains(errs, "is working") {
			break
		}
	}
	if code != 0 || !strings.Contains(out, "invocation "+inv+" reconciled: applied") || !strings.Contains(out, "task "+task+" is completed") {
		t.Fatalf("poll after the task completed = %d\n%s\n%s", code, out, errs)
	}
	j = openJournalAt(t, db)
	got, err := j.Invocation(context.Background(), inv)
	if err != nil || got.Reconciled != journal.EffectApplied || got.ReconciledBy != "a2a:poll" || !strings.Contains(string(got.Result), "slow done: the long job") {
		t.Fatalf("reconciled invocation = %+v, %v", got, err)
	}
	if rep, err := j.Verify(context.Background()); err != nil || !rep.OK {
		t.Errorf("Verify = %+v, %v", rep, err)
	}
	// Polls ask with tasks/get only: the message was sent once.
	if n := ag.Requests("/a2a") - sends; n < 2 {
		t.Errorf("%d requests after the kill; want the polls' tasks/get", n)
	}
	// A second poll finds nothing to do.
	if _, errs, code := poll(servers); code != 2 || !strings.Contains(errs, "already reconciled as applied") {
		t.Errorf("second poll = %d %s", code, errs)
	}
}
