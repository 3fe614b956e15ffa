package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// The raw side channel (docs/mcp.md#tasks): JSON-RPC requests the SDK has
// no method for (tasks/get, tasks/result, tasks/cancel, a task-augmented
// tools/call), sent over the provider's current session with request IDs
// of their own ("openworker-raw-N"), whose responses never reach the SDK.
// stdio sends them on the process's stdin and picks their responses out
// of stdout (stdioConn); streamable HTTP POSTs them with the session's
// headers. The legacy SSE transport has none.

// rawIDPrefix marks the request IDs of the raw side channel.
const rawIDPrefix = "openworker-raw-"

var rawSeq atomic.Uint64

// rawCaller sends one JSON-RPC request and returns its result, or the
// *jsonrpc.Error the server answered. Notifications that come back on the
// request's own stream (streamable HTTP) go to note.
type rawCaller interface {
	rawCall(ctx context.Context, method string, params any, note func(method string, params json.RawMessage)) (json.RawMessage, error)
}

// errNoRaw is the raw caller's error for a transport that has none.
var errNoRaw = errors.New("MCP tasks need a stdio or streamable HTTP provider; the legacy SSE transport cannot send them")

// raw is the raw caller of the provider's current session, or nil (SSE).
func (p *Provider) raw() rawCaller {
	switch {
	case p.stdio != nil:
		if c := p.stdio.connection(); c != nil {
			return c
		}
	case p.http != nil:
		cs := p.conn.Load().cs
		version := ""
		if ir := cs.InitializeResult(); ir != nil {
			version = ir.ProtocolVersion
		}
		return &httpRaw{d: p.http, session: cs.ID(), version: version}
	}
	return nil
}

func newRawRequest(method string, params any) (*jsonrpc.Request, error) {
	id, err := jsonrpc.MakeID(rawIDPrefix + strconv.FormatUint(rawSeq.Add(1), 10))
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(params)
	if err != nil {
		return nil, err
	}
	return &jsonrpc.Request{ID: id, Method: method, Params: b}, nil
}

// rawAnswer is the result or error of a response.
func rawAnswer(r *jsonrpc.Response) (json.RawMessage, error) {
	if r.Error != nil {
		return nil, r.Error
	}
	return r.Result, nil
}

// rawPending are the stdio raw requests waiting for their response.
type rawPending struct {
	mu sync.Mutex
	m  map[string]chan *jsonrpc.Response
}

func (r *rawPending) add(id string) chan *jsonrpc.Response {
	ch := make(chan *jsonrpc.Response, 1)
	r.mu.Lock()
	if r.m == nil {
		r.m = map[string]chan *jsonrpc.Response{}
	}
	r.m[id] = ch
	r.mu.Unlock()
	return ch
}

func (r *rawPending) drop(id string) {
	r.mu.Lock()
	delete(r.m, id)
	r.mu.Unlock()
}

// take routes msg to its raw request: true when msg was one of ours.
func (r *rawPending) take(msg jsonrpc.Message) bool {
	resp, ok := msg.(*jsonrpc.Response)
	if !ok {
		return false
	}
	id, ok := resp.ID.Raw().(string)
	if !ok || !strings.HasPrefix(id, rawIDPrefix) {
		return false
	}
	r.mu.Lock()
	ch := r.m[id]
	delete(r.m, id)
	r.mu.Unlock()
	if ch != nil {
		ch <- resp
	}
	return true // a late answer to a request given up is dropped too
}

// rawCall sends a raw request on the process's stdin and waits for its
// response on stdout (readLoop hands it over).
func (c *stdioConn) rawCall(ctx context.Context, method string, params any, _ func(string, json.RawMessage)) (json.RawMessage, error) {
	req, err := newRawRequest(method, params)
	if err != nil {
		return nil, err
	}
	id := req.ID.Raw().(string)
	ch := c.raw.add(id)
	defer c.raw.drop(id)
	if err := c.Write(ctx, req); err != nil {
		return nil, err
	}
	select {
	case resp := <-ch:
		return rawAnswer(resp)
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.readDone:
		return nil, fmt.Errorf("%s: the provider's stdout closed: %w", method, ErrClosed)
	case <-c.closed:
		return nil, fmt.Errorf("%s: %w", method, ErrClosed)
	}
}

// httpRaw POSTs raw requests to a streamable HTTP server within the
// session (Mcp-Session-Id, Mcp-Protocol-Version), with the entry's headers
// and the sign-in's token.
type httpRaw struct {
	d       *httpDialer
	session string
	version string
}

// maxRawBody bounds a raw response.
const maxRawBody = 16 << 20

