package app

import (
	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/journal"
)

// The sidebar's chat list: every journaled session, newest first, with its
// title (docs/app.md#chats, docs/journal.md#chat-titles). The journal does
// the work; these methods only open it and say what changed.

// chatsPageSize is how many chats one page of the sidebar holds.
const chatsPageSize = 50

// Chats returns one page of the chat list: up to 50 sessions, newest
// first, after the page whose Next is before ("" for the first page),
// each with its title, coworker, times, status and calls waiting for
// reconciliation. Chats hidden from the list are left out unless
// showHidden.
func (c *Chats) Chats(before string, showHidden bool) (journal.SessionPage, error) {
	j, err := c.engine.openJournal()
	if err != nil {
		return journal.SessionPage{}, err
	}
	p, err := j.SessionPage(c.base, journal.SessionQuery{Limit: chatsPageSize, Before: before, Visible: !showHidden})
	noteChatsLoaded() // e2e builds only (e2e_hook.go)
	return p, j.Explain(err)
}

// SearchChats returns the chats whose titles or messages hold every word
// of text (from a word's start, any case; punctuation only separates
// words), newest first, at most 50; hidden chats only with showHidden.
func (c *Chats) SearchChats(text string, showHidden bool) ([]journal.Session, error) {
	j, err := c.engine.openJournal()
	if err != nil {
		return nil, err
	}
	found, err := j.Search(c.base, journal.SearchQuery{Text: text, IncludeHidden: showHidden})
	noteSearch(text, found) // e2e builds only (e2e_hook.go)
	return found, err
}

// RenameChat journals a title the person gave the chat (on one line, 1 to
// 80 characters; the newest title wins) and returns the chat as listed.
func (c *Chats) RenameChat(sessionID, title string) (journal.Session, error) {
	j, err := c.engine.openJournal()
	if err != nil {
		return journal.Session{}, err
	}
	if err := j.SetTitle(c.base, sessionID, title, ""); err != nil {
		return journal.Session{}, j.Explain(err)
	}
	return c.chatChanged(sessionID), nil
}

// HideChat hides the chat from the list (hidden true; the sidebar's
// delete) or shows it again (false, its undo). Nothing of it is deleted:
// Activity still lists it, and it can be continued. Returns the chat as
// listed.
func (c *Chats) HideChat(sessionID string, hidden bool) (journal.Session, error) {
	j, err := c.engine.openJournal()
	if err != nil {
		return journal.Session{}, err
	}
	if err := j.HideSession(c.base, sessionID, hidden, ""); err != nil {
		return journal.Session{}, j.Explain(err)
	}
	return c.chatChanged(sessionID), nil
}

// chatChanged reads the chat as listed and sends it as EventChatChanged;
// it returns it (zero when it cannot be read: the journal's own error is
// shown elsewhere).
func (c *Chats) chatChanged(sessionID string) journal.Session {
	j, err := c.engine.openJournal()
	if err != nil {
		return journal.Session{}
	}
	s, err := j.ListedSession(c.base, sessionID)
	if err != nil {
		c.log.Warn("chat list", "session", sessionID, "err", err)
		return journal.Session{}
	}
	c.emit.Emit(EventChatChanged, s)
	return s
}

// chatEventChanges is whether a harness event changes how the chat is
// listed: a turn starting (the first one gives the chat its title) or
// ending (its last activity, its calls waiting).
func chatEventChanges(e harness.Event) bool {
	return e.Type == harness.EventTurnStarted || e.Type == harness.EventTurnFinished
}
