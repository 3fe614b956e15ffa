package app

import "github.com/openworker/desktop/harness/consent"

// ChatGrants lists an open chat's "allow for this session" answers (and
// the grants "always allow" gave it), by tool: what the chat header shows
// (docs/consent.md#grants-in-a-chat). Errors are for an unknown chat.
func (c *Chats) ChatGrants(sessionID string) ([]consent.Grant, error) {
	s, err := c.engine.chat(sessionID)
	if err != nil {
		return nil, err
	}
	return s.Grants(), nil
}

// RevokeChatGrant takes back a chat's grant of one tool (qualified name):
// its next call in this chat asks again. A tool with no grant is a no-op;
// errors are for an unknown chat.
func (c *Chats) RevokeChatGrant(sessionID, tool string) error {
	s, err := c.engine.chat(sessionID)
	if err != nil {
		return err
	}
	s.RevokeGrant(tool)
	c.log.Info("grant revoked", "session", sessionID, "tool", tool)
	return nil
}
