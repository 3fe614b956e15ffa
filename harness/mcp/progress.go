package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openworker/desktop/harness/internal/jsonenc"
)

// Progress ordering. The SDK hands the response of a call to the caller as
// soon as it is read, but queues notifications for a handler goroutine, so a
// progress notification the server sent before its result could otherwise
// reach us after CallTool returned. To keep "every notification sent before
// the result is forwarded before CallTool returns", the transports count the
// progress notifications of each token as they come off the wire (in wire
// order, before the response), and CallTool waits, briefly, until the
// handler has delivered as many as were seen.

// drainWait bounds how long CallTool waits for queued progress
// notifications after the result arrived.
const drainWait = 2 * time.Second

const methodProgress = "notifications/progress"

// callState routes the progress notifications of one in-flight call.
type callState struct {
	progress ProgressFunc
	cancel   context.CancelCauseFunc
	wake     chan struct{} // signalled when handled grows

	mu       sync.Mutex
	seen     int // notifications read off the wire
	handled  int // notifications given to the handler
	logs     int // log notifications while it ran (lognotify.go)
	finished bool
	err      error // the first error progress returned
}

// observeToken counts a progress notification for token as read off the
// wire. Called by the transports, in wire order.
func (p *Provider) observeToken(token string) {
	p.mu.Lock()
	st := p.calls[token]
	p.mu.Unlock()
	if st != nil {
		st.mu.Lock()
		st.seen++
		st.mu.Unlock()
	}
}

// observeMessage counts msg if it is a progress notification.
func (p *Provider) observeMessage(msg jsonrpc.Message) {
	p.observeCaps(msg) // the handshake's tasks capability (tasks.go)
	req, ok := msg.(*jsonrpc.Request)
	if !ok || req.Method != methodProgress || req.ID.IsValid() {
		return
	}
	var prm struct {
		Token any `json:"progressToken"`
	}
	if json.Unmarshal(req.Params, &prm) == nil {
		if s, ok := prm.Token.(string); ok {
			p.observeToken(s)
		}
	}
}

// onProgress is the SDK's progress handler: it routes a notification to its
// call by token, with data {"progress":N,"total":M}.
func (p *Provider) onProgress(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
	prm := req.Params
	if prm == nil {
		return
	}
	token, ok := prm.ProgressToken.(string)
	if !ok {
		return // not one of ours: we only send string tokens
	}
	p.mu.Lock()
	st := p.calls[token]
	p.mu.Unlock()
	if st == nil {
		return
	}
	data := map[string]float64{"progress": prm.Progress}
	if prm.Total > 0 {
		data["total"] = prm.Total
	}
	b, _ := jsonenc.Marshal(data)
	st.mu.Lock()
	defer st.mu.Unlock()
	st.handled++
	select {
	case st.wake <- struct{}{}:
	default:
	}
	if st.finished || st.err != nil {
		return
	}
	if err := st.progress(prm.Message, b); err != nil {
		st.err = err
		st.cancel(err)
	}
}

// finish waits (up to drainWait, or until ctx is done) for the progress
// notifications already read to be delivered, then stops delivery. It
// returns the first error progress returned.
func (st *callState) finish(ctx context.Context) error {
	timer := time.NewTimer(drainWait)
	defer timer.Stop()
	for {
		st.mu.Lock()
		if st.handled >= st.seen || st.err != nil {
			break // with st.mu held
		}
		st.mu.Unlock()
		select {
		case <-st.wake:
			continue
		case <-timer.C:
		case <-ctx.Done():
		}
		st.mu.Lock()
		break
	}
	defer st.mu.Unlock()
	st.finished = true
	return st.err
}

// maxSSELine bounds the line an sseObserver buffers; past it the observer
// gives up on that line (delivery order then becomes best effort).
const maxSSELine = 1 << 20

// sseObserver wraps an event-stream body and counts the progress
// notifications in its "data:" lines as the SDK reads them.
type sseObserver struct {
	io.ReadCloser
	observe func(token string)
	line    []byte
	skip    bool // the current line grew past maxSSELine
}

func (o *sseObserver) Read(b []byte) (int, error) {
	n, err := o.ReadCloser.Read(b)
	for rest := b[:n]; len(rest) > 0; {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			o.add(rest)
			break
		}
		o.add(rest[:i])
		if !o.skip {
			o.scan(bytes.TrimSuffix(o.line, []byte("\r")))
		}
		o.line, o.skip = o.line[:0], false
		rest = rest[i+1:]
	}
	return n, err
}

func (o *sseObserver) add(b []byte) {
	if o.skip || len(o.line)+len(b) > maxSSELine {
		o.skip, o.line = true, o.line[:0]
		return
	}
	o.line = append(o.line, b...)
}

func (o *sseObserver) scan(line []byte) {
	data, ok := bytes.CutPrefix(line, []byte("data:"))
	if !ok || !bytes.Contains(data, []byte(methodProgress)) {
		return
	}
	var msg struct {
		Method string `json:"method"`
		Params struct {
			Token any `json:"progressToken"`
		} `json:"params"`
	}
	if json.Unmarshal(data, &msg) != nil || msg.Method != methodProgress {
		return
	}
	if s, ok := msg.Params.Token.(string); ok {
		o.observe(s)
	}
}

// observeSSE wraps the body of an event-stream response.
func observeSSE(resp *http.Response, observe func(string)) {
	if resp == nil || resp.Body == nil || observe == nil {
		return
	}
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		return
	}
	resp.Body = &sseObserver{ReadCloser: resp.Body, observe: observe}
}
