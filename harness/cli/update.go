package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/internal/update"
	"github.com/spf13/cobra"
)

// updateCommand is `openworker update check|download|apply`
// (docs/update.md#check). The app checks, downloads and applies by
// itself; these are for a person or a script that wants it now.
func (c *config) updateCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "update",
		Short: "check for a newer release (signed feed), download it, apply it",
		Args:  cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageErr("unknown update command %q; use check, download or apply", args[0])
			}
			return usageErr("update needs a command: check, download or apply")
		},
	}
	cmd.AddCommand(c.updateCheckCommand(), c.updateDownloadCommand(), c.updateApplyCommand())
	return cmd
}

// updateFlags are the flags check and download share.
type updateFlags struct {
	feed   string
	asJSON bool
}

func (f *updateFlags) add(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.feed, "feed", update.DefaultFeedURL, "the feed's URL (verified against the built-in key all the same)")
	cmd.Flags().BoolVar(&f.asJSON, "json", false, "print the result (or the error) as JSON")
}

// check validates --feed and runs the check.
func (c *config) updateCheck(cmd *cobra.Command, f *updateFlags) (update.Result, error) {
	if err := feedURLError(f.feed); err != nil {
		return update.Result{FeedURL: f.feed}, err
	}
	client := &http.Client{Timeout: 2 * time.Minute}
	return update.Check(cmd.Context(), client, f.feed, c.currentVersion(), update.Platform())
}

func (c *config) updateCheckCommand() *cobra.Command {
	var f updateFlags
	check := &cobra.Command{
		Use:   "check",
		Short: "say whether a newer version exists for this system",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			res, err := c.updateCheck(cmd, &f)
			if err != nil {
				return c.updateFailed(f.asJSON, f.feed, err)
			}
			if f.asJSON {
				return c.printJSON(res)
			}
			c.printUpdate(res)
			return nil
		},
	}
	f.add(check)
	return check
}

// currentVersion is this build's version, "dev" when none was stamped.
func (c *config) currentVersion() string {
	if v := harness.BuildVersion(c.version).Version; v != "" {
		return v
	}
	return "dev"
}

// feedURLError is the usage error of a --feed that is no http(s) URL.
func feedURLError(feed string) error {
	u, err := url.Parse(feed)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return usageErr("--feed %q is not an http(s) URL; give the feed's address, e.g. %s", feed, update.DefaultFeedURL)
	}
	return nil
}

// updateError is what `update … --json` prints when it failed.
type updateError struct {
	Feed  string `json:"feed,omitempty"`
	Error string `json:"error"`
	// Refused is true when the feed or file failed verification.
	Refused bool `json:"refused"`
	// Usage is true for a mistake on the command line (exit status 2).
	Usage bool `json:"usage"`
}

// updateFailed prints err as a JSON object when asJSON (stdout; the
// message goes to stderr as ever) and returns it for the exit status.
func (c *config) updateFailed(asJSON bool, feed string, err error) error {
	if !asJSON {
		return err
	}
	var ee *exitError
	usage := errors.As(err, &ee) && ee.code == ExitUsage
	if perr := c.printJSON(updateError{Feed: feed, Error: err.Error(), Refused: errors.Is(err, update.ErrRefused), Usage: usage}); perr != nil {
		return perr
	}
	return err
}

func (c *config) printJSON(v any) error {
	enc := json.NewEncoder(c.stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// printUpdate says what a check found, in words.
func (c *config) printUpdate(res update.Result) {
	switch {
	case res.Newer:
		fmt.Fprintf(c.stdout, "OpenWorker %s is available (this is %s).\n", res.Latest, res.Current)
		if res.Notes != "" {
			fmt.Fprintf(c.stdout, "\n%s\n", indent(res.Notes))
		}
		fmt.Fprintf(c.stdout, "\nThe app downloads it in the background and installs it when it next starts (%s, %d bytes); openworker update download does it now.\n", res.Asset.URL, res.Asset.Size)
	case res.Why != "":
		fmt.Fprintf(c.stdout, "The latest release is %s; %s.\n", res.Latest, res.Why)
	default:
		fmt.Fprintf(c.stdout, "OpenWorker %s is up to date (the latest release is %s).\n", res.Current, res.Latest)
	}
}
