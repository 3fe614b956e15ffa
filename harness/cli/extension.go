package cli

import (
	"errors"
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/extension"
	"github.com/openworker/desktop/harness/extension/manifest"
	"github.com/openworker/desktop/harness/tool"
)

// WithExtensionSecrets replaces the store of sensitive user_config values
// (the OS keychain by default); for tests.
func WithExtensionSecrets(s extension.SecretStore) Option {
	return func(c *config) { c.extSecrets = s }
}

func (c *config) extensionStore(dir string) *extension.Store {
	if dir == "" {
		dir = harness.DefaultExtensionsDir()
	}
	return &extension.Store{Dir: dir, Secrets: c.extSecrets}
}

// extensionCommand is `openworker extension …` (docs/cli.md#extension).
func (c *config) extensionCommand(reg *tool.Registry) *cobra.Command {
	var dir string
	var asJSON bool
	cmd := &cobra.Command{Use: "extension", Short: "MCP extensions (.mcpb): install, list, remove"}
	cmd.PersistentFlags().StringVar(&dir, "extensions", "", "the extensions folder (default: the app's, "+harness.DefaultExtensionsDir()+")")
	list := &cobra.Command{
		Use:   "list [--json]",
		Short: "list the installed extensions",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			s := c.extensionStore(dir)
			recs, errs := s.List()
			if asJSON {
				type view struct {
					extension.Record
					Dir string `json:"dir"`
				}
				out := struct {
					Extensions []view   `json:"extensions"`
					Problems   []string `json:"problems,omitempty"`
				}{Extensions: []view{}}
				for _, r := range recs {
					out.Extensions = append(out.Extensions, view{r, r.Dir})
				}
				for _, e := range errs {
					out.Problems = append(out.Problems, e.Error())
				}
				return writeJSON(c.stdout, out)
			}
			for _, e := range errs {
				fmt.Fprintln(c.stderr, "openworker: extension:", e)
			}
			if len(recs) == 0 && len(errs) > 0 {
				return &exitError{ExitFailure, fmt.Errorf("no usable extension in %s: %d could not be read (above)", s.Dir, len(errs))}
			}
			if len(recs) == 0 {
				fmt.Fprintf(c.stdout, "no extensions installed in %s\n", s.Dir)
				return nil
			}
			tw := tabwriter.NewWriter(c.stdout, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "NAME\tVERSION\tNAMESPACE\tSIGNATURE\tSANDBOX\tFOLDER")
			for _, r := range recs {
				sig := r.Signature
				if r.Signer != "" {
					sig += " (" + r.Signer + ")"
				}
				if r.Disabled {
					sig += ", disabled"
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.Name, r.Version, r.Namespace, sig, sandboxColumn(r), r.Dir)
			}
			return tw.Flush()
		},
	}
	list.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	remove := &cobra.Command{
		Use:   "remove NAME",
		Short: "remove an installed extension: its folder and its values in the OS keychain",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			r, err := c.extensionStore(dir).Remove(args[0])
			if err != nil {
				return badInput(err)
			}
			if r.Version == "" { // its record could not be read
				fmt.Fprintf(c.stdout, "removed %s (its record was damaged; sensitive settings it had may remain in the OS keychain under %q)\n", r.Name, extension.KeychainService)
				return nil
			}
			fmt.Fprintf(c.stdout, "removed %s %s; coworkers that select %s.* tools no longer resolve them\n", r.Name, r.Version, r.Namespace)
			return nil
		},
	}
	cmd.AddCommand(c.installCommand(reg, &dir), list, remove, c.sandboxCommand(&dir))
	return cmd
}

// extensionsUsage is the help of --extensions.
const extensionsUsage = "the folder of installed MCP extensions whose providers to add (docs/extensions.md; the product's binary defaults to the app's)"

// WithExtensionsHome names the extensions folder run, check and serve use
// when --extensions is not given (the app's, DefaultExtensionsDir, in the
// product's binary). Without it they use none unless the flag names one,
// so tests never read a real config folder.
func WithExtensionsHome(dir func() string) Option {
	return func(c *config) { c.extensionsHome = dir }
}

// registerExtensions adds the providers of the installed extensions of
// dir (or the home one) to reg (extension.Store.Register): a broken one
// disables only its provider and is said on stderr.
func (c *config) registerExtensions(reg *tool.Registry, dir string) error {
	if dir == "" && c.extensionsHome != nil {
		dir = c.extensionsHome()
	}
	if dir == "" {
		return nil
	}
	host, err := manifest.ThisHost()
	if err != nil {
		return err
	}
	before := len(reg.Broken())
	if err := c.extensionStore(dir).Register(reg, host); errors.Is(err, tool.ErrFrozen) {
		return err
	}
	for _, b := range reg.Broken()[before:] {
		fmt.Fprintf(c.stderr, "openworker: extensions: %v\n", b.Err)
	}
	return nil
}
