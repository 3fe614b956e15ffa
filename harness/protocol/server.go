package protocol

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/journal"
)

// Server speaks the protocol over one reader and writer. Create it with
// NewServer, pass it as the runtime's consent.Prompter, then call Serve.
type Server struct {
	outMu sync.Mutex
	out   io.Writer

	mu        sync.Mutex
	rt        *harness.Runtime
	sessions  map[string]*session
	approvals map[string]chan consent.Decision
	turns     sync.WaitGroup
}

type session struct {
	s    *harness.Session
	busy bool
}

// NewServer returns a server writing lines to out.
func NewServer(out io.Writer) *Server {
	return &Server{out: out, sessions: map[string]*session{}, approvals: map[string]chan consent.Decision{}}
}

// Serve reads requests from in until it ends or ctx is done, then cancels
// running turns, waits for them, and closes every session it opened.
func (srv *Server) Serve(ctx context.Context, rt *harness.Runtime, in io.Reader) error {
	srv.mu.Lock()
	srv.rt = rt
	srv.mu.Unlock()
	ctx, cancel := context.WithCancel(ctx)
	defer func() {
		cancel()
		srv.turns.Wait()
		srv.closeAll()
	}()
	lines := make(chan []byte)
	errc := make(chan error, 1)
	go func() { errc <- readLines(ctx, in, lines) }()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case err := <-errc:
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		case line := <-lines:
			if line == nil {
				srv.respond(nil, nil, &Error{CodeBadRequest, fmt.Sprintf("a request line is over %d bytes; it was skipped", MaxLineBytes)})
				continue
			}
			if len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			srv.handle(ctx, line)
		}
	}
}

