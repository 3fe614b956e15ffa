package app

import "github.com/openworker/desktop/harness/consent"

// ChatGrants lists an open chat's "allow for this session" answers (and
// the grants "always allow" gave it), by tool: what the chat header shows
// (docs/consent.md#grants-in-a-chat). Errors are for an unknown chat.
func (a *App) ChatGrants(sessionID string) ([]consent.Grant, error) {
	s, err := a.chat(sessionID)
	if err != nil {
		return nil, err
	}
	return s.Grants(), nil
}

// RevokeChatGrant takes back a chat's grant of one tool (qualified name):
// its next call in this chat asks again. A tool with no grant is a no-op;
// errors are for an unknown chat.
func (a *App) RevokeChatGrant(sessionID, tool string) error {
	s, err := a.chat(sessionID)
	if err != nil {
		return err
	}
	s.RevokeGrant(tool)
	a.log.Info("grant revoked", "session", sessionID, "tool", tool)
	return nil
}

// revokeOpenGrants drops the grants of tool in every open chat with the
// coworker, after its saved answer was taken back: "Revoke" means the next
// call asks, in this window too.
func (a *App) revokeOpenGrants(coworker, tool string) {
	a.mu.Lock()
	rt := a.rt
	a.mu.Unlock()
	if rt == nil {
		return
	}
	for _, s := range rt.Sessions() {
		if s.Coworker() == coworker {
			s.RevokeGrant(tool)
		}
	}
}
