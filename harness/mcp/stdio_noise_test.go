//go:build unix

package mcp

import (
	"context"
	"encoding/json"
	"log/slog"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/openworker/desktop/harness/tool"
)

// Banners before the handshake, a log line after every message and lines
// printed while a call runs are skipped and logged with the namespace;
// the catalog, calls and progress work as with a clean server.
func TestStdioNoiseSkipped(t *testing.T) {
	logs := &logRecorder{}
	srv := selfServer(t, "noisy", "noisy")
	srv.Secrets = []string{"noisy-s3cret-value"}
	ctx := context.Background()
	p, err := Connect(ctx, srv, &Options{Logger: slog.New(logs)})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	tools, err := p.ListTools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(tools) != 5 {
		t.Errorf("catalog has %d tools, want helper's 4 and chatter", len(tools))
	}
	var events []string
	out, err := p.CallTool(ctx, "chatter", nil, func(msg string, data json.RawMessage) error {
		events = append(events, msg+" "+string(data))
		return nil
	})
	if err != nil || out.Text != "chatted" {
		t.Fatalf("chatter = %q, %v", out.Text, err)
	}
	if len(events) != 1 || events[0] != `half way {"progress":1,"total":2}` {
		t.Errorf("progress = %q, want the one event", events)
	}
	if !p.Alive() {
		t.Fatal("provider died of stdout noise")
	}

	noise := logs.noise()
	lines := map[string]bool{}
	for _, r := range noise {
		if r["namespace"] != "noisy" || r["level"] != "WARN" {
			t.Errorf("noise record %v, want namespace noisy at WARN", r)
		}
		lines[r["line"]] = true
	}
	for _, want := range []string{"Starting server...", `{"level":"info","msg":"booting"}`, "[INFO] listening on stdio",
		"token=[redacted]", "debug: sent one message", "chatter: working on it", "chatter: almost done"} {
		if !lines[want] {
			t.Errorf("no log record of the skipped line %q; got %v", want, lines)
		}
	}
	for l := range lines {
		if l == "" || strings.Contains(l, "noisy-s3cret-value") {
			t.Errorf("logged line %q: a blank line is not noise, and secrets are redacted", l)
		}
	}
}

// Skipped lines are logged one by one for the first 10, then once per
// 100 with the count: 1000 lines of boot chatter make 20 records, not
// 1000.
func TestStdioNoiseLogBounded(t *testing.T) {
	logs := &logRecorder{}
	srv := selfServer(t, "noisy", "noisy")
	srv.Env[noiseLinesEnv] = "995" // + the 5 lines of the banner = 1000 before the handshake
	p, err := Connect(context.Background(), srv, &Options{Logger: slog.New(logs)})
	if err != nil {
		t.Fatal(err)
	}
	p.Close()
	// The handshake's answer follows the 1000 lines on the pipe, and its
	// own "sent one message" line is the 1001st; then the 1002nd... are
	// the answers of the close. Count the records of the first 1000.
	var got []string
	for _, r := range logs.noise() {
		if n, _ := strconv.Atoi(r["skipped_lines"]); n <= 1000 {
			got = append(got, r["skipped_lines"])
		}
	}
	want := "1,2,3,4,5,6,7,8,9,10,100,200,300,400,500,600,700,800,900,1000"
	if strings.Join(got, ",") != want {
		t.Errorf("records at skipped lines %v, want %s", got, want)
	}
}

// Banners of 1 MiB and of 20 MiB (past the SDK's 16 MiB line bound), each
// one line: skipped without being held in memory, the provider works, and
// the log quotes only the banner's first bytes.
func TestStdioHugeBanner(t *testing.T) {
	for _, size := range []int{1 << 20, 20 << 20} {
		t.Run(strconv.Itoa(size>>20)+"MiB", func(t *testing.T) {
			logs := &logRecorder{}
			srv := selfServer(t, "noisy", "noisy")
			srv.Env[noiseBannerEnv] = strconv.Itoa(size)
			p, err := Connect(context.Background(), srv, &Options{Logger: slog.New(logs)})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			if out, err := p.CallTool(context.Background(), "chatter", nil, nil); err != nil || out.Text != "chatted" {
				t.Fatalf("chatter = %q, %v", out.Text, err)
			}
			first := logs.noise()[0]
			if first["bytes"] != strconv.Itoa(size+1) || first["line"] != strings.Repeat("x", noiseKeep)+"…" {
				t.Errorf("first record: %d bytes, line of %d bytes; want %d bytes and the first %d quoted", len(first["bytes"]), len(first["line"]), size+1, noiseKeep)
			}
		})
	}
}

