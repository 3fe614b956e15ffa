package cli_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
)

// Issue 40 point 3: a key in a streamable-HTTP URL's path
// (/mcp/s/<key>/mcp) and a non-ASCII header value are the provider's
// secrets. A real server on 127.0.0.1 echoes its URL into a result and an
// error result, and the header back as a JSON text with \u escapes (as
// Python's json.dumps writes it); a second entry's URL, with another key,
// is refused with the URL in the body. Through the real binary (`check`,
// `run` with a scripted model on 127.0.0.1) neither key nor the header
// value, in any of its forms, reaches the output, the model's requests or
// the journal's files (docs/mcp.md#secrets).
func TestURLPathKeyAndNonASCIISecretNeverLeave(t *testing.T) {
	const (
		key     = "zapKey-4f9b2c7d1e"
		goneKey = "goneKey-8a7b6c5d"
		pass    = "pässwörd-ä-42"
	)
	var gotPass string
	mux := http.NewServeMux()
	mux.Handle("/mcp/s/"+key+"/mcp", sdk.NewStreamableHTTPHandler(func(r *http.Request) *sdk.Server {
		gotPass = r.Header.Get("X-Pass")
		where := "http://" + r.Host + r.URL.Path
		srv := sdk.NewServer(&sdk.Implementation{Name: "keyed", Version: "1.0.0"}, nil)
		sdk.AddTool(srv, &sdk.Tool{Name: "where", Description: "says where it is served", Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
			func(_ context.Context, req *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, any, error) {
				return &sdk.CallToolResult{Content: []sdk.Content{
					&sdk.TextContent{Text: "served at " + where},
					&sdk.TextContent{Text: `{"pass":` + strconv.QuoteToASCII(r.Header.Get("X-Pass")) + `}`},
				}}, nil, nil
			})
		sdk.AddTool(srv, &sdk.Tool{Name: "fail", Description: "always fails", Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
			func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
				return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: "no access at " + where}}}, nil, nil
			})
		return srv
	}, nil))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "unknown key at http://"+r.Host+r.URL.Path, http.StatusUnauthorized)
	})
	hs := httptest.NewServer(mux)
	t.Cleanup(hs.Close)

	dir := t.TempDir()
	servers := filepath.Join(dir, "servers.json")
	write(t, servers, `{"servers": {
  "keyed": {"transport": "streamable_http", "url": "`+hs.URL+`/mcp/s/`+key+`/mcp", "headers": {"X-Pass": "`+pass+`"}},
  "gone": {"transport": "streamable_http", "url": "`+hs.URL+`/mcp/s/`+goneKey+`/mcp"}}}`)
	coworkers := filepath.Join(dir, "coworkers")
	for id, provider := range map[string]string{"keyer": "keyed", "goner": "gone"} {
		cw := filepath.Join(coworkers, id, "coworker")
		if err := os.MkdirAll(cw, 0o755); err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(cw, "manifest.md"), "---\nid: "+id+"\nname: "+id+"\nversion: 1.0.0\n---\nUse your tools.\n")
		write(t, filepath.Join(cw, "tools.json"), `{"version":1,"mcp":["`+provider+`"]}`)
	}
	db := filepath.Join(dir, "journal.db")

	var leaks []string
	forms := func(s string) []string {
		return []string{s, strconv.QuoteToASCII(s)[1 : len(strconv.QuoteToASCII(s))-1], "p%C3%A4ssw", "cMOkc3N3w7Zy"} // raw, \u, %-escaped and base64 starts
	}
	look := func(where string, b []byte) {
		for _, s := range append(append([]string{key, goneKey}, forms(pass)...), "4f9b2c7d1e", "8a7b6c5d") {
			if bytes.Contains(b, []byte(s)) {
				leaks = append(leaks, fmt.Sprintf("%s holds %q", where, s))
			}
		}
	}
	run := func(args ...string) string {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), runGuard)
		defer cancel()
		cmd := exec.CommandContext(ctx, binary, args...)
		cmd.Env = append(binEnv(t), "ANTHROPIC_API_KEY=", "ANTHROPIC_BASE_URL=")
		var o, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &e
		err := cmd.Run()
		look(args[0]+" stdout", o.Bytes())
		look(args[0]+" stderr", e.Bytes())
		if _, exit := err.(*exec.ExitError); err != nil && !exit {
			t.Fatal(err)
		}
		return o.String() + e.String()
	}

	// check: the gone server's start error names the refusal, not the key.
	out := run("check", "--coworkers", coworkers, "--servers", servers)
	if !strings.Contains(out, "goner") || !strings.Contains(out, "/mcp/s/[redacted]/mcp") {
		t.Errorf("check does not report the gone server by its redacted URL:\n%s", out)
	}

	m := modeltest.NewOpenAI(t,
		modeltest.Reply{ToolCalls: []model.ToolCall{{ID: "c1", Name: "keyed__where", Arguments: `{}`}, {ID: "c2", Name: "keyed__fail", Arguments: `{}`}}},
		modeltest.Reply{Text: "Done."},
	)
	out = run("run", "--coworkers", coworkers, "--coworker", "keyer", "--servers", servers, "--db", db,
		"--base-url", m.URL, "--model", "test", "--approve", "bypass", "Where are you?")
	if gotPass != pass {
		t.Fatalf("the server got X-Pass %q, want %q; run said:\n%s", gotPass, pass, out)
	}
	reqs := m.Requests()
	if len(reqs) != 2 {
		t.Fatalf("the model got %d requests, want 2; run said:\n%s", len(reqs), out)
	}
	results := reqs[1].ToolResults()
	wantWhere := "served at " + hs.URL + "/mcp/s/[redacted]/mcp\n{\"pass\":\"[redacted]\"}"
	if len(results) != 2 || results[0].Text != wantWhere || !strings.Contains(results[1].Text, "no access at "+hs.URL+"/mcp/s/[redacted]/mcp") {
		t.Errorf("the model read %+v", results)
	}
	for i, r := range reqs {
		look(fmt.Sprintf("model request %d", i), r.Body)
	}
	var journaled []byte
	for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
		b, err := os.ReadFile(db + suffix)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		look("journal file "+filepath.Base(db+suffix), b)
		journaled = append(journaled, b...)
	}
	if !bytes.Contains(journaled, []byte("/mcp/s/[redacted]/mcp")) {
		t.Errorf("the journal holds no redacted result: is it where the test looks (%s)?", db)
	}
	if len(leaks) > 0 {
		t.Errorf("a secret leaked:\n%s", strings.Join(leaks, "\n"))
	}
}
