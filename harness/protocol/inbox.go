package protocol

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/openworker/desktop/harness/inbox"
	"github.com/openworker/desktop/harness/journal"
)

// The inbox over the protocol (docs/stdio-protocol.md#inbox): inbox.list
// reads the journal's open items — those of this server's sessions and of
// any other process on the same journal, parked runs included — and
// inbox.answer answers one by the same compare-and-set as every answer
// (docs/inbox.md).

// Methods of the inbox.
const (
	MethodInboxList   = "inbox.list"
	MethodInboxAnswer = "inbox.answer"
)

// InboxListParams are the params of inbox.list; all optional.
type InboxListParams struct {
	SessionID string `json:"session_id,omitempty"`
	All       bool   `json:"all,omitempty"` // every status, not only open items
}

// InboxAnswerParams are the params of inbox.answer: the item's ID and its
// answer (an approval's is a decision string, docs/inbox.md#item).
type InboxAnswerParams struct {
	ItemID string          `json:"item_id"`
	Answer json.RawMessage `json:"answer"`
}

func (srv *Server) box() *inbox.Inbox {
	srv.mu.Lock()
	defer srv.mu.Unlock()
	return srv.inbox
}

func (srv *Server) inboxList(ctx context.Context, req Request) {
	var p InboxListParams
	if len(req.Params) > 0 && string(req.Params) != "null" {
		if err := strictParams(req.Params, &p); err != nil {
			srv.bad(req, "%sinbox.list takes {\"session_id\"?: ID, \"all\"?: true}", why(err))
			return
		}
	}
	f := journal.InboxFilter{SessionID: p.SessionID}
	if p.All {
		f.Statuses = []journal.InboxStatus{journal.InboxOpen, journal.InboxAnswered, journal.InboxConsumed, journal.InboxCancelled, journal.InboxExpired}
	}
	j := srv.box().Journal()
	if j == nil { // a runtime without a journal (found by FuzzServe)
		srv.respond(req.ID, nil, &Error{CodeFailed, inbox.ErrNoJournal.Error()})
		return
	}
	items, err := j.Inbox(ctx, f)
	if err != nil {
		srv.respond(req.ID, nil, &Error{CodeFailed, err.Error()})
		return
	}
	if items == nil {
		items = []journal.InboxItem{}
	}
	srv.respond(req.ID, map[string]any{"items": items}, nil)
}

func (srv *Server) inboxAnswer(req Request) {
	var p InboxAnswerParams
	err := strictParams(req.Params, &p)
	if err != nil || p.ItemID == "" || len(p.Answer) == 0 {
		srv.bad(req, "%sinbox.answer needs {\"item_id\": ID, \"answer\": ANSWER}", why(err))
		return
	}
	it, err := srv.box().Answer(context.Background(), p.ItemID, p.Answer, "stdio")
	var ae *journal.AnsweredError
	switch {
	case errors.Is(err, journal.ErrNotFound):
		srv.respond(req.ID, nil, &Error{CodeNotFound, fmt.Sprintf("no inbox item %q", p.ItemID)})
	case errors.As(err, &ae):
		srv.respond(req.ID, nil, &Error{CodeNotFound, err.Error()})
	case err != nil:
		srv.bad(req, "%v", err)
	default:
		srv.respond(req.ID, map[string]any{"item": it}, nil)
	}
}
