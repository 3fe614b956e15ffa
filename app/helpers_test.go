package app

import (
	"context"
	"encoding/json"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/openworker/desktop/harness/extension"
	"github.com/openworker/desktop/harness/mcp/launch"
	"github.com/openworker/desktop/harness/mcp/oauth"
	"github.com/openworker/desktop/harness/model/modeltest"
	"github.com/openworker/desktop/harness/tool"
)

// recorder is a fake Emitter: it keeps every event and wakes waiters.
type recorder struct {
	mu     sync.Mutex
	events []recorded
	wake   chan struct{}
}

type recorded struct {
	name    EventName
	payload any
}

func newRecorder() *recorder { return &recorder{wake: make(chan struct{}, 1)} }

func (r *recorder) Emit(name EventName, payload any) {
	r.mu.Lock()
	r.events = append(r.events, recorded{name, payload})
	r.mu.Unlock()
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

func (r *recorder) all(name EventName) []any {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []any
	for _, e := range r.events {
		if e.name == name {
			out = append(out, e.payload)
		}
	}
	return out
}

// hangGuard bounds every wait of these tests for something that must
// happen: far beyond any plausible slowness of a loaded machine, short of
// the failure it guards against (a hang).
const hangGuard = 30 * time.Second

// waitFor waits up to hangGuard for an event of name whose payload
// satisfies ok.
func (r *recorder) waitFor(t *testing.T, name EventName, ok func(any) bool) any {
	t.Helper()
	deadline := time.After(hangGuard)
	for {
		for _, p := range r.all(name) {
			if ok == nil || ok(p) {
				return p
			}
		}
		select {
		case <-r.wake:
		case <-time.After(50 * time.Millisecond):
		case <-deadline:
			t.Fatalf("no %s event within %v", name, hangGuard)
		}
	}
}

// memKeychain is a Keychain in memory.
type memKeychain struct {
	mu   sync.Mutex
	keys map[string]string
	err  error
}

func (k *memKeychain) Get(p string) (string, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.keys[p], k.err
}

func (k *memKeychain) Set(p, key string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.err != nil {
		return k.err
	}
	k.keys[p] = key
	return nil
}

func (k *memKeychain) Delete(p string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	delete(k.keys, p)
	return k.err
}

// countNotifier counts native notifications and keeps them, "TITLE: BODY".
type countNotifier struct {
	n     atomic.Int32
	title atomic.Value // the last one

	mu   sync.Mutex
	all  []string
	more chan struct{} // signalled after each Notify (waitFor)
}

func (c *countNotifier) Notify(title, body string) error {
	c.title.Store(title + ": " + body)
	c.mu.Lock()
	c.all = append(c.all, title+": "+body)
	if c.more == nil {
		c.more = make(chan struct{}, 1)
	}
	more := c.more
	c.mu.Unlock()
	select {
	case more <- struct{}{}:
	default:
	}
	c.n.Add(1)
	return nil
}

// waitFor returns the first notification containing sub, waiting for it
// (the app notifies from goroutines of their own, so in no fixed order);
// after hangGuard it fails the test with every notification seen.
func (c *countNotifier) waitFor(t *testing.T, sub string) string {
	t.Helper()
	guard := time.After(hangGuard) // a hang guard, not a measured time
	for {
		c.mu.Lock()
		seen := append([]string(nil), c.all...)
		if c.more == nil {
			c.more = make(chan struct{}, 1)
		}
		more := c.more
		c.mu.Unlock()
		for _, s := range seen {
			if strings.Contains(s, sub) {
				return s
			}
		}
		select {
		case <-more:
		case <-guard:
			t.Fatalf("no notification with %q; seen %q", sub, seen)
		}
	}
}

// echoTool is a native tool; fail makes it return an infrastructure error.
type echoTool struct {
	calls atomic.Int32
	risk  tool.Risk
	fail  bool
}

func (e *echoTool) Descriptor() tool.Descriptor {
	risk := e.risk
	if risk == "" {
		risk = tool.ReadOnly
	}
	return tool.Descriptor{Name: "test.echo", Description: "Echoes text back.", Version: "1.0.0", Risk: risk,
		InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"additionalProperties":false}`)}
}

func (e *echoTool) Call(ctx context.Context, c *tool.Call, args json.RawMessage) (tool.Output, error) {
	e.calls.Add(1)
	_ = c.Progress("echoing", nil)
	if e.fail {
		return tool.Output{}, os.ErrDeadlineExceeded
	}
	var in struct{ Text string }
	_ = json.Unmarshal(args, &in)
	b, _ := json.Marshal(map[string]string{"echo": in.Text})
	return tool.Output{Structured: b}, nil
}

// writeBundle writes a v3 bundle selecting tools into dir/<id>.
func writeBundle(t *testing.T, dir, id string, tools ...string) {
	t.Helper()
	cw := filepath.Join(dir, id, "coworker")
	if err := os.MkdirAll(cw, 0o755); err != nil {
		t.Fatal(err)
	}
	manifest := "---\nid: " + id + "\nname: Test " + id + "\ndescription: a test coworker\nversion: 1.0.0\n---\nYou are a test coworker.\n"
	sel, _ := json.Marshal(map[string]any{"version": 3, "tools": tools})
	if err := os.WriteFile(filepath.Join(cw, "manifest.md"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cw, "tools.json"), sel, 0o644); err != nil {
		t.Fatal(err)
	}
}

// testEnv is an app over a real journal in a temp dir, a scripted model on
// 127.0.0.1 and fake window parts.
type testEnv struct {
	app     *desktop
	rec     *recorder
	keys    *memKeychain
	tokens  *oauth.MemoryStore // sign-ins (signin.go)
	notify  *countNotifier
	echo    *echoTool
	model   *modeltest.Server
	bundles string
	cfgDir  string
}

type envOpts struct {
	replies []modeltest.Reply
	cfg     config
	risk    tool.Risk
	fail    bool
	// searchPath is deps.SearchPath (nil: launch.Default).
	searchPath func(context.Context) launch.SearchPath
	// extSecrets keeps extensions' sensitive settings (nil: a new one,
	// never the OS keychain).
	extSecrets *extension.MemorySecrets
	// logger is the app's log (nil: discarded).
	logger *slog.Logger
	// examples are the templates of New coworker (nil: none).
	examples fs.FS
	// listWait is deps.ListWait; 0 is 10 min: the tests read Coworkers as
	// resolved (TestCoworkersStartingThenReady sets a short wait).
	listWait time.Duration
	// clock is deps.Clock (nil: time.Now).
	clock func() time.Time
	// noModel starts with no --base-url and no --model (the first-run case).
	noModel bool
}

func newTestEnv(t *testing.T, o envOpts) *testEnv {
	t.Helper()
	e := &testEnv{rec: newRecorder(), keys: &memKeychain{keys: map[string]string{}}, notify: &countNotifier{}, tokens: oauth.NewMemoryStore(),
		echo: &echoTool{risk: o.risk, fail: o.fail}, bundles: t.TempDir(), cfgDir: t.TempDir()}
	writeBundle(t, e.bundles, "helper", "test.echo")
	e.model = modeltest.NewOpenAI(t, o.replies...)
	reg := tool.NewRegistry()
	if err := reg.Register(e.echo); err != nil {
		t.Fatal(err)
	}
	cfg := o.cfg
	if cfg.ConfigDir == "" {
		cfg.ConfigDir = e.cfgDir
	}
	e.cfgDir = cfg.ConfigDir
	if cfg.Coworkers == "" {
		cfg.Coworkers = e.bundles
	}
	if cfg.BaseURL == "" && !o.noModel {
		cfg.BaseURL = e.model.URL
	}
	if !o.noModel {
		cfg.Model = "scripted"
	}
	if cfg.Getenv == nil {
		cfg.Getenv = func(string) string { return "" }
	}
	ctx, cancel := context.WithCancel(context.Background())
	if o.extSecrets == nil {
		o.extSecrets = &extension.MemorySecrets{}
	}
	if o.listWait == 0 {
		o.listWait = 10 * time.Minute
	}
	a, err := newApp(ctx, reg, cfg, deps{ListWait: o.listWait, Emitter: e.rec, Keychain: e.keys, Notifier: e.notify, SearchPath: o.searchPath, Tokens: e.tokens, ExtensionSecrets: o.extSecrets, Logger: o.logger, Examples: o.examples, Clock: o.clock})
	if err != nil {
		t.Fatal(err)
	}
	a.startup()
	t.Cleanup(func() {
		a.shutdown()
		cancel()
	})
	e.app = a
	return e
}
