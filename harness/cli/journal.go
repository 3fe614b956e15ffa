package cli

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/tool"
	"github.com/openworker/desktop/internal/termsafe"
	"github.com/spf13/cobra"
)

// journalFlags are the flags every journal subcommand shares.
type journalFlags struct {
	db     string // --db; "" for harness.DefaultDBPath()
	asJSON bool   // --json
	c      *config
}

// withJournal opens the --db journal for one subcommand and closes it
// after.
func (f *journalFlags) withJournal(fn func(cmd *cobra.Command, args []string, j *journal.Journal) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		if f.db == "" {
			f.db = harness.DefaultDBPath()
		}
		if _, err := os.Stat(f.db); err != nil {
			return usageErr("no journal at %s (pass --db FILE)", f.db)
		}
		j, err := f.c.openJournal(f.db, false)
		if err != nil {
			return err
		}
		defer j.Close()
		return j.Explain(fn(cmd, args, j))
	}
}

// journalCommand is "openworker journal" with its subcommands list, show,
// reconcile, verify, policies and revoke.
func (c *config) journalCommand(reg *tool.Registry) *cobra.Command {
	f := &journalFlags{c: c}
	cmd := &cobra.Command{
		Use:   "journal",
		Short: "read the journal of sessions, tool invocations and approvals",
		Args:  cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageErr("unknown journal command %q; use list, show, export, reconcile, verify, policies or revoke", args[0])
			}
			return usageErr("journal needs a command: list, show, export, reconcile, verify, policies or revoke")
		},
	}
	cmd.PersistentFlags().StringVar(&f.db, "db", "", "journal file (default "+harness.DefaultDBPath()+")")
	cmd.PersistentFlags().BoolVar(&f.asJSON, "json", false, "print JSON")
	cmd.AddCommand(c.journalListCommand(f), c.journalShowCommand(f), c.journalReconcileCommand(f, reg), c.journalVerifyCommand(f), c.journalExportCommand(f))
	cmd.AddCommand(c.policyCommands(f.withJournal, &f.asJSON)...)
	return cmd
}

// journalListFlags are the flags of journal list.
type journalListFlags struct {
	limit                   pageLimitFlag
	before                  string
	needsAttention, unknown bool
}

// journalListCommand is "journal list": sessions, newest first, a page at
// a time (--limit, --before, --needs-attention), or with --unknown every
// invocation waiting for reconciliation, oldest first.
func (c *config) journalListCommand(f *journalFlags) *cobra.Command {
	l := &journalListFlags{limit: pageLimitFlag(journal.DefaultPageLimit)}
	cmd := &cobra.Command{
		Use:   "list [--limit N] [--before CURSOR] [--needs-attention] | list --unknown",
		Short: "list sessions, newest first, a page at a time; or with --unknown the calls waiting for reconciliation",
		Args:  cobra.NoArgs,
		PreRunE: func(cmd *cobra.Command, _ []string) error {
			if l.unknown {
				for _, other := range []string{"limit", "before", "needs-attention"} {
					if cmd.Flags().Changed(other) {
						return usageErr("--unknown lists every invocation waiting for reconciliation; it takes no --%s", other)
					}
				}
			}
			return nil
		},
		RunE: f.withJournal(func(cmd *cobra.Command, _ []string, j *journal.Journal) error {
			if l.unknown {
				return c.listUnknown(cmd.Context(), j, f.asJSON)
			}
			return c.journalList(cmd, j, f, l)
		}),
	}
	cmd.Flags().Var(&l.limit, "limit", fmt.Sprintf("sessions per page, 1 to %d", journal.MaxPageLimit))
	cmd.Flags().StringVar(&l.before, "before", "", "the cursor of the next page, printed at the end of the page before (JSON: next)")
	cmd.Flags().BoolVar(&l.needsAttention, "needs-attention", false, "only sessions with a call waiting for reconciliation")
	cmd.Flags().BoolVar(&l.unknown, "unknown", false, "list every invocation waiting for reconciliation (status unknown), oldest first")
	return cmd
}

