package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/openworker/desktop/harness/consent"
)

// maxSampledShown bounds the text of a sampling prompt on the terminal;
// longer messages are cut with a note (the journal keeps them whole).
const maxSampledShown = 8 << 10

// promptSampling asks on the terminal whether an MCP server's sampling
// request may be sent to the session's model (docs/consent.md#sampling):
// the messages, the system prompt, the token cap and the model, then
// [o] send once or [d] deny. Nothing else is offered: every request is
// asked for. p.readMu is held.
func (p *terminalPrompter) promptSampling(ctx context.Context, r consent.Request) (consent.Decision, error) {
	sr := r.Sampling
	var b strings.Builder
	fmt.Fprintf(&b, "\n%s (%s) asks your model for a completion during %s (%s, request %d of the call)\n",
		sr.Namespace, oneLine(nonEmpty(sr.ServerName, r.Provider), 100), r.Tool, nonEmpty(r.CoworkerName, r.Coworker), sr.Seq)
	fmt.Fprintf(&b, "  model: %s\n  max tokens: %d", sr.Model, sr.MaxTokens)
	if sr.AskedMaxTokens != int64(sr.MaxTokens) {
		fmt.Fprintf(&b, " (the server asked for %d)", sr.AskedMaxTokens)
	}
	b.WriteString("\n")
	shown := 0
	show := func(label, text string) {
		if shown >= maxSampledShown {
			return
		}
		text, more := cutBytes(text, maxSampledShown-shown)
		if more > 0 {
			text += fmt.Sprintf("… (%d more bytes not shown)", more)
		}
		shown += len(text)
		fmt.Fprintf(&b, "  %s:\n", oneLine(label, 40))
		for _, line := range strings.Split(text, "\n") {
			// The server's text: escape codes, carriage returns and
			// bidi controls are shown as \uXXXX escapes, so it cannot
			// redraw the prompt or hide what is sent.
			fmt.Fprintf(&b, "  | %s\n", oneLine(line, len(line)+1))
		}
	}
	if sr.SystemPrompt != "" {
		show("system prompt", sr.SystemPrompt)
	}
	for _, m := range sr.Messages {
		show(m.Role, m.Text)
	}
	if shown >= maxSampledShown {
		b.WriteString("  (cut here; the whole request is in the journal)\n")
	}
	p.lock.Lock()
	fmt.Fprint(p.out, b.String())
	p.lock.Unlock()
	return p.choose(ctx, "  [o] send once  [d] deny: ", "  please answer o or d\n",
		"the terminal closed before an answer; the sampling request is refused", map[string]consent.Decision{
			"o": consent.AllowOnce, "once": consent.AllowOnce, "y": consent.AllowOnce, "yes": consent.AllowOnce,
			"d": consent.Deny, "deny": consent.Deny, "n": consent.Deny, "no": consent.Deny,
		})
}