// readLines sends each line of in to lines, and nil in place of a line over
// MaxLineBytes (which is skipped, so one bad line does not end the server).
// It returns io.EOF at the end of in.
func readLines(ctx context.Context, in io.Reader, lines chan<- []byte) error {
	r := bufio.NewReaderSize(in, 64<<10)
	for {
		var line []byte
		tooLong := false
		for {
			chunk, err := r.ReadSlice('\n')
			if !tooLong {
				line = append(line, chunk...)
				if len(line) > MaxLineBytes+1 {
					tooLong, line = true, nil
				}
			}
			if errors.Is(err, bufio.ErrBufferFull) {
				continue
			}
			if err != nil && (len(line) == 0 && !tooLong || !errors.Is(err, io.EOF)) {
				return err
			}
			break
		}
		if tooLong {
			line = nil
		} else {
			line = bytes.TrimRight(line, "\r\n")
			if line == nil {
				line = []byte{}
			}
		}
		select {
		case lines <- line:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func (srv *Server) handle(ctx context.Context, line []byte) {
	var req Request
	if err := json.Unmarshal(line, &req); err != nil {
		srv.respond(nil, nil, &Error{CodeBadRequest, "the line is not a JSON request: " + err.Error()})
		return
	}
	bad := func(format string, args ...any) {
		srv.respond(req.ID, nil, &Error{CodeBadRequest, fmt.Sprintf(format, args...)})
	}
	switch req.Method {
	case MethodSessionOpen:
		var p SessionOpenParams
		err := strictParams(req.Params, &p)
		if err != nil || (p.Coworker == "") == (p.SessionID == "") {
			bad("%ssession.open needs {\"coworker\": ID} for a new session or {\"session_id\": ID} to resume one", why(err))
			return
		}
		// Opening may start MCP providers, which can take a while: do it off
		// the read loop so other sessions' requests are answered meanwhile.
		srv.turns.Add(1)
		go func() {
			defer srv.turns.Done()
			var s *harness.Session
			var err error
			if p.SessionID != "" {
				s, err = srv.rt.ResumeSession(ctx, p.SessionID)
			} else {
				s, err = srv.rt.NewSession(ctx, p.Coworker)
			}
			if err != nil {
				code := CodeFailed
				switch {
				case errors.Is(err, journal.ErrNotFound):
					code = CodeNotFound
				case errors.Is(err, journal.ErrHeldElsewhere):
					code = CodeBusy
				}
				srv.respond(req.ID, nil, &Error{code, err.Error()})
				return
			}
			srv.mu.Lock()
			if _, open := srv.sessions[s.ID()]; !open { // opening an open session again keeps its state (a running turn)
				srv.sessions[s.ID()] = &session{s: s}
			}
			srv.mu.Unlock()
			srv.respond(req.ID, SessionOpenResult{SessionID: s.ID(), Identity: s.Identity(), Tools: s.Tools()}, nil)
		}()
	case MethodTurnSend:
		var p TurnSendParams
		if err := strictParams(req.Params, &p); err != nil || p.SessionID == "" || p.Text == "" {
			bad("%sturn.send needs {\"session_id\": ID, \"text\": TEXT}", why(err))
			return
		}
		srv.mu.Lock()
		ss, ok := srv.sessions[p.SessionID]
		busy := ok && ss.busy
		if ok && !busy {
			ss.busy = true
		}
		srv.mu.Unlock()
		switch {
		case !ok:
			srv.respond(req.ID, nil, &Error{CodeNotFound, fmt.Sprintf("no open session %q", p.SessionID)})
			return
		case busy:
			srv.respond(req.ID, nil, &Error{CodeBusy, "a turn is already running in this session; wait for it or send turn.cancel"})
			return
		}
		srv.turns.Add(1)
		go func() {
			defer srv.turns.Done()
			res, err := ss.s.Send(ctx, p.Text, func(e harness.Event) { srv.event(e) })
			srv.mu.Lock()
			ss.busy = false
			srv.mu.Unlock()
			if err != nil {
				srv.respond(req.ID, nil, &Error{CodeFailed, err.Error()})
				return
			}
			srv.respond(req.ID, res, nil)
		}()
	case MethodApprovalRespond:
		var p ApprovalRespondParams
		err := strictParams(req.Params, &p)
		if err == nil && p.ApprovalID != "" && !p.Decision.Valid() {
			err = fmt.Errorf("decision %q is not one of the four answers", p.Decision)
		}
		if err != nil || p.ApprovalID == "" {
			bad("%sapproval.respond needs {\"approval_id\": ID, \"decision\": allow_once|allow_session|allow_always|deny}", why(err))
			return
		}
		srv.mu.Lock()
		ch, ok := srv.approvals[p.ApprovalID]
		delete(srv.approvals, p.ApprovalID)
		srv.mu.Unlock()
		if !ok {
			srv.respond(req.ID, nil, &Error{CodeNotFound, fmt.Sprintf("no pending approval %q (answered already, or timed out)", p.ApprovalID)})
			return
		}
		ch <- p.Decision
		srv.respond(req.ID, map[string]string{"approval_id": p.ApprovalID, "decision": string(p.Decision)}, nil)
	case MethodTurnCancel, MethodSessionClose:
		var p SessionParams
		if err := strictParams(req.Params, &p); err != nil || p.SessionID == "" {
			bad("%s%s needs {\"session_id\": ID}", why(err), req.Method)
			return
		}
		srv.mu.Lock()
		ss, ok := srv.sessions[p.SessionID]
		if ok && req.Method == MethodSessionClose {
			delete(srv.sessions, p.SessionID)
		}
		srv.mu.Unlock()
		if !ok {
			srv.respond(req.ID, nil, &Error{CodeNotFound, fmt.Sprintf("no open session %q", p.SessionID)})
			return
		}
		if req.Method == MethodTurnCancel {
			ss.s.Cancel()
			srv.respond(req.ID, map[string]bool{"cancelled": true}, nil)
			return
		}
		// Close waits for a running turn; do it off the read loop.
		srv.turns.Add(1)
		go func() {
			defer srv.turns.Done()
			if err := ss.s.Close(); err != nil {
				srv.respond(req.ID, nil, &Error{CodeFailed, err.Error()})
				return
			}
			srv.respond(req.ID, map[string]bool{"closed": true}, nil)
		}()
	default:
		bad("unknown method %q; use session.open, turn.send, approval.respond, turn.cancel or session.close", req.Method)
	}
}

// Prompt implements consent.Prompter: it sends approval.required and waits
// for approval.respond, or for ctx (the harness's prompt timeout).
func (srv *Server) Prompt(ctx context.Context, r consent.Request) (consent.Decision, error) {
	id := journal.NewID("apr_")
	ch := make(chan consent.Decision, 1)
	srv.mu.Lock()
	srv.approvals[id] = ch
	srv.mu.Unlock()
	srv.write(EventLine{Event: ApprovalEvent{Type: harness.EventApprovalRequired, ApprovalID: id, Request: r}})
	select {
	case d := <-ch:
		return d, nil
	case <-ctx.Done():
		srv.mu.Lock()
		delete(srv.approvals, id)
		srv.mu.Unlock()
		return consent.Deny, ctx.Err()
	}
}

func (srv *Server) event(e harness.Event) {
	if e.Type == harness.EventApprovalRequired {
		return // sent by Prompt with its approval id
	}
	srv.write(EventLine{Event: e})
}

func (srv *Server) respond(id json.RawMessage, result any, err *Error) {
	if id == nil {
		id = json.RawMessage("null")
	}
	srv.write(Response{ID: id, Result: result, Error: err})
}

func (srv *Server) write(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		b, _ = json.Marshal(EventLine{Event: map[string]string{"type": "error", "error": err.Error()}})
	}
	srv.outMu.Lock()
	defer srv.outMu.Unlock()
	srv.out.Write(append(b, '\n'))
}

func (srv *Server) closeAll() {
	srv.mu.Lock()
	all := srv.sessions
	srv.sessions = map[string]*session{}
	srv.mu.Unlock()
	for _, ss := range all {
		ss.s.Close()
	}
}

// why renders a params error as a prefix for the bad_request message.
func why(err error) string {
	if err == nil {
		return ""
	}
	return strings.TrimPrefix(err.Error(), "json: ") + "; "
}

func strictParams(raw json.RawMessage, v any) error {
	if len(raw) == 0 {
		raw = json.RawMessage("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}
