package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/openworker/desktop/harness/inbox"
	"github.com/openworker/desktop/harness/journal"
	"github.com/spf13/cobra"
)

// inboxCommand is "openworker inbox" with list, show and answer
// (docs/cli.md#inbox, docs/inbox.md).
func (c *config) inboxCommand() *cobra.Command {
	f := &journalFlags{c: c}
	cmd := &cobra.Command{
		Use:   "inbox",
		Short: "list, show and answer what waits on you (approvals, questions, sign-ins, budgets)",
		Args:  cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageErr("unknown inbox command %q; use list, show or answer", args[0])
			}
			return usageErr("inbox needs a command: list, show or answer")
		},
	}
	cmd.PersistentFlags().StringVar(&f.db, "db", "", "journal file (default: the app's journal)")
	cmd.AddCommand(c.inboxListCommand(f), c.inboxShowCommand(f), c.inboxAnswerCommand(f))
	return cmd
}

// inboxListCommand is "openworker inbox list".
func (c *config) inboxListCommand(f *journalFlags) *cobra.Command {
	var all bool
	list := &cobra.Command{
		Use:   "list [--all] [--json]",
		Short: "list the open items, oldest first (--all: every item)",
		Args:  cobra.NoArgs,
		RunE: f.withJournal(func(cmd *cobra.Command, _ []string, j *journal.Journal) error {
			return c.inboxList(cmd.Context(), j, all, f.asJSON)
		}),
	}
	list.Flags().BoolVar(&all, "all", false, "every item, answered and withdrawn ones too")
	list.Flags().BoolVar(&f.asJSON, "json", false, "print JSON")
	return list
}

// inboxList prints the open items of j, or with all every item, one a
// line or as JSON.
func (c *config) inboxList(ctx context.Context, j *journal.Journal, all, asJSON bool) error {
	filter := journal.InboxFilter{}
	if all {
		filter.Statuses = []journal.InboxStatus{journal.InboxOpen, journal.InboxAnswered, journal.InboxConsumed,
			journal.InboxCancelled, journal.InboxExpired}
	}
	items, err := j.Inbox(ctx, filter)
	if err != nil {
		return err
	}
	if asJSON {
		if items == nil {
			items = []journal.InboxItem{}
		}
		return writeJSON(c.stdout, items)
	}
	if len(items) == 0 {
		fmt.Fprintf(c.stderr, "nothing waits on you in %s\n", j.Path())
		return nil
	}
	for _, it := range items {
		fmt.Fprintf(c.stdout, "%s  %-9s  %-9s  %s  %s  %s\n", it.ID, it.Kind, it.Status, it.CreatedAt.Local().Format(time.DateTime),
			line(it.Coworker), oneLine(waitsFor(it), 100))
	}
	return nil
}

// inboxShowCommand is "openworker inbox show".
func (c *config) inboxShowCommand(f *journalFlags) *cobra.Command {
	show := &cobra.Command{
		Use:   "show ID [--json]",
		Short: "show one item: what it asks, and its answer if it has one",
		Args:  cobra.ExactArgs(1),
		RunE: f.withJournal(func(cmd *cobra.Command, args []string, j *journal.Journal) error {
			it, err := inboxItem(cmd.Context(), j, args[0])
			if err != nil {
				return err
			}
			if f.asJSON {
				return writeJSON(c.stdout, it)
			}
			printInboxItem(c.stdout, it)
			return nil
		}),
	}
	show.Flags().BoolVar(&f.asJSON, "json", false, "print JSON")
	return show
}

// inboxItem is the item id of j; a missing one is a usage error.
func inboxItem(ctx context.Context, j *journal.Journal, id string) (journal.InboxItem, error) {
	it, err := j.InboxItem(ctx, id)
	if errors.Is(err, journal.ErrNotFound) {
		return it, usageErr("no inbox item %q in %s (openworker inbox list shows the open ones)", id, j.Path())
	}
	return it, err
}

