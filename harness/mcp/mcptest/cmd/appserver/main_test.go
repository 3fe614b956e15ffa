package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/openworker/desktop/harness/internal/npmtest"
	"github.com/openworker/desktop/harness/mcp/mcptest"
)

// runMainEnv makes the test binary run main() (the server) instead of the
// tests, so each test starts the real command as a child process.
const runMainEnv = "APPSERVER_TEST_RUN_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(runMainEnv) == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// server returns the command line of the server as a child process, with
// args (e.g. "-extapps", DIR).
func server(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), runMainEnv+"=1", dirEnv+"=")
	return cmd
}

// connect starts the server on the installed ext-apps and connects a
// go-sdk client declaring caps (nil: the SDK's defaults) at protocol
// version (empty: the latest).
func connect(t *testing.T, caps *sdk.ClientCapabilities, version string) *sdk.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second) // a hang guard: a process starts
	defer cancel()
	c := sdk.NewClient(&sdk.Implementation{Name: "appserver-test", Version: "1.0.0"},
		&sdk.ClientOptions{Capabilities: caps})
	cs, err := c.Connect(ctx, &sdk.CommandTransport{Command: server(t, "-extapps", npmtest.ExtApps(t))},
		&sdk.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func uiExtension() *sdk.ClientCapabilities {
	caps := &sdk.ClientCapabilities{}
	caps.AddExtension(mcptest.UIExtension, map[string]any{"mimeTypes": []string{mcptest.AppMIME}})
	return caps
}

// TestAppServerTools: every tool of mcptest.AppTools is listed; the ones
// with a view carry _meta {"ui":{"resourceUri":"ui://…"}}, the others no
// _meta.ui; counter_bump is a write that is not idempotent, the rest
// read-only.
func TestAppServerTools(t *testing.T) {
	cs := connect(t, nil, "")
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	views := map[string]string{"counter_show": mcptest.CounterViewURI, "hostile_show": mcptest.HostileViewURI,
		"big_show": mcptest.BigViewURI, "text_show": mcptest.TextViewURI, "badcsp_show": mcptest.BadCSPViewURI}
	seen := map[string]bool{}
	for _, tl := range res.Tools {
		seen[tl.Name] = true
		raw, _ := json.Marshal(tl.Meta)
		var meta struct {
			UI *struct {
				ResourceURI string `json:"resourceUri"`
			} `json:"ui"`
		}
		if err := json.Unmarshal(raw, &meta); err != nil {
			t.Fatalf("%s: _meta %s: %v", tl.Name, raw, err)
		}
		if want, ok := views[tl.Name]; ok {
			if meta.UI == nil || meta.UI.ResourceURI != want {
				t.Errorf("%s: _meta = %s; want {\"ui\":{\"resourceUri\":%q}}", tl.Name, raw, want)
			}
		} else if meta.UI != nil {
			t.Errorf("%s: _meta = %s; want no ui", tl.Name, raw)
		}
		a := tl.Annotations
		if a == nil {
			t.Errorf("%s: no annotations", tl.Name)
			continue
		}
		if tl.Name == "counter_bump" {
			if a.ReadOnlyHint || a.IdempotentHint || a.DestructiveHint == nil || *a.DestructiveHint {
				t.Errorf("counter_bump annotations = %+v; want a non-idempotent, non-destructive write", a)
			}
		} else if !a.ReadOnlyHint {
			t.Errorf("%s annotations = %+v; want read-only", tl.Name, a)
		}
	}
	for name := range mcptest.AppTools {
		if !seen[name] {
			t.Errorf("tools/list lacks %s; it has %v", name, seen)
		}
	}
	if len(seen) != len(mcptest.AppTools) {
		t.Errorf("tools/list has %d tools, AppTools %d", len(seen), len(mcptest.AppTools))
	}
}

// TestAppServerResources: each ui:// resource, listed and read: its mime
// type, size (the big page over 2 MB, the others under), and _meta.ui;
// the counter page carries the real ext-apps App client.
func TestAppServerResources(t *testing.T) {
	cs := connect(t, nil, "")
	ctx := context.Background()
	list, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]*sdk.Resource{}
	for _, r := range list.Resources {
		listed[r.URI] = r
	}
	want := []struct {
		uri, mime string
		big       bool
		ui        string // _meta.ui as JSON
	}{
		{mcptest.CounterViewURI, mcptest.AppMIME, false, `{"csp":{"connectDomains":["https://api.example.com"]},"prefersBorder":true}`},
		{mcptest.HostileViewURI, mcptest.AppMIME, false, `{"csp":{},"permissions":{"camera":{}}}`},
		{mcptest.BigViewURI, mcptest.AppMIME, true, `{}`},
		{mcptest.TextViewURI, "text/plain", false, `{}`},
		{mcptest.BadCSPViewURI, mcptest.AppMIME, false, `{"csp":{"connectDomains":["*; script-src *"]}}`},
	}
	const bound = 2 << 20
	pages := map[string]string{}
	for _, w := range want {
		res, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: w.uri})
		if err != nil {
			t.Errorf("read %s: %v", w.uri, err)
			continue
		}
		if len(res.Contents) != 1 {
			t.Errorf("read %s: %d contents; want 1", w.uri, len(res.Contents))
			continue
		}
		c := res.Contents[0]
		pages[w.uri] = c.Text
		if c.URI != w.uri || c.MIMEType != w.mime || c.Text == "" || len(c.Blob) != 0 {
			t.Errorf("read %s: uri %q, mime %q, %d bytes of text, %d of blob; want %q as text", w.uri, c.URI, c.MIMEType, len(c.Text), len(c.Blob), w.mime)
		}
		if big := len(c.Text) > bound; big != w.big {
			t.Errorf("read %s: %d bytes; want over %d: %v", w.uri, len(c.Text), bound, w.big)
		}
		var got, wantUI any
		raw, _ := json.Marshal(c.Meta["ui"])
		_ = json.Unmarshal(raw, &got)
		_ = json.Unmarshal([]byte(w.ui), &wantUI)
		if !reflect.DeepEqual(got, wantUI) {
			t.Errorf("read %s: _meta.ui = %s; want %s", w.uri, raw, w.ui)
		}
		if l := listed[w.uri]; l == nil || l.MIMEType != w.mime || l.Size != int64(len(c.Text)) {
			t.Errorf("resources/list entry of %s = %+v; want mime %q, size %d", w.uri, l, w.mime, len(c.Text))
		}
	}
	if n := len(pages[mcptest.BigViewURI]); n != mcptest.BigViewBytes {
		t.Errorf("the big page has %d bytes; want %d", n, mcptest.BigViewBytes)
	}
	lib, err := os.ReadFile(filepath.Join(npmtest.ExtApps(t), mcptest.AppClientFile))
	if err != nil {
		t.Fatal(err)
	}
	counter := pages[mcptest.CounterViewURI]
	// The library, from its first byte to its export list (rewritten), is
	// in the page as it is in the package.
	body := string(lib[:strings.LastIndex(string(lib), "export{")])
	for _, sub := range []string{mcptest.AppClientMarker + "\n" + body, `new ExtApps.App({ name: "counter", version: "1.0.0" }`,
		`app.callServerTool({ name: "counter_bump", arguments: seen === null ? { by: 1 } : { by: 1, seen } })`, `<button id="bump" type="button">Bump</button>`} {
		if !strings.Contains(counter, sub) {
			t.Errorf("the counter page lacks %.120q", sub)
		}
	}
	if len(counter) < len(lib) || len(counter) > len(lib)+8<<10 {
		t.Errorf("the counter page has %d bytes, the App client %d", len(counter), len(lib))
	}
	hostile := pages[mcptest.HostileViewURI]
	for _, sub := range []string{`"ui/initialize"`, `"tools/call", { name: "secret_peek"`, `window.top.location = "https://example.com/"`,
		`window.open("https://example.com/")`, `a.target = "_top"`, `i < 1000`, `"notifications/message"`} {
		if !strings.Contains(hostile, sub) {
			t.Errorf("the hostile page lacks %q", sub)
		}
	}
}