// journalList prints one page of sessions of j and the command that
// prints the next.
func (c *config) journalList(cmd *cobra.Command, j *journal.Journal, f *journalFlags, l *journalListFlags) error {
	page, err := j.SessionPage(cmd.Context(), journal.SessionQuery{Limit: int(l.limit), Before: l.before, NeedsAttention: l.needsAttention})
	if errors.Is(err, journal.ErrBadCursor) {
		return usageErr("--before %q is not a cursor journal list printed; pass the one after \"next page:\" (with --json, \"next\"), or leave --before out for the newest sessions", l.before)
	}
	if err != nil {
		return err
	}
	if f.asJSON {
		return writeJSON(c.stdout, page)
	}
	if len(page.Sessions) == 0 {
		c.noSessions(j, l)
		return nil
	}
	runs := map[string]string{} // where each session's run is (docs/journal.md#run-status)
	for _, s := range page.Sessions {
		if r, err := j.RunStatusOf(cmd.Context(), s.ID); err == nil {
			runs[s.ID] = r.String()
		}
	}
	if err := printSessions(c.stdout, page.Sessions, runs); err != nil {
		return err
	}
	if page.Next != "" {
		fmt.Fprintf(c.stdout, "\nnext page: %s\n", shellJoin(nextPageCommand(cmd, f, l, page.Next)))
	}
	return nil
}

// noSessions says why a page of journal list is empty.
func (c *config) noSessions(j *journal.Journal, l *journalListFlags) {
	switch {
	case l.before != "":
		fmt.Fprintf(c.stderr, "no more sessions in %s\n", j.Path())
	case l.needsAttention:
		fmt.Fprintf(c.stderr, "no session in %s needs attention: no call waits for reconciliation\n", j.Path())
	default:
		fmt.Fprintf(c.stderr, "no sessions in %s yet\n", j.Path())
	}
}

// nextPageCommand is the journal list command for the page after cursor
// next, with the flags given that shape the page.
func nextPageCommand(cmd *cobra.Command, f *journalFlags, l *journalListFlags, next string) []string {
	args := []string{"openworker", "journal", "list", "--before", next}
	if cmd.Flags().Changed("limit") {
		args = append(args, "--limit", l.limit.String())
	}
	if l.needsAttention {
		args = append(args, "--needs-attention")
	}
	if cmd.Flags().Changed("db") {
		args = append(args, "--db", f.db)
	}
	return args
}

// listUnknown prints every invocation waiting for reconciliation, oldest
// first, read a page at a time.
func (c *config) listUnknown(ctx context.Context, j *journal.Journal, asJSON bool) error {
	all := []journal.UnknownInvocation{}
	after := ""
	for {
		page, err := j.Unknown(ctx, journal.UnknownQuery{Limit: journal.MaxPageLimit, After: after})
		if err != nil {
			return err
		}
		all = append(all, page.Invocations...)
		if after = page.Next; after == "" {
			break
		}
	}
	if asJSON {
		return writeJSON(c.stdout, struct {
			Invocations []journal.UnknownInvocation `json:"invocations"`
		}{all})
	}
	if len(all) == 0 {
		fmt.Fprintf(c.stderr, "no invocation in %s waits for reconciliation\n", j.Path())
		return nil
	}
	tw := tabwriter.NewWriter(c.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "INVOCATION\tPREPARED\tSESSION\tCOWORKER\tTOOL\tASKED BY\tREASON")
	for _, v := range all {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", v.ID, v.CreatedAt.Local().Format("2006-01-02 15:04:05"), v.SessionID,
			oneLine(v.Coworker, 30), oneLine(v.Tool, 40), askedBy(v.Origin), oneLine(strings.TrimPrefix(v.ErrorCode+": "+v.Reason, ": "), 80))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	verb := "wait"
	if len(all) == 1 {
		verb = "waits"
	}
	fmt.Fprintf(c.stdout, "\n%s %s for reconciliation: only you know whether each took effect. Record it with\n"+
		"  openworker journal reconcile INVOCATION --outcome applied|not_applied\n"+
		"or, for a call of an A2A agent, ask the agent (docs/a2a.md#durable-handles):\n"+
		"  openworker journal reconcile INVOCATION --poll --servers FILE\n", plural(len(all), "invocation"), verb)
	return nil
}