// inboxAnswerCommand is "openworker inbox answer".
func (c *config) inboxAnswerCommand(f *journalFlags) *cobra.Command {
	var answerJSON, by string
	answer := &cobra.Command{
		Use:   "answer ID allow|allow-session|allow-always|deny | answer ID continue|stop | answer ID applied|not-applied | answer ID --json ANSWER",
		Short: "answer an open item; the first answer wins, a later one is told it was already answered",
		Args:  cobra.RangeArgs(1, 2),
		RunE: f.withJournal(func(cmd *cobra.Command, args []string, j *journal.Journal) error {
			it, err := inboxItem(cmd.Context(), j, args[0])
			if err != nil {
				return err
			}
			raw, err := inboxAnswerOf(it, args[1:], answerJSON)
			if err != nil {
				return err
			}
			return c.inboxAnswer(cmd.Context(), j, it, raw, by)
		}),
	}
	answer.Flags().StringVar(&answerJSON, "json", "", "the answer as JSON (a question's or a sign-in's answer object)")
	answer.Flags().StringVar(&by, "by", "cli: inbox answer", "who answers, as journaled")
	return answer
}

// inboxAnswerOf is the answer to it given as a word (words, at most one)
// or as JSON (answerJSON), checked against the item's kind.
func inboxAnswerOf(it journal.InboxItem, words []string, answerJSON string) (json.RawMessage, error) {
	var raw json.RawMessage
	switch {
	case answerJSON != "" && len(words) == 1:
		return nil, usageErr("give the answer as a word or with --json, not both")
	case answerJSON != "":
		raw = json.RawMessage(answerJSON)
	case len(words) == 1:
		w, ok := answerWords[strings.ToLower(words[0])]
		if !ok {
			return nil, usageErr("answer %q: use allow, allow-session, allow-always or deny (approvals), continue or stop (budgets), applied or not-applied (reconciliations), or --json ANSWER", words[0])
		}
		raw, _ = json.Marshal(w)
	default:
		return nil, usageErr("inbox answer needs an answer: %s", answerHint(it.Kind))
	}
	if err := inbox.CheckAnswer(it.Kind, raw); err != nil {
		return nil, usageErr("inbox item %s is %s: %v; %s", it.ID, withArticle(string(it.Kind)), err, answerExample(it))
	}
	return raw, nil
}

// withArticle is "an approval", "a question".
func withArticle(word string) string {
	if word != "" && strings.ContainsRune("aeiou", rune(word[0])) {
		return "an " + word
	}
	return "a " + word
}

// answerExample says what answer the item takes, with an example to copy:
// for a question, its fields by name.
func answerExample(it journal.InboxItem) string {
	switch it.Kind {
	case journal.InboxApproval:
		return fmt.Sprintf(`answer with a word, e.g. openworker inbox answer %s allow (or --json '"allow_once"')`, it.ID)
	case journal.InboxBudget:
		return fmt.Sprintf(`answer with a word, e.g. openworker inbox answer %s continue (or --json '"continue"')`, it.ID)
	case journal.InboxReconcile:
		return fmt.Sprintf(`answer with a word, e.g. openworker inbox answer %s applied (or --json '"applied"')`, it.ID)
	case journal.InboxSignIn:
		return fmt.Sprintf(`the answer is {"action": "opened"|"open"|"decline"}, e.g. openworker inbox answer %s --json '{"action":"opened"}'`, it.ID)
	case journal.InboxQuestion:
		var asked inbox.QuestionAsked
		_ = json.Unmarshal(it.Asked, &asked)
		content := map[string]string{}
		for _, f := range asked.Fields {
			content[f] = "…"
		}
		example, _ := json.Marshal(map[string]any{"action": "accept", "content": content})
		fields := "it asks for no fields"
		if len(asked.Fields) > 0 {
			fields = "its fields: " + strings.Join(asked.Fields, ", ")
		}
		return fmt.Sprintf(`the answer is {"action": "accept"|"decline"|"cancel", "content": {field: value, ...}} (%s), e.g. openworker inbox answer %s --json '%s', or --json '{"action":"decline"}'`, fields, it.ID, example)
	}
	return "answer with " + answerHint(it.Kind)
}