// TestAppServerCounter: counter_show and counter_bump share one counter,
// in structured content and text; bad arguments are an error.
func TestAppServerCounter(t *testing.T) {
	cs := connect(t, nil, "")
	ctx := context.Background()
	call := func(name string, args any) (int, string) {
		t.Helper()
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s(%v): %v", name, args, err)
		}
		if res.IsError || len(res.Content) != 1 {
			t.Fatalf("%s(%v) = %+v", name, args, res)
		}
		var out struct{ Count int }
		raw, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(raw, &out); err != nil {
			t.Fatalf("%s: structured %s: %v", name, raw, err)
		}
		return out.Count, res.Content[0].(*sdk.TextContent).Text
	}
	if n, txt := call("counter_show", map[string]any{}); n != 0 || txt != "Count: 0" {
		t.Errorf("counter_show = %d, %q; want 0, \"Count: 0\"", n, txt)
	}
	if n, txt := call("counter_bump", map[string]any{"by": 1}); n != 1 || txt != "Count: 1" {
		t.Errorf("counter_bump {by:1} = %d, %q; want 1", n, txt)
	}
	if n, _ := call("counter_bump", map[string]any{"by": 2, "seen": 1}); n != 3 {
		t.Errorf("counter_bump {by:2,seen:1} = %d; want 3", n)
	}
	if n, _ := call("counter_bump", map[string]any{}); n != 4 {
		t.Errorf("counter_bump {} = %d; want 4", n)
	}
	if n, txt := call("counter_show", nil); n != 4 || txt != "Count: 4" {
		t.Errorf("counter_show = %d, %q after the bumps; want 4", n, txt)
	}
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "counter_bump", Arguments: map[string]any{"by": "two"}})
	if err == nil && !res.IsError {
		t.Errorf("counter_bump {by:\"two\"} = %+v; want an error", res)
	}
	if n, _ := call("counter_show", nil); n != 4 {
		t.Errorf("counter_show = %d after a refused bump; want 4", n)
	}
}