// pageLimitFlag is --limit: a whole number from 1 to journal.MaxPageLimit.
type pageLimitFlag int

func (l *pageLimitFlag) String() string { return strconv.Itoa(int(*l)) }
func (l *pageLimitFlag) Type() string   { return "N" }
func (l *pageLimitFlag) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > journal.MaxPageLimit {
		return fmt.Errorf("want a whole number from 1 to %d", journal.MaxPageLimit)
	}
	*l = pageLimitFlag(n)
	return nil
}

// printSessions writes the table of journal list: the title is the one
// the chat list shows (a rename, else the first prompt).
func printSessions(w io.Writer, ss []journal.Session, runs map[string]string) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SESSION\tSTARTED\tCOWORKER\tSTATUS\tRUN\tTITLE")
	for _, s := range ss {
		status := string(s.Status)
		if s.Interrupted {
			status = string(journal.SessionInterrupted) // open, its process gone
		}
		if s.Unreconciled > 0 {
			status += fmt.Sprintf(", %d to reconcile", s.Unreconciled)
		}
		if s.Hidden {
			status += ", hidden" // from the app's chat list (docs/journal.md#chat-titles)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", s.ID, s.CreatedAt.Local().Format("2006-01-02 15:04:05"), oneLine(s.Coworker, 30), status,
			oneLine(runs[s.ID], 60), oneLine(s.Title, 50))
	}
	return tw.Flush()
}

// journalShowCommand is "journal show [SESSION]": one session in full.
func (c *config) journalShowCommand(f *journalFlags) *cobra.Command {
	return &cobra.Command{
		Use:   "show [SESSION]",
		Short: "show a session (default the newest): turns, messages, invocations, approvals",
		Args:  cobra.MaximumNArgs(1),
		RunE: f.withJournal(func(cmd *cobra.Command, args []string, j *journal.Journal) error {
			id, err := sessionArg(cmd.Context(), j, args)
			if err != nil {
				return err
			}
			d, err := j.Detail(cmd.Context(), id)
			if errors.Is(err, journal.ErrNotFound) {
				return usageErr("no session %q in %s", id, j.Path())
			}
			if err != nil {
				return err
			}
			// Where the run is (docs/journal.md#run-status), from its inbox items.
			items, err := j.Inbox(cmd.Context(), journal.InboxFilter{SessionID: id, Statuses: []journal.InboxStatus{journal.InboxOpen,
				journal.InboxAnswered, journal.InboxConsumed, journal.InboxCancelled, journal.InboxExpired}})
			if err != nil {
				return err
			}
			if items == nil {
				items = []journal.InboxItem{}
			}
			run := journal.RunStatus(d, items)
			if f.asJSON {
				shown := struct {
					journal.SessionDetail
					Inbox []journal.InboxItem `json:"inbox"`
					Run   string              `json:"run"`
				}{d, items, run}
				if err := writeJSON(c.stdout, shown); err != nil {
					return fmt.Errorf("session %s cannot be shown as JSON: %w; `openworker journal export` saves every session that can be read", id, err)
				}
				return nil
			}
			printDetailHandles(c.stdout, d, taskHandles(cmd.Context(), j, d))
			fmt.Fprintf(c.stdout, "\nrun      %s\n", oneLine(run, 300))
			switch {
			case strings.HasPrefix(run, "waiting on you"):
				fmt.Fprintf(c.stdout, "         answer with: openworker inbox answer ID allow|deny (a budget: continue|stop), then: openworker resume %s\n", id)
			case strings.HasPrefix(run, "answered, waiting to resume"):
				fmt.Fprintf(c.stdout, "         continue with: openworker resume %s\n", id)
			}
			return nil
		}),
	}
}

