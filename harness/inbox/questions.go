package inbox

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/openworker/desktop/harness/elicit"
	"github.com/openworker/desktop/harness/journal"
)

// DefaultQuestionWait is how long an unattended run's question waits for
// an answer before it is declined (docs/inbox.md#missed-questions).
const DefaultQuestionWait = 60 * time.Second

// QuestionAsked is the Asked JSON of a question item: who asks what —
// the fields' names, never values typed.
type QuestionAsked struct {
	Namespace  string   `json:"namespace"`
	ServerName string   `json:"server_name,omitempty"`
	Tool       string   `json:"tool,omitempty"`
	Mode       string   `json:"mode"`
	Message    string   `json:"message"`
	URL        string   `json:"url,omitempty"`
	Fields     []string `json:"fields,omitempty"`
}

// UnattendedQuestions is the elicit.Elicitor of an unattended run
// (docs/inbox.md#missed-questions): a server's question, asked from
// inside a live call, cannot outlive that call, so it becomes a question
// item that waits at most Wait (default DefaultQuestionWait) for an
// answer from anywhere (`openworker inbox answer ID --json
// '{"action":"accept","content":{...}}'`, the window, the stdio
// protocol). Unanswered by then it is declined and the item stays in the
// inbox as expired: a missed question the person sees.
type UnattendedQuestions struct {
	Inbox *Inbox
	Wait  time.Duration
}

// Elicit implements elicit.Elicitor.
func (u *UnattendedQuestions) Elicit(ctx context.Context, q elicit.Question) (elicit.Answer, error) {
	declined := elicit.Answer{Action: elicit.Decline}
	coworker := q.Namespace
	if s, err := u.Inbox.Journal().Session(ctx, q.SessionID); err == nil {
		coworker = s.Coworker
	}
	a := QuestionAsked{Namespace: q.Namespace, ServerName: q.ServerName, Tool: q.Tool, Mode: q.Mode, Message: q.Message, URL: q.URL}
	for _, f := range q.Fields {
		a.Fields = append(a.Fields, f.Name)
	}
	asked, err := json.Marshal(a)
	if err != nil {
		return declined, err
	}
	wait := u.Wait
	if wait <= 0 {
		wait = DefaultQuestionWait
	}
	wctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	dl, _ := wctx.Deadline()
	it, err := u.Inbox.Add(ctx, journal.InboxItem{Kind: journal.InboxQuestion, Coworker: coworker, SessionID: q.SessionID, TurnID: q.TurnID,
		CallID: q.CallID, Tool: q.Tool, Asked: asked, Deadline: dl})
	if err != nil {
		return declined, fmt.Errorf("the question could not be put in the inbox, so it is declined: %w", err)
	}
	got, err := u.Inbox.Wait(wctx, it.ID)
	if err != nil || got.Status != journal.InboxAnswered {
		return declined, nil // missed: the item stays, expired
	}
	var ans elicit.Answer
	if json.Unmarshal(got.Answer, &ans) != nil || ans.Action == "" {
		ans = elicit.Answer{Action: elicit.Accept}
		_ = json.Unmarshal(got.Answer, &ans.Content)
	}
	if _, err := u.Inbox.Journal().ConsumeInboxItem(context.WithoutCancel(ctx), it.ID); err != nil {
		return declined, err
	}
	return ans, nil
}