// TestAppServerClientCaps: client_caps returns the UI extension's
// settings the client declared, both when it declares them in initialize
// (2025-11-25) and per request (the latest protocol); null when it
// declared none.
func TestAppServerClientCaps(t *testing.T) {
	for _, tc := range []struct {
		name, version string
		caps          *sdk.ClientCapabilities
		want          string
	}{
		{"latest with ui", "", uiExtension(), `{"mimeTypes":["text/html;profile=mcp-app"]}`},
		{"2025-11-25 with ui", "2025-11-25", uiExtension(), `{"mimeTypes":["text/html;profile=mcp-app"]}`},
		{"without", "", nil, `null`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cs := connect(t, tc.caps, tc.version)
			res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "client_caps", Arguments: map[string]any{}})
			if err != nil || res.IsError {
				t.Fatalf("client_caps = %+v, %v", res, err)
			}
			raw, _ := json.Marshal(res.StructuredContent)
			var out struct {
				Capabilities map[string]any
				UI           json.RawMessage
			}
			if err := json.Unmarshal(raw, &out); err != nil {
				t.Fatal(err)
			}
			if string(out.UI) != tc.want {
				t.Errorf("client_caps ui = %s; want %s (all: %s)", out.UI, tc.want, raw)
			}
			if tc.caps != nil && out.Capabilities["extensions"] == nil {
				t.Errorf("client_caps capabilities = %s; want its extensions", raw)
			}
		})
	}
}

// TestAppServerNeedsExtApps: without the App client the server does not
// start; it says what is missing and how to install it.
func TestAppServerNeedsExtApps(t *testing.T) {
	empty := t.TempDir()
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{nil, []string{"-extapps DIR is required", "install.sh", dirEnv}},
		{[]string{"-extapps", empty}, []string{filepath.Join(empty, "app-with-deps.js"), "install.sh"}},
	} {
		out, err := server(t, tc.args...).CombinedOutput()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 {
			t.Errorf("appserver %v: %v; want exit status 2 (output %s)", tc.args, err, out)
		}
		for _, w := range tc.want {
			if !strings.Contains(string(out), w) {
				t.Errorf("appserver %v said %q; want %q in it", tc.args, out, w)
			}
		}
	}
}