// journalReconcileCommand is "journal reconcile INVOCATION --outcome
// applied|not_applied" ("not-applied", the older spelling, is accepted and
// recorded as not_applied), or "--poll" to ask the A2A agent of the call
// (journal_poll.go).
func (c *config) journalReconcileCommand(f *journalFlags, reg *tool.Registry) *cobra.Command {
	var flag string
	var outcome journal.Effect
	var poll pollFlags
	cmd := &cobra.Command{
		Use:   "reconcile INVOCATION --outcome applied|not_applied | --poll [--servers FILE]",
		Short: "record the real outcome of an invocation whose status is unknown",
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageErr("reconcile needs one INVOCATION id (see journal show), e.g. journal reconcile inv_... --outcome applied")
			}
			if poll.on {
				if flag != "" {
					return usageErr("give --outcome or --poll, not both: --poll records the agent's own answer")
				}
				return nil
			}
			var err error
			if outcome, err = journal.ParseOutcome(flag); err != nil {
				return usageErr("--outcome must be applied or not_applied (or pass --poll to ask the A2A agent of the call)")
			}
			return nil
		},
		RunE: f.withJournal(func(cmd *cobra.Command, args []string, j *journal.Journal) error {
			if poll.on {
				return c.reconcilePoll(cmd.Context(), reg, j, args[0], poll)
			}
			if err := j.Reconcile(cmd.Context(), args[0], outcome); err != nil {
				if errors.Is(err, journal.ErrNotFound) || errors.Is(err, journal.ErrBadTransition) {
					return badInput(err)
				}
				return err
			}
			fmt.Fprintf(c.stdout, "invocation %s reconciled: %s\n", args[0], outcome)
			return nil
		}),
	}
	cmd.Flags().StringVar(&flag, "outcome", "", "applied or not_applied")
	poll.flags(cmd)
	return cmd
}

// journalVerifyCommand is "journal verify": the file, the hash chain and
// the checkpoints (docs/journal.md#checkpoints); exit 1 when any of them
// shows a problem.
func (c *config) journalVerifyCommand(f *journalFlags) *cobra.Command {
	return &cobra.Command{
		Use:   "verify",
		Short: "check the journal file (PRAGMA integrity_check), its hash chain and its checkpoints, and report every problem",
		Args:  cobra.NoArgs,
		PreRun: func(*cobra.Command, []string) {
			c.noCheckpointWarning = true // verify compares every checkpoint itself
		},
		RunE: f.withJournal(func(cmd *cobra.Command, _ []string, j *journal.Journal) error {
			rep, err := j.Verify(cmd.Context())
			if err != nil {
				return err
			}
			cps, err := c.verifyCheckpoints(cmd.Context(), j)
			if err != nil {
				return err
			}
			if err := c.printVerify(verifyOutput{rep, cps}, f.asJSON); err != nil {
				return err
			}
			switch {
			case len(rep.Integrity) > 0:
				return &exitError{ExitFailure, fmt.Errorf("the journal file %s is damaged (PRAGMA integrity_check); stop OpenWorker, keep a copy of the file, save what is readable with: openworker journal export --db %s --to FILE, then restore a backup of it or move it aside (docs/journal.md#verify)", j.Path(), j.Path())}
			case !rep.OK:
				return &exitError{ExitFailure, errors.New("the journal's hash chain is broken")}
			case !cps.OK():
				return &exitError{ExitFailure, fmt.Errorf("the journal does not match its checkpoints: it was truncated, rolled back or replaced, or a checkpoint was forged; keep a copy of every file named above. If you replaced the journal on purpose (a new journal, a backup put back), move those checkpoint files aside (docs/journal.md#checkpoints)")}
			}
			return nil
		}),
	}
}

// verifyOutput is what journal verify reports: the chain's report with
// the checkpoints' beside it (under "checkpoints" in JSON).
type verifyOutput struct {
	journal.VerifyReport
	Checkpoints journal.CheckpointReport `json:"checkpoints"`
}

