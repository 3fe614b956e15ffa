package cli

import (
	"fmt"

	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/journal"
	"github.com/spf13/cobra"
)

// policyCommands lists the saved "always allow" answers and takes them back
// (docs/consent.md: a user policy is keyed by coworker, tool and descriptor digest).
func (c *config) policyCommands(withJournal func(func(*cobra.Command, []string, *journal.Journal) error) func(*cobra.Command, []string) error, asJSON *bool) []*cobra.Command {
	var coworker string
	list := &cobra.Command{
		Use:   "policies [--coworker ID]",
		Short: "list the saved answers (always allow / never) per coworker and tool",
		Args:  cobra.NoArgs,
		RunE: withJournal(func(cmd *cobra.Command, _ []string, j *journal.Journal) error {
			rows, err := j.UserPolicies(cmd.Context(), coworker)
			if err != nil {
				return err
			}
			type listed struct {
				journal.UserPolicyRow
				Ignored string `json:"ignored,omitempty"` // why the harness does not honour it
			}
			out := make([]listed, 0, len(rows))
			for _, r := range rows {
				l := listed{UserPolicyRow: r}
				// The same lookup consent uses: a row outside the hash chain is ignored.
				if _, _, err := j.UserPolicy(cmd.Context(), r.Coworker, r.Tool, r.DescriptorDigest); err != nil {
					l.Ignored = err.Error()
				}
				out = append(out, l)
			}
			if *asJSON {
				return writeJSON(c.stdout, out)
			}
			if len(out) == 0 {
				fmt.Fprintln(c.stdout, "no saved policies")
			}
			for _, r := range out {
				fmt.Fprintf(c.stdout, "%-20s %-32s %-12s %s (saved %s)\n", r.Coworker, r.Tool, policyWords(r.Policy), r.DescriptorDigest, r.UpdatedAt.Local().Format("2006-01-02 15:04"))
				if r.Ignored != "" {
					fmt.Fprintf(c.stdout, "    IGNORED: %s\n", r.Ignored)
				}
			}
			return nil
		}),
	}
	list.Flags().StringVar(&coworker, "coworker", "", "only this coworker")
	revoke := &cobra.Command{
		Use:   "revoke COWORKER TOOL",
		Short: "take back saved answers for a coworker's tool: it asks again",
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 2 {
				return usageErr("revoke needs COWORKER and TOOL, e.g. journal revoke device-assistant device.battery_status_get")
			}
			return nil
		},
		RunE: withJournal(func(cmd *cobra.Command, args []string, j *journal.Journal) error {
			rows, err := j.UserPolicies(cmd.Context(), args[0])
			if err != nil {
				return err
			}
			n := 0
			for _, r := range rows {
				if r.Tool != args[1] || r.Policy == string(consent.PolicyAsk) {
					continue
				}
				// Saved as "ask" rather than deleted, so the hash chain keeps
				// the history of the answer.
				if err := j.SaveUserPolicy(cmd.Context(), r.Coworker, r.Tool, r.DescriptorDigest, string(consent.PolicyAsk)); err != nil {
					return err
				}
				n++
			}
			if n == 0 {
				return usageErr("no saved answer for %s of coworker %q (see journal policies)", args[1], args[0])
			}
			fmt.Fprintf(c.stdout, "revoked %d saved answer(s) for %s of %s: it asks again\n", n, args[1], args[0])
			return nil
		}),
	}
	return []*cobra.Command{list, revoke}
}

// policyWords names a saved policy as the app does: "always allow",
// "never" (a saved deny, docs/consent.md#never) or "ask" (taken back).
func policyWords(p string) string {
	switch consent.Policy(p) {
	case consent.PolicyAllow:
		return "always allow"
	case consent.PolicyDeny:
		return "never"
	}
	return p
}
