package servers

import (
	"fmt"

	"github.com/openworker/desktop/harness/internal/jsonfile"
	"github.com/openworker/desktop/harness/tool"
)

// a2aCard returns the field that holds an entry's URL: for transport
// "a2a" (docs/a2a.md#servers-json) its "card", the URL of the agent card,
// read and checked like a streamable HTTP server's "url" (https://
// anywhere, http:// only on this computer, headers beside it); for any
// other transport urlField, unchanged. "card" belongs to a2a entries
// only, and "url" is not one of theirs.
func (rd *reader) a2aCard(f *jsonfile.Field, nodes map[string]*jsonfile.Field, transport string, urlField *jsonfile.Field) (*jsonfile.Field, error) {
	card := nodes["card"]
	if transport != tool.TransportA2A {
		if card != nil {
			return nil, card.Err(rd.path, fmt.Sprintf("server %q has \"card\", which belongs to A2A agents; its transport is %s", f.Key, transport),
				`remove "card", or set "transport": "a2a" for an A2A agent`)
		}
		return urlField, nil
	}
	if urlField != nil {
		return nil, urlField.Err(rd.path, fmt.Sprintf("server %q is an A2A agent, which is reached through its agent card, not a %q", f.Key, urlField.Key),
			fmt.Sprintf(`write "card": "https://HOST/.well-known/agent-card.json" instead of %q (the card names the endpoint)`, urlField.Key))
	}
	return card, nil
}

// a2aFix is the fix for an A2A entry without "card" that names its
// endpoint with "url" instead; "" otherwise.
func a2aFix(transport string, nodes map[string]*jsonfile.Field) string {
	if transport != tool.TransportA2A || nodes["url"] == nil {
		return ""
	}
	return `an A2A agent is reached through its agent card: write "card": "https://HOST/.well-known/agent-card.json" instead of "url" (the card names the endpoint)`
}