// verifyCheckpoints compares j with its checkpoint files, verified with
// this journal's checkpoint key.
func (c *config) verifyCheckpoints(ctx context.Context, j *journal.Journal) (journal.CheckpointReport, error) {
	cp, where, err := c.checkpointOptions(j.Path())
	if err != nil {
		return journal.CheckpointReport{}, err
	}
	rep, err := j.VerifyCheckpoints(ctx, cp.Key.Public().(ed25519.PublicKey), cp.Dirs)
	rep.Key = where
	return rep, err
}

// printVerify writes the report of journal verify, as JSON or as a first
// line that sums it all up — "ok: …" only when the file, the chain and
// the checkpoints all pass, else "FAILED: " and what failed — followed
// by every problem found (at most 100 of each kind, as the report holds
// them).
func (c *config) printVerify(out verifyOutput, asJSON bool) error {
	if asJSON {
		return writeJSON(c.stdout, out)
	}
	rep := out.VerifyReport
	entries := fmt.Sprintf("%d chain entries", rep.Entries)
	if rep.Entries == 1 {
		entries = "1 chain entry"
	}
	counted := fmt.Sprintf("%s and %s verified; head %s", entries, plural(int(rep.Rows), "row"), rep.Head)
	var failed []string
	if len(rep.Integrity) > 0 {
		failed = append(failed, "the journal file is damaged")
	}
	if rep.First != nil {
		failed = append(failed, "the hash chain is broken")
	}
	if !out.Checkpoints.OK() {
		failed = append(failed, "the journal does not match its checkpoints")
	}
	if len(failed) == 0 {
		fmt.Fprintf(c.stdout, "ok: %s\n", counted)
	} else {
		fmt.Fprintf(c.stdout, "FAILED: %s\n", strings.Join(failed, "; "))
		if rep.OK {
			fmt.Fprintf(c.stdout, "chain ok: %s\n", counted)
		}
	}
	if len(rep.Integrity) > 0 {
		fmt.Fprintf(c.stdout, "DAMAGED: PRAGMA integrity_check: %s (%s found)\n", strings.ReplaceAll(rep.Integrity[0], "\n", " "), plural(len(rep.Integrity), "problem"))
		for _, line := range rep.Integrity[1:] {
			fmt.Fprintf(c.stdout, "  %s\n", strings.ReplaceAll(line, "\n", " "))
		}
	}
	if rep.First != nil {
		fmt.Fprintf(c.stdout, "BROKEN: first broken link: %s (%s found)\n", rep.First, plural(len(rep.Breaks), "break"))
		for _, b := range rep.Breaks[1:] {
			fmt.Fprintf(c.stdout, "  %s\n", b)
		}
	}
	printCheckpoints(c.stdout, out.Checkpoints)
	return nil
}

// printCheckpoints writes one line per checkpoint finding: a failed one
// as CHECKPOINT, the others as "checkpoint:".
func printCheckpoints(w io.Writer, r journal.CheckpointReport) {
	if r.Key != "the OS keychain" {
		fmt.Fprintf(w, "checkpoint key: %s (no OS keychain: anyone who can read that file and change the journal can forge a checkpoint; keep a second checkpoint folder, %s, on another disk)\n", r.Key, checkpointDirEnv)
	}
	if r.None {
		fmt.Fprintln(w, "checkpoint: none yet (the journal's head is anchored after its next write; docs/journal.md#checkpoints)")
	}
	for _, f := range r.Findings {
		label := "checkpoint:"
		if f.Failed() {
			label = "CHECKPOINT:"
		}
		fmt.Fprintf(w, "%s %s\n", label, f.Message)
	}
}

