package mcp

import (
	"context"
	"fmt"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openworker/desktop/harness/tool"
)

// MaxLogNotifications bounds the log notifications (notifications/message)
// a server may send while one call of it runs (docs/limits.md): past it
// the call is cancelled with a limit error naming the server, as a flood
// of progress is. Log notifications carry no call's token, so each one
// counts against every call of that server in flight.
const MaxLogNotifications = 1000

// onLog is the SDK's logging handler: the notification's text is not
// kept (the server's stderr is, docs/mcp.md); it is only counted against
// the calls in flight.
func (p *Provider) onLog(context.Context, *sdk.LoggingMessageRequest) {
	p.mu.Lock()
	calls := make([]*callState, 0, len(p.calls))
	for _, st := range p.calls {
		calls = append(calls, st)
	}
	p.mu.Unlock()
	for _, st := range calls {
		st.mu.Lock()
		st.logs++
		if st.logs > MaxLogNotifications && st.err == nil && !st.finished {
			st.err = fmt.Errorf("the server %s sent more than %d log notifications during this call (notifications/message): %w", p.srv.Namespace, MaxLogNotifications, tool.ErrLimit)
			st.cancel(st.err)
		}
		st.mu.Unlock()
	}
}