// TestCounterPageWithAppBridge: the counter page, run in node against the
// real ext-apps host bridge (AppBridge): it connects, shows the tool
// result's count, reports its size, and each Bump calls counter_bump
// {"by":1,"seen":N} (N the count it shows) and writes what came back: the new count, "Denied: …" for a
// denial as a rejected call or as an error result, "Refused: …" for
// another refusal, "Error: …" for a failed call.
func TestCounterPageWithAppBridge(t *testing.T) {
	client, err := mcptest.LoadAppClient(npmtest.ExtApps(t))
	if err != nil {
		t.Fatal(err)
	}
	var out struct {
		Initialized bool
		Shown       string
		After       map[string]string
		Calls       []struct {
			Name      string
			Arguments map[string]any
		}
		Sizes []struct{ Width, Height int }
	}
	pagecheck(t, "counter", mcptest.CounterPage(client), &out)
	if !out.Initialized || out.Shown != "Count: 0" {
		t.Errorf("initialized %v, shown %q; want true, \"Count: 0\"", out.Initialized, out.Shown)
	}
	want := map[string]string{
		"allowed":                   "Count: 1",
		"denied as a rejection":     "Denied: the person denied the call",
		"denied as an error result": "Denied: The person denied apps.counter_bump.",
		"refused":                   "Refused: apps.secret_peek is not selected",
		"failed":                    "Error: the counter is locked",
	}
	if !reflect.DeepEqual(out.After, want) {
		t.Errorf("the page after each Bump = %v; want %v", out.After, want)
	}
	if len(out.Calls) != len(want) {
		t.Errorf("%d tool calls from %d clicks", len(out.Calls), len(want))
	}
	// seen is the count the page showed: 0 from the tool result, then 1
	// from the allowed Bump (the refusals leave it).
	for i, c := range out.Calls {
		seen := float64(min(i, 1))
		if c.Name != "counter_bump" || !reflect.DeepEqual(c.Arguments, map[string]any{"by": float64(1), "seen": seen}) {
			t.Errorf("call %d: the view called %s %v; want counter_bump {by:1, seen:%v}", i, c.Name, c.Arguments, seen)
		}
	}
	if len(out.Sizes) == 0 || out.Sizes[0].Height <= 0 {
		t.Errorf("size notifications = %+v; want the page's size", out.Sizes)
	}
}

// TestHostilePageWithAppBridge: the hostile page, run the same way, does
// each thing it is for: initialize, a height of 5000 px, tools/call
// secret_peek, ui/update-model-context, top navigation, window.open, a
// target=_top link, and 1000 notifications/message; the refusals come back
// into its log.
func TestHostilePageWithAppBridge(t *testing.T) {
	var out struct {
		Initialized bool
		Log         []string
		Calls       []struct{ Name string }
		Sizes       []struct{ Width, Height int }
		Report      struct {
			Messages int
			Methods  map[string]int
			Attempts []string
		}
	}
	pagecheck(t, "hostile", mcptest.HostilePage(), &out)
	if !out.Initialized || len(out.Calls) != 1 || out.Calls[0].Name != "secret_peek" {
		t.Errorf("initialized %v, calls %+v; want secret_peek", out.Initialized, out.Calls)
	}
	if len(out.Sizes) != 1 || out.Sizes[0].Height != 5000 {
		t.Errorf("size notifications = %+v; want one of 5000 px", out.Sizes)
	}
	methods := map[string]int{"ui/initialize": 1, "ui/notifications/initialized": 1, "ui/notifications/size-changed": 1,
		"tools/call": 1, "ui/update-model-context": 1, "notifications/message": 1000}
	if !reflect.DeepEqual(out.Report.Methods, methods) || out.Report.Messages != 1005 {
		t.Errorf("the page sent %d messages %v; want 1005: %v", out.Report.Messages, out.Report.Methods, methods)
	}
	attempts := []string{"top.location = https://example.com/", "window.open https://example.com/", "click A target=_top https://example.com/"}
	if !reflect.DeepEqual(out.Report.Attempts, attempts) {
		t.Errorf("the page tried %q; want %q", out.Report.Attempts, attempts)
	}
	log := strings.Join(out.Log, "\n")
	for _, w := range []string{"tools/call secret_peek: error -32000: secret_peek is not selected",
		"ui/update-model-context: error -32601:", "window.open: null", "flood sent"} {
		if !strings.Contains(log, w) {
			t.Errorf("the page's log lacks %q:\n%s", w, log)
		}
	}
}

// pagecheck runs testdata/pagecheck.mjs on page (mode "counter" or
// "hostile"): the page's script in node against the real ext-apps
// AppBridge; it returns what the script printed, decoded into out.
func pagecheck(t *testing.T, mode, page string, out any) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		npmtest.SkipOrFail(t, "node is not on PATH; install Node.js 18+ to run the pages against the ext-apps bridge")
	}
	dist := npmtest.ExtApps(t)
	path := filepath.Join(t.TempDir(), mode+".html")
	if err := os.WriteFile(path, []byte(page), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join("testdata", "pagecheck.mjs"), mode, path, dist)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	if err != nil {
		t.Fatalf("pagecheck %s: %v\nstdout: %s\nstderr: %s", mode, err, stdout, stderr.String())
	}
	if err := json.Unmarshal(stdout, out); err != nil {
		t.Fatalf("pagecheck %s: %v\nstdout: %s", mode, err, stdout)
	}
}
