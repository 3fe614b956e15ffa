// Command scriptmodel serves a scripted language model on the loopback
// interface for end-to-end tests that run the app or the CLI as a separate
// process.
//
//	scriptmodel -script replies.json [-addr 127.0.0.1:0] [-kind openai|anthropic]
//	            [-models scripted,other] [-models-status 401] [-record requests.jsonl] [-ollama]
//
// It prints one line to stdout once it accepts connections:
//
//	listening http://127.0.0.1:PORT/v1      (kind openai: pass as --base-url)
//	listening http://127.0.0.1:PORT         (kind anthropic: the SDK adds /v1/messages)
//
// and logs one line per request to stderr. It runs until killed (SIGINT or
// SIGTERM end it with status 0). The script format is described by
// modeltest.ParseScript; when the replies run out every request gets HTTP
// 500 "modeltest: no scripted reply left". GET /v1/models lists the
// -models names (default "scripted", the model name the app's end-to-end
// test uses), or answers -models-status (for example 401) with an error;
// listing takes no scripted reply. With -record, each model request is
// appended to the file as one JSON line once it is answered, what the
// model was offered (Recorded): an end-to-end test reads which tools and
// which system prompt a chat sent. Only loopback addresses are
// accepted. With -ollama it also answers GET /api/tags with the -models
// names as Ollama lists its models, so it stands in for a local Ollama
// (the app's first-run setup finds one there). Exit status 2 means bad flags or a bad script.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"

	"github.com/openworker/desktop/harness/model/modeltest"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	var usage usageError
	switch {
	case err == nil:
	case errors.As(err, &usage):
		fmt.Fprintln(os.Stderr, "scriptmodel:", err)
		os.Exit(2)
	default:
		fmt.Fprintln(os.Stderr, "scriptmodel:", err)
		os.Exit(1)
	}
}

type usageError struct{ error }

// run serves until ctx ends; it writes the "listening" line to stdout.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	o, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	replies, err := modeltest.LoadScript(o.script)
	if err != nil {
		return usageError{err}
	}
	h := modeltest.NewHandler(o.kind, replies...)
	logger := log.New(stderr, "", log.LstdFlags|log.Lmicroseconds)
	h.Logf = logger.Printf
	h.SetModels(o.models...)
	h.FailModels(o.modelsStatus, "")

	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return err
	}
	var handler http.Handler = h
	if o.record != "" {
		f, err := os.OpenFile(o.record, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			return usageError{fmt.Errorf("-record: %v", err)}
		}
		defer f.Close()
		handler = &recorder{h: h, out: f}
	}
	if o.ollama {
		handler = withOllamaTags(handler, o.models)
	}
	srv := &http.Server{Handler: handler}
	go func() {
		<-ctx.Done()
		h.Close()
		srv.Close()
	}()
	fmt.Fprintf(stdout, "listening http://%s%s\n", ln.Addr(), h.BasePath())
	logger.Printf("scriptmodel: %s kind, %d replies from %s", o.kind, len(replies), o.script)
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// options are the command's flags, checked.
type options struct {
	script       string
	addr         string // loopback host:port
	kind         modeltest.Kind
	models       []string // non-empty names
	modelsStatus int      // 0 or 400-599
	record       string   // -record: the file requests are appended to; "" none
	ollama       bool     // -ollama: GET /api/tags lists the models too
}

// parseFlags reads and checks the flags; every error is a usageError.
func parseFlags(args []string, stderr io.Writer) (options, error) {
	fs := flag.NewFlagSet("scriptmodel", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: scriptmodel -script FILE [-addr 127.0.0.1:0] [-kind openai|anthropic]")
		fs.PrintDefaults()
		fmt.Fprint(stderr, "\n"+modeltest.ScriptFormat)
	}
	script := fs.String("script", "", "JSON `file` of scripted replies (required)")
	addr := fs.String("addr", "127.0.0.1:0", "loopback `host:port` to listen on (port 0 picks one)")
	kind := fs.String("kind", "openai", "API to speak: openai or anthropic")
	models := fs.String("models", "scripted", "comma-separated model `names` GET /v1/models lists")
	modelsStatus := fs.Int("models-status", 0, "HTTP `status` (400-599) GET /v1/models fails with; 0 lists the models")
	record := fs.String("record", "", "append each model request to this `file` as a JSON line (Recorded)")
	ollama := fs.Bool("ollama", false, "also answer GET /api/tags with the models, as a local Ollama does")
	if err := fs.Parse(args); err != nil {
		return options{}, usageError{err}
	}
	if *script == "" || fs.NArg() > 0 {
		return options{}, usageError{errors.New("usage: scriptmodel -script FILE [-addr 127.0.0.1:0] [-kind openai|anthropic]")}
	}
	o := options{script: *script, addr: *addr, kind: modeltest.Kind(*kind), modelsStatus: *modelsStatus, record: *record, ollama: *ollama}
	for _, m := range strings.Split(*models, ",") {
		if m = strings.TrimSpace(m); m != "" {
			o.models = append(o.models, m)
		}
	}
	if err := o.check(); err != nil {
		return options{}, usageError{err}
	}
	return o, nil
}

// check refuses an unknown -kind, an -addr that is not loopback and a
// -models-status that is not an HTTP error.
func (o options) check() error {
	if o.kind != modeltest.OpenAI && o.kind != modeltest.Anthropic {
		return fmt.Errorf("-kind %q: want openai or anthropic", string(o.kind))
	}
	host, _, err := net.SplitHostPort(o.addr)
	if err != nil {
		return fmt.Errorf("-addr %q: %v", o.addr, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("-addr %q: only loopback addresses (127.0.0.1, ::1, localhost) are served", o.addr)
	}
	if o.modelsStatus != 0 && (o.modelsStatus < 400 || o.modelsStatus > 599) {
		return fmt.Errorf("-models-status %d: want an HTTP error status (400-599) or 0", o.modelsStatus)
	}
	return nil
}

// Recorded is one line of the -record file: a model request as the
// server understood it.
type Recorded struct {
	N        int      `json:"n"` // the request's number, from 0
	Model    string   `json:"model"`
	System   string   `json:"system"` // the system prompt
	Tools    []string `json:"tools"`  // the names of the tools offered, in order
	Messages int      `json:"messages"`
	LastUser string   `json:"last_user"` // the text of the last user message
}

// recorder serves with h and appends the requests h took to out, in
// order, after each answer.
type recorder struct {
	h   *modeltest.Handler
	mu  sync.Mutex
	out io.Writer
	n   int // requests written
}

func (rc *recorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rc.h.ServeHTTP(w, r)
	rc.mu.Lock()
	defer rc.mu.Unlock()
	reqs := rc.h.Requests()
	for ; rc.n < len(reqs); rc.n++ {
		q := reqs[rc.n]
		line := Recorded{N: rc.n, Model: q.Model, System: q.System, Tools: q.ToolNames(), Messages: len(q.Messages)}
		for _, m := range q.Messages {
			if m.Role == "user" && m.Text != "" {
				line.LastUser = m.Text
			}
		}
		b, _ := json.Marshal(line)
		_, _ = rc.out.Write(append(b, '\n'))
	}
}