func (h *httpRaw) rawCall(ctx context.Context, method string, params any, note func(string, json.RawMessage)) (json.RawMessage, error) {
	req, err := newRawRequest(method, params)
	if err != nil {
		return nil, err
	}
	body, err := jsonrpc.EncodeMessage(req)
	if err != nil {
		return nil, err
	}
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, h.d.url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	for k, v := range h.d.headers {
		hr.Header[k] = v
	}
	hr.Header.Set("Content-Type", "application/json")
	hr.Header.Set("Accept", "application/json, text/event-stream")
	if h.session != "" {
		hr.Header.Set("Mcp-Session-Id", h.session)
	}
	if h.version != "" {
		hr.Header.Set("Mcp-Protocol-Version", h.version)
	}
	if err := h.authorize(ctx, hr); err != nil {
		return nil, err
	}
	resp, err := (&http.Client{Transport: h.d.base}).Do(hr)
	if err != nil {
		return nil, &transportError{msg: fmt.Sprintf("%s: %v", method, scrubURL(err, h.d.url))}
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return nil, &transportError{msg: fmt.Sprintf("%s: the server answered HTTP %d", method, resp.StatusCode)}
	}
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	r := io.LimitReader(resp.Body, maxRawBody)
	if ct == "text/event-stream" {
		return readRawStream(r, req.ID, note)
	}
	msg, err := readRawJSON(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	if resp, ok := msg.(*jsonrpc.Response); ok && resp.ID == req.ID {
		return rawAnswer(resp)
	}
	return nil, fmt.Errorf("%s: the server's answer is not the response to the request", method)
}

// authorize adds the sign-in's bearer token, when the provider signed in.
func (h *httpRaw) authorize(ctx context.Context, hr *http.Request) error {
	if h.d.oauth == nil {
		return nil
	}
	ts, err := h.d.oauth.TokenSource(ctx)
	if err != nil || ts == nil {
		return err
	}
	tok, err := ts.Token()
	if err != nil {
		return fmt.Errorf("the sign-in's token: %w", err)
	}
	tok.SetAuthHeader(hr)
	return nil
}

func readRawJSON(r io.Reader) (jsonrpc.Message, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	return jsonrpc.DecodeMessage(b)
}

// readRawStream reads an event-stream response until the response to id;
// notifications before it go to note (progress of the task, say).
func readRawStream(r io.Reader, id jsonrpc.ID, note func(string, json.RawMessage)) (json.RawMessage, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxRawBody)
	var data bytes.Buffer
	flush := func() (json.RawMessage, bool, error) {
		defer data.Reset()
		if data.Len() == 0 {
			return nil, false, nil
		}
		msg, err := jsonrpc.DecodeMessage(data.Bytes())
		if err != nil {
			return nil, false, nil // not JSON-RPC: skipped
		}
		switch m := msg.(type) {
		case *jsonrpc.Response:
			if m.ID == id {
				res, err := rawAnswer(m)
				return res, true, err
			}
		case *jsonrpc.Request:
			if !m.ID.IsValid() && note != nil {
				note(m.Method, m.Params)
			}
		}
		return nil, false, nil
	}
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			if res, ok, err := flush(); ok {
				return res, err
			}
			continue
		}
		if v, ok := strings.CutPrefix(line, "data:"); ok {
			data.WriteString(strings.TrimPrefix(v, " "))
		}
	}
	if res, ok, err := flush(); ok {
		return res, err
	}
	if err := sc.Err(); err != nil {
		return nil, &transportError{msg: "the event stream broke: " + err.Error()}
	}
	return nil, &transportError{msg: "the event stream ended before the response"}
}

// maxHandshakeBody bounds what observeHandshake keeps of a response.
const maxHandshakeBody = 1 << 20

// observeHandshake hands the messages of resp's body (JSON or an event
// stream) to see once the SDK has read it to the end; a body over
// maxHandshakeBody is not looked at.
func observeHandshake(resp *http.Response, see func(jsonrpc.Message)) {
	if resp == nil || resp.Body == nil || resp.StatusCode/100 != 2 {
		return
	}
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if ct != "application/json" && ct != "text/event-stream" {
		return
	}
	resp.Body = &handshakeTee{ReadCloser: resp.Body, see: see, stream: ct == "text/event-stream"}
}

// handshakeTee keeps a copy of a handshake response's body as the SDK
// reads it, and decodes it at the end.
type handshakeTee struct {
	io.ReadCloser
	see    func(jsonrpc.Message)
	stream bool
	buf    bytes.Buffer
	over   bool
	done   bool
}

func (h *handshakeTee) Read(b []byte) (int, error) {
	n, err := h.ReadCloser.Read(b)
	if !h.over && !h.done {
		if h.buf.Len()+n > maxHandshakeBody {
			h.over = true
			h.buf = bytes.Buffer{}
		} else {
			h.buf.Write(b[:n])
		}
	}
	if h.stream && !h.over && !h.done && bytes.Contains(b[:n], []byte("\n\n")) {
		h.decode() // an event stream may stay open after the answer
	}
	if err != nil && !h.over && !h.done {
		h.decode()
		h.done = true
	}
	return n, err
}

func (h *handshakeTee) decode() {
	if !h.stream {
		if msg, err := jsonrpc.DecodeMessage(h.buf.Bytes()); err == nil {
			h.see(msg)
		}
		return
	}
	for _, line := range bytes.Split(h.buf.Bytes(), []byte("\n")) {
		if v, ok := bytes.CutPrefix(line, []byte("data:")); ok {
			if msg, err := jsonrpc.DecodeMessage(bytes.TrimSpace(v)); err == nil {
				h.see(msg)
			}
		}
	}
}
