package cli

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/internal/update"
	"github.com/spf13/cobra"
)

// updateCommand is `openworker update check` (docs/update.md#check). The
// CLI only checks: applying is the app's, at its next start.
func (c *config) updateCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "update",
		Short: "check for a newer release (signed feed)",
		Args:  cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageErr("unknown update command %q; use check", args[0])
			}
			return usageErr("update needs a command: check")
		},
	}
	var feed string
	var asJSON bool
	check := &cobra.Command{
		Use:   "check",
		Short: "say whether a newer version exists for this system",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			current := harness.BuildVersion(c.version).Version
			if current == "" {
				current = "dev"
			}
			client := &http.Client{Timeout: 2 * time.Minute}
			res, err := update.Check(cmd.Context(), client, feed, current, update.Platform())
			if err != nil {
				return err
			}
			if asJSON {
				enc := json.NewEncoder(c.stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(res)
			}
			c.printUpdate(res)
			return nil
		},
	}
	check.Flags().StringVar(&feed, "feed", update.DefaultFeedURL, "the feed's URL (verified against the built-in key all the same)")
	check.Flags().BoolVar(&asJSON, "json", false, "print the result as JSON")
	cmd.AddCommand(check)
	return cmd
}

// printUpdate says what a check found, in words.
func (c *config) printUpdate(res update.Result) {
	switch {
	case res.Newer:
		fmt.Fprintf(c.stdout, "OpenWorker %s is available (this is %s).\n", res.Latest, res.Current)
		if res.Notes != "" {
			fmt.Fprintf(c.stdout, "\n%s\n", indent(res.Notes))
		}
		fmt.Fprintf(c.stdout, "\nThe app downloads it in the background and installs it when it next starts (%s, %d bytes).\n", res.Asset.URL, res.Asset.Size)
	case res.Why != "":
		fmt.Fprintf(c.stdout, "The latest release is %s; %s.\n", res.Latest, res.Why)
	default:
		fmt.Fprintf(c.stdout, "OpenWorker %s is up to date (the latest release is %s).\n", res.Current, res.Latest)
	}
}