func sessionArg(ctx context.Context, j *journal.Journal, args []string) (string, error) {
	if len(args) == 1 {
		return args[0], nil
	}
	ss, err := j.Sessions(ctx, 1)
	if err != nil {
		return "", err
	}
	if len(ss) == 0 {
		return "", usageErr("the journal %s has no sessions yet", j.Path())
	}
	return ss[0].ID, nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // show "<b>" as the journal holds it
	return enc.Encode(v)
}

func printDetail(w io.Writer, d journal.SessionDetail) { printDetailHandles(w, d, nil) }

// printDetailHandles is printDetail that also prints the A2A task ID of
// each invocation in handles (taskHandles).
func printDetailHandles(w io.Writer, d journal.SessionDetail, handles map[string]string) {
	s := d.Session
	byID := invocationsByID(d)
	fmt.Fprintf(w, "session  %s\ncoworker %s %s\nstatus   %s\nmodel    %s\nidentity %s\n", s.ID, line(s.Coworker), line(s.CoworkerVersion), line(strings.TrimSpace(string(s.Status)+" "+s.Error)), line(s.Model), line(s.Identity))
	for _, wa := range d.Warnings {
		if wa.TurnID == "" { // the session's own, such as a tool left out at opening
			fmt.Fprintf(w, "warning  %s: %s\n", line(wa.Code), clip(wa.Message, 300))
		}
	}
	for _, t := range d.Turns {
		printTurn(w, d, t, byID, handles)
	}
}

// printTurn writes one turn of d with its invocations and approvals.
func printTurn(w io.Writer, d journal.SessionDetail, t journal.Turn, byID map[string]journal.Invocation, handles map[string]string) {
	s := d.Session
	fmt.Fprintf(w, "\nturn %d %s: %s (%s, %s) %s\n  prompt: %s\n", t.Seq, t.ID, t.Status, plural(t.Attempts, "attempt"), plural(t.Calls, "call"), line(t.Reason), clip(t.Prompt, 200))
	if (t.Model != "" && t.Model != s.Model) || (t.Approve != "" && t.Approve != s.Approve) {
		fmt.Fprintf(w, "  ran with: %s, approval %s\n", line(t.Model), line(string(t.Approve))) // a continued session that changed them
	}
	for _, inv := range d.Invocations {
		if inv.TurnID != t.ID {
			continue
		}
		fmt.Fprintln(w, strings.TrimRight(invocationLine(inv, handles[inv.ID]), " "))
		printViewLines(w, inv, byID)
	}
	for _, a := range d.Approvals {
		if a.TurnID == t.ID {
			fmt.Fprintf(w, "  approval %-30s %-13s %s: %s\n", line(a.Tool), a.Decision, line(string(a.Source)), line(a.Reason))
		}
	}
}

// invocationLine is one invocation of a turn: tool, status, duration,
// where it ran, its error, reconciliation and A2A task (handle).
func invocationLine(inv journal.Invocation, handle string) string {
	out := fmt.Sprintf("  %s %-30s %-9s %4d ms", inv.ID, line(inv.Tool), inv.Status, inv.DurationMS)
	switch {
	case inv.Placement == "" || inv.Placement == tool.PlacementLocal:
	case tool.IsLocalPlacement(inv.Placement): // sandboxed (docs/sandbox.md#in-words)
		out += "  " + line(strings.TrimPrefix(inv.Placement, tool.PlacementLocal+" "))
	default:
		out += "  on " + line(inv.Placement)
	}
	if inv.Error != "" {
		out += "  " + clip(inv.ErrorCode+": "+inv.Error, 200)
	}
	if inv.Reconciled != "" {
		out += "  reconciled: " + string(inv.Reconciled)
	}
	if handle != "" {
		out += "  task " + line(handle)
	}
	return out
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// oneLine makes text safe and short for one cell of a terminal table:
// control characters escaped visibly, cut to n runes
// (docs/cli.md#sanitised-output).
func oneLine(text string, n int) string { return termsafe.Cut(text, n) }

// line is text from the journal (a server's error, a model's tool name,
// a reason) as one line with every control character escaped, so it
// cannot forge lines of the audit view.
func line(text string) string { return termsafe.Line(text) }
