package cli

import (
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
	var all bool
	list := &cobra.Command{
		Use:   "list [--all] [--json]",
		Short: "list the open items, oldest first (--all: every item)",
		Args:  cobra.NoArgs,
		RunE: f.withJournal(func(cmd *cobra.Command, _ []string, j *journal.Journal) error {
			filter := journal.InboxFilter{}
			if all {
				filter.Statuses = []journal.InboxStatus{journal.InboxOpen, journal.InboxAnswered, journal.InboxConsumed,
					journal.InboxCancelled, journal.InboxExpired}
			}
			items, err := j.Inbox(cmd.Context(), filter)
			if err != nil {
				return err
			}
			if f.asJSON {
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
					it.Coworker, oneLine(waitsFor(it), 100))
			}
			return nil
		}),
	}
	list.Flags().BoolVar(&all, "all", false, "every item, answered and withdrawn ones too")
	list.Flags().BoolVar(&f.asJSON, "json", false, "print JSON")
	show := &cobra.Command{
		Use:   "show ID [--json]",
		Short: "show one item: what it asks, and its answer if it has one",
		Args:  cobra.ExactArgs(1),
		RunE: f.withJournal(func(cmd *cobra.Command, args []string, j *journal.Journal) error {
			it, err := j.InboxItem(cmd.Context(), args[0])
			if errors.Is(err, journal.ErrNotFound) {
				return usageErr("no inbox item %q in %s (openworker inbox list shows the open ones)", args[0], j.Path())
			}
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
	var answerJSON, by string
	answer := &cobra.Command{
		Use:   "answer ID allow|allow-session|allow-always|deny | answer ID continue|stop | answer ID applied|not-applied | answer ID --json ANSWER",
		Short: "answer an open item; the first answer wins, a later one is told it was already answered",
		Args:  cobra.RangeArgs(1, 2),
		RunE: f.withJournal(func(cmd *cobra.Command, args []string, j *journal.Journal) error {
			ctx := cmd.Context()
			it, err := j.InboxItem(ctx, args[0])
			if errors.Is(err, journal.ErrNotFound) {
				return usageErr("no inbox item %q in %s (openworker inbox list shows the open ones)", args[0], j.Path())
			}
			if err != nil {
				return err
			}
			var raw json.RawMessage
			switch {
			case answerJSON != "" && len(args) == 2:
				return usageErr("give the answer as a word or with --json, not both")
			case answerJSON != "":
				raw = json.RawMessage(answerJSON)
			case len(args) == 2:
				w, ok := answerWords[strings.ToLower(args[1])]
				if !ok {
					return usageErr("answer %q: use allow, allow-session, allow-always or deny (approvals), continue or stop (budgets), applied or not-applied (reconciliations), or --json ANSWER", args[1])
				}
				raw, _ = json.Marshal(w)
			default:
				return usageErr("inbox answer needs an answer: %s", answerHint(it.Kind))
			}
			if err := inbox.CheckAnswer(it.Kind, raw); err != nil {
				return usageErr("inbox item %s is a %s: %v", it.ID, it.Kind, err)
			}
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
		}),
	}
	answer.Flags().StringVar(&answerJSON, "json", "", "the answer as JSON (a question's or a sign-in's answer object)")
	answer.Flags().StringVar(&by, "by", "cli: inbox answer", "who answers, as journaled")
	cmd.AddCommand(list, show, answer)
	return cmd
}

// answerWords are the words inbox answer takes, by what they mean.
var answerWords = map[string]string{
	"allow": "allow_once", "allow-once": "allow_once", "allow_once": "allow_once", "once": "allow_once",
	"allow-session": "allow_session", "allow_session": "allow_session", "session": "allow_session",
	"allow-always": "allow_always", "allow_always": "allow_always", "always": "allow_always",
	"deny":     "deny",
	"continue": "continue", "stop": "stop",
	"applied": "applied", "not-applied": "not_applied", "not_applied": "not_applied",
}

func answerHint(k journal.InboxKind) string {
	switch k {
	case journal.InboxApproval:
		return "allow, allow-session, allow-always or deny"
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
	fmt.Fprintf(w, "  coworker: %s\n", it.Coworker)
	if it.SessionID != "" {
		fmt.Fprintf(w, "  session:  %s (turn %s)\n", it.SessionID, it.TurnID)
	}
	if it.Tool != "" {
		fmt.Fprintf(w, "  tool:     %s (call %s)\n", it.Tool, it.CallID)
	}
	fmt.Fprintf(w, "  asks:     %s\n", oneLine(waitsFor(it), 500))
	fmt.Fprintf(w, "  since:    %s\n", it.CreatedAt.Local().Format(time.DateTime))
	if !it.Deadline.IsZero() {
		fmt.Fprintf(w, "  deadline: %s\n", it.Deadline.Local().Format(time.DateTime))
	}
	if !it.Open() {
		fmt.Fprintf(w, "  answer:   %s by %s at %s\n", nonEmpty(string(it.Answer), "(none)"), it.AnsweredBy, it.AnsweredAt.Local().Format(time.DateTime))
	} else {
		fmt.Fprintf(w, "  answer with: openworker inbox answer %s %s\n", it.ID, answerHint(it.Kind))
	}
}
