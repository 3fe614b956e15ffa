package protocol

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/openworker/desktop/internal/termsafe"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/inbox"
	"github.com/openworker/desktop/harness/journal"
)

// Server speaks the protocol over one reader and writer. Create it with
// NewServer, then call Serve; it is the Prompter of the sessions it opens.
// Open sessions live in the runtime (Runtime.Session), and a turn.send while
// a turn runs is refused by the session's one busy rule (Session.Reserve).
type Server struct {
	outMu sync.Mutex
	out   io.Writer

	mu        sync.Mutex
	rt        *harness.Runtime
	so        harness.SessionOptions
	inbox     *inbox.Inbox                // approvals asked and answered (docs/inbox.md); set by Serve
	questions map[string]*pendingQuestion // open elicitation.required by question ID: their inbox items (elicit.go)
	signIn    signIns                     // open signin.required (signin.go)
	turns     sync.WaitGroup

	// SignInTimeout bounds the wait for a signin.respond; 0 is
	// oauth.DefaultSignInTimeout. Set it before Serve.
	SignInTimeout time.Duration
}

// NewServer returns a server writing lines to out.
func NewServer(out io.Writer) *Server {
	return &Server{out: out}
}

// Serve reads requests from in until it ends or ctx is done, then cancels
// running turns, waits for them, and closes every open session of rt.
// Sessions are opened and resumed with so; a nil so.Prompter is the server
// itself (approval.required events).
func (srv *Server) Serve(ctx context.Context, rt *harness.Runtime, so harness.SessionOptions, in io.Reader) error {
	if so.Prompter == nil {
		so.Prompter = srv
	}
	if so.Elicitor == nil {
		so.Elicitor = srv
	}
	if so.Budget == nil {
		so.Budget = srv // budget pauses wait for inbox.answer (budget.go)
	}
	srv.mu.Lock()
	srv.rt, srv.so = rt, so
	srv.inbox = inbox.New(rt.Journal(), nil)
	srv.mu.Unlock()
	ending := srv.signIn.serving(ctx)
	ctx, cancel := context.WithCancel(ctx)
	defer func() {
		close(ending) // before cancel: a sign-in cut short says "closing"
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

// handle answers one request line; each method has its own function.
func (srv *Server) handle(ctx context.Context, line []byte) {
	var req Request
	if err := json.Unmarshal(line, &req); err != nil {
		srv.respond(nil, nil, &Error{CodeBadRequest, "the line is not a JSON request: " + err.Error()})
		return
	}
	switch req.Method {
	case MethodSessionOpen:
		srv.sessionOpen(ctx, req)
	case MethodTurnSend:
		srv.turnSend(ctx, req)
	case MethodApprovalRespond:
		srv.approvalRespond(req)
	case MethodElicitationRespond:
		srv.elicitationRespond(req)
	case MethodSignInRespond:
		srv.signInRespond(ctx, req)
	case MethodTurnCancel:
		srv.turnCancel(req)
	case MethodSessionClose:
		srv.sessionClose(req)
	case MethodPromptsList:
		srv.promptsList(ctx, req)
	case MethodPromptsGet:
		srv.promptsGet(ctx, req)
	case MethodUIResourceRead:
		srv.uiResourceRead(ctx, req)
	case MethodViewCall:
		srv.viewCall(ctx, req)
	case MethodInboxList:
		srv.inboxList(ctx, req)
	case MethodInboxAnswer:
		srv.inboxAnswer(req)
	default:
		srv.bad(req, "unknown method %q; use session.open, turn.send, approval.respond, elicitation.respond, signin.respond, turn.cancel, session.close, prompts.list, prompts.get, ui_resource.read, view.call, inbox.list or inbox.answer", req.Method)
	}
}

func (srv *Server) bad(req Request, format string, args ...any) {
	srv.respond(req.ID, nil, &Error{CodeBadRequest, fmt.Sprintf(format, args...)})
}

// background runs f off the read loop (opening may start MCP providers,
// closing waits for a turn), so other requests are answered meanwhile.
func (srv *Server) background(f func()) {
	srv.turns.Add(1)
	go func() {
		defer srv.turns.Done()
		f()
	}()
}

func (srv *Server) sessionOpen(ctx context.Context, req Request) {
	var p SessionOpenParams
	err := strictParams(req.Params, &p)
	if err != nil || (p.Coworker == "") == (p.SessionID == "") {
		srv.bad(req, "%ssession.open needs {\"coworker\": ID} for a new session or {\"session_id\": ID} to resume one", why(err))
		return
	}
	srv.background(func() {
		var s *harness.Session
		var err error
		if p.SessionID != "" {
			// Opening an open session again returns it as it is (a running turn too).
			s, err = srv.rt.ResumeSession(withSession(ctx, p.SessionID), p.SessionID, srv.so)
		} else {
			s, err = srv.rt.NewSession(ctx, p.Coworker, srv.so)
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
		srv.respond(req.ID, SessionOpenResult{SessionID: s.ID(), Identity: s.Identity(), Tools: s.Tools()}, nil)
	})
}

// session returns the open session a request names, or answers not_found.
func (srv *Server) session(req Request, id string) (*harness.Session, bool) {
	s, ok := srv.rt.Session(id)
	if !ok {
		srv.respond(req.ID, nil, &Error{CodeNotFound, fmt.Sprintf("no open session %q", id)})
	}
	return s, ok
}

func (srv *Server) turnSend(ctx context.Context, req Request) {
	var p TurnSendParams
	if err := strictParams(req.Params, &p); err != nil || p.SessionID == "" || p.Text == "" {
		srv.bad(req, "%sturn.send needs {\"session_id\": ID, \"text\": TEXT}", why(err))
		return
	}
	s, ok := srv.session(req, p.SessionID)
	if !ok {
		return
	}
	// The slot is taken here, in request order, so of two turn.send lines
	// the second is the one answered busy.
	r, err := s.Reserve()
	switch {
	case errors.Is(err, harness.ErrTurnRunning):
		srv.respond(req.ID, nil, &Error{CodeBusy, "a turn is already running in this session; wait for it or send turn.cancel"})
		return
	case err != nil:
		srv.respond(req.ID, nil, &Error{CodeNotFound, fmt.Sprintf("no open session %q: %v", p.SessionID, err)})
		return
	}
	srv.background(func() {
		res, err := r.Send(withSession(ctx, p.SessionID), p.Text, func(e harness.Event) { srv.event(e) })
		if err != nil {
			srv.respond(req.ID, nil, &Error{CodeFailed, err.Error()})
			return
		}
		srv.respond(req.ID, res, nil)
	})
}

// decisionNames are consent.Decisions as the protocol writes them.
var decisionNames = func() []string {
	var out []string
	for _, d := range consent.Decisions() {
		out = append(out, string(d))
	}
	return out
}()

func (srv *Server) approvalRespond(req Request) {
	var p ApprovalRespondParams
	err := strictParams(req.Params, &p)
	if err == nil && p.ApprovalID != "" && !p.Decision.Valid() {
		err = fmt.Errorf("decision %q is not one of the five answers", p.Decision)
	}
	if err != nil || p.ApprovalID == "" {
		srv.bad(req, "%sapproval.respond needs {\"approval_id\": ID, \"decision\": %s}", why(err), strings.Join(decisionNames, "|"))
		return
	}
	srv.mu.Lock()
	box := srv.inbox
	srv.mu.Unlock()
	// The answer is a compare-and-set on the approval's inbox item: the
	// first answer wins, from here, another client or another process
	// (docs/inbox.md).
	it, err := box.Item(context.Background(), p.ApprovalID)
	if err == nil && it.Kind != journal.InboxApproval {
		err = fmt.Errorf("%s is a %s, not an approval", p.ApprovalID, it.Kind)
	}
	if err == nil {
		_, err = box.AnswerDecision(context.Background(), p.ApprovalID, p.Decision, "stdio")
	}
	if err != nil {
		msg := fmt.Sprintf("no pending approval %q: %v", p.ApprovalID, err)
		if errors.Is(err, journal.ErrNotFound) {
			msg = fmt.Sprintf("no pending approval %q (no such approval in the inbox)", p.ApprovalID)
		}
		srv.respond(req.ID, nil, &Error{CodeNotFound, msg})
		return
	}
	srv.respond(req.ID, map[string]string{"approval_id": p.ApprovalID, "decision": string(p.Decision)}, nil)
}

// sessionParams reads the params of turn.cancel and session.close.
func (srv *Server) sessionParams(req Request) (*harness.Session, bool) {
	var p SessionParams
	if err := strictParams(req.Params, &p); err != nil || p.SessionID == "" {
		srv.bad(req, "%s%s needs {\"session_id\": ID}", why(err), req.Method)
		return nil, false
	}
	return srv.session(req, p.SessionID)
}

func (srv *Server) turnCancel(req Request) {
	if s, ok := srv.sessionParams(req); ok {
		s.Cancel()
		srv.respond(req.ID, map[string]bool{"cancelled": true}, nil)
	}
}

func (srv *Server) sessionClose(req Request) {
	s, ok := srv.sessionParams(req)
	if !ok {
		return
	}
	errc := s.CloseAsync() // begun here, in request order: a session.open read next waits for it
	srv.background(func() {
		if err := <-errc; err != nil {
			srv.respond(req.ID, nil, &Error{CodeFailed, err.Error()})
			return
		}
		srv.respond(req.ID, map[string]bool{"closed": true}, nil)
	})
}

// Prompt implements consent.Prompter through the inbox: the approval is
// an inbox item (written before anyone is asked), approval.required
// carries the item's ID, and the first answer to the item wins —
// approval.respond here, or any other answer to the same journal
// (`openworker inbox answer`). When ctx ends (the harness's prompt
// timeout) the item is withdrawn, unless an answer came first.
func (srv *Server) Prompt(ctx context.Context, r consent.Request) (consent.Decision, error) {
	srv.mu.Lock()
	box := srv.inbox
	srv.mu.Unlock()
	p := &inbox.Prompter{Inbox: box, Show: func(it journal.InboxItem, r consent.Request) {
		srv.write(EventLine{Event: ApprovalEvent{Type: harness.EventApprovalRequired, ApprovalID: it.ID, Request: r}})
	}}
	return p.Prompt(ctx, r)
}

func (srv *Server) event(e harness.Event) {
	if e.Type == harness.EventApprovalRequired || e.Type == harness.EventElicitationRequired {
		return // sent by Prompt and Elicit with their ids
	}
	srv.write(EventLine{Event: e})
}

func (srv *Server) respond(id json.RawMessage, result any, err *Error) {
	if id == nil {
		id = json.RawMessage("null")
	}
	if err != nil { // the one human-readable part: a client may print it as is (docs/stdio-protocol.md)
		e := *err
		e.Message = termsafe.Line(e.Message)
		err = &e
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
	for _, s := range srv.rt.Sessions() {
		s.Close()
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