// inboxAnswer journals raw as by's answer to it and says how a parked
// run goes on; a lost race to answer is a failure exit.
func (c *config) inboxAnswer(ctx context.Context, j *journal.Journal, it journal.InboxItem, raw json.RawMessage, by string) error {
	got, err := inbox.New(j, nil).Answer(ctx, it.ID, raw, by)
	if errors.Is(err, journal.ErrAlreadyAnswered) {
		return &exitError{ExitFailure, err}
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(c.stdout, "answered %s: %s\n", got.ID, got.Answer)
	if got.Kind == journal.InboxApproval && got.SessionID != "" {
		fmt.Fprintf(c.stderr, "a run parked on it continues with: openworker resume %s (the app and a waiting terminal take it at once)\n", got.SessionID)
	}
	return nil
}

// answerWords are the words inbox answer takes, by what they mean.
var answerWords = map[string]string{
	"allow": "allow_once", "allow-once": "allow_once", "allow_once": "allow_once", "once": "allow_once",
	"allow-session": "allow_session", "allow_session": "allow_session", "session": "allow_session",
	"allow-always": "allow_always", "allow_always": "allow_always", "always": "allow_always",
	"deny": "deny", "never": "deny_always", "deny-always": "deny_always", "deny_always": "deny_always",
	"continue": "continue", "stop": "stop",
	"applied": "applied", "not-applied": "not_applied", "not_applied": "not_applied",
}

func answerHint(k journal.InboxKind) string {
	switch k {
	case journal.InboxApproval:
		return "allow, allow-session, allow-always, deny or never"
	case journal.InboxBudget:
		return "continue or stop"
	case journal.InboxReconcile:
		return "applied or not-applied"
	}
	return "--json ANSWER (an object)"
}

// waitsFor says in a few words what an item asks.
func waitsFor(it journal.InboxItem) string {
	var asked struct {
		Tool      string          `json:"tool"`
		Arguments json.RawMessage `json:"arguments"`
		Sampling  *struct {
			Namespace string `json:"namespace"`
		} `json:"sampling"`
	}
	_ = json.Unmarshal(it.Asked, &asked)
	switch {
	case it.Kind == journal.InboxApproval && asked.Sampling != nil:
		return fmt.Sprintf("may %s use your model?", asked.Sampling.Namespace)
	case it.Kind == journal.InboxApproval:
		return fmt.Sprintf("may it run %s %s?", asked.Tool, visibleJSON(string(asked.Arguments)))
	}
	return visibleJSON(string(it.Asked))
}

func printInboxItem(w io.Writer, it journal.InboxItem) {
	fmt.Fprintf(w, "%s  %s  %s\n", it.ID, it.Kind, it.Status)
	fmt.Fprintf(w, "  coworker: %s\n", line(it.Coworker))
	if it.SessionID != "" {
		fmt.Fprintf(w, "  session:  %s (turn %s)\n", it.SessionID, it.TurnID)
	}
	if it.Tool != "" {
		fmt.Fprintf(w, "  tool:     %s (call %s)\n", line(it.Tool), line(it.CallID))
	}
	fmt.Fprintf(w, "  asks:     %s\n", oneLine(waitsFor(it), 500))
	fmt.Fprintf(w, "  since:    %s\n", it.CreatedAt.Local().Format(time.DateTime))
	if !it.Deadline.IsZero() {
		fmt.Fprintf(w, "  deadline: %s\n", it.Deadline.Local().Format(time.DateTime))
	}
	if !it.Open() {
		fmt.Fprintf(w, "  answer:   %s by %s at %s\n", line(nonEmpty(string(it.Answer), "(none)")), line(it.AnsweredBy), it.AnsweredAt.Local().Format(time.DateTime))
	} else {
		fmt.Fprintf(w, "  answer with: openworker inbox answer %s %s\n", it.ID, answerHint(it.Kind))
	}
}