// A server that prints only noise fails at the start bound, and the error
// quotes the last lines it printed, redacted, and a banner still without
// its newline; one that prints a banner and exits says so, with the
// banner (the case of issue 10: "exited during start: exit status 0; no
// stderr output" and nothing else).
func TestStdioOnlyNoise(t *testing.T) {
	// The start bound fires on purpose in the cases that wait, but the
	// noise must be out before it: 3 s leaves a loaded machine room. The
	// server that exits gets hangGuard: its exit is to come first.
	const bound = 3 * time.Second
	cases := []struct {
		name, script string
		bound        time.Duration
		want         []string
	}{
		{"then waits", `echo Starting server...; echo "token=only-n0ise-secret"; exec sleep 60`, bound,
			[]string{`mcp provider "garbage" (from servers.json:4) did not start: no answer to initialize within 3s`,
				"no stderr output; stdout had 2 line(s) that are not JSON-RPC: Starting server... | token=[redacted]"}},
		{"then exits", `echo Starting server...; exit 0`, hangGuard,
			[]string{`mcp provider "garbage" (from servers.json:4) exited during start: exit status 0; no stderr output; stdout had 1 line(s) that are not JSON-RPC: Starting server...`}},
		// The kill at the start bound ends the banner: it is the one line.
		{"no newline", `head -c 3000000 /dev/zero | tr '\0' y; exec sleep 60`, bound,
			[]string{"no answer to initialize within 3s", "stdout had 1 line(s) that are not JSON-RPC: " + strings.Repeat("y", noiseKeep) + "…"}},
		{"many lines", `i=0; while [ $i -lt 20 ]; do i=$((i+1)); echo "line $i"; done; exec sleep 60`, bound,
			[]string{"stdout had 20 lines, the last 8 that are not JSON-RPC: line 13 | line 14 |", "| line 20"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := tool.MCPServer{Namespace: "garbage", Program: "sh", Args: []string{"-c", c.script}, Source: "servers.json:4",
				Secrets: []string{"only-n0ise-secret"}}
			var err error
			within(t, 2*hangGuard, "Connect to a server that prints only noise", func() {
				_, err = Connect(context.Background(), srv, &Options{StartTimeout: c.bound})
			})
			if err == nil {
				t.Fatal("Connect succeeded")
			}
			t.Logf("error: %.600s", err)
			mustContain(t, "error", err.Error(), c.want...)
			if strings.Contains(err.Error(), "only-n0ise-secret") || len(err.Error()) > 4096 {
				t.Errorf("error leaks a secret or is %d bytes", len(err.Error()))
			}
		})
	}
}

// A line that looks like JSON-RPC and runs past 16 MiB ends the
// connection, with an error that says so; it is not held in memory past
// the bound.
func TestStdioMessageTooLong(t *testing.T) {
	script := `printf '{"jsonrpc":"2.0","method":"x","params":"'; head -c 17000000 /dev/zero | tr '\0' z; exec sleep 60`
	srv := tool.MCPServer{Namespace: "big", Program: "sh", Args: []string{"-c", script}}
	var err error
	within(t, 2*hangGuard, "Connect", func() { // the error is to come before the start bound
		_, err = Connect(context.Background(), srv, &Options{StartTimeout: hangGuard})
	})
	if err == nil {
		t.Fatal("Connect succeeded")
	}
	t.Logf("error: %.400s", err)
	mustContain(t, "error", err.Error(), `mcp provider "big" did not start`, "a line on stdout that looks like JSON-RPC is longer than 16 MiB")
}
