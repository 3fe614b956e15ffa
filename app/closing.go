package app

import "fmt"

// closeQuestion is what the window asks before it closes (Wails'
// OnBeforeClose, run.go): "" when closing loses nothing; else a question
// naming the tool calls waiting for the person's answer (closing denies
// them) and the turns still running (closing cancels them; a write call
// in flight may end "unknown", docs/journal.md).
func (a *desktop) closeQuestion() string {
	pend, _ := a.Asks.PendingApprovals()
	waiting := len(pend)
	running := 0
	if rt := a.engine.runtime(); rt != nil {
		for _, s := range rt.Sessions() {
			if s.Running() {
				running++
			}
		}
	}
	switch {
	case waiting > 0 && running > 0:
		return fmt.Sprintf("%s your answer and %s still running. Quitting denies the calls and stops the chats. Quit anyway?",
			plural(waiting, "tool call waits for", "tool calls wait for"), plural(running, "chat is", "chats are"))
	case waiting > 0:
		return fmt.Sprintf("%s your answer. Quitting denies it and stops its chat. Quit anyway?", plural(waiting, "tool call waits for", "tool calls wait for"))
	case running > 0:
		return fmt.Sprintf("%s still running. Quitting stops it; a call in progress may end with an unknown outcome. Quit anyway?", plural(running, "chat is", "chats are"))
	}
	return ""
}
