package app

import "github.com/openworker/desktop/harness/consent"

// Asks are the answers the person gives to what waits on them: consent
// prompts (docs/consent.md), servers' questions (docs/app.md#questions)
// and sign-ins (docs/app.md#sign-in). Each kind is asked by its own part
// (modalPrompter, appElicitor, signIns), which holds the questions
// waiting under its own lock; Asks only answers and lists them, for a
// window that reloads.
type Asks struct {
	prompter *modalPrompter
	elicitor *appElicitor
	signIns  *signIns
	engine   *engine
}

// RespondApproval answers a consent prompt: decision is "allow_once",
// "allow_session", "allow_always" or "deny" (docs/consent.md).
func (q *Asks) RespondApproval(id, decision string) error {
	return q.prompter.Respond(id, consent.Decision(decision))
}

// PendingApprovals lists the prompts waiting now (for a UI that reloads).
func (q *Asks) PendingApprovals() ([]PendingApproval, error) {
	return q.prompter.Pending(func(id string) bool { _, err := q.engine.chat(id); return err == nil })
}

// AnswerElicitation answers a server's question shown in the dialog:
// action "accept" with content (values by field name), "decline" or
// "cancel". An accept that does not fit the form is refused with the
// problem (which fields and why) and the question stays open.
func (q *Asks) AnswerElicitation(id, action string, content map[string]any) error {
	return q.elicitor.Answer(id, action, content)
}

// PendingElicitations lists the questions waiting now, oldest first (for a
// UI that reloads).
func (q *Asks) PendingElicitations() ([]PendingElicitation, error) {
	return q.elicitor.Pending(), nil
}

// AnswerSignIn answers the SignInRequest id: true when the person chose
// Sign in (the UI has opened the page), false for Cancel. An id that is
// no longer pending is an error saying so.
func (q *Asks) AnswerSignIn(id string, signIn bool) error {
	return q.signIns.answer(id, signIn)
}
