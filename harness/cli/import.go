package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"text/tabwriter"

	"github.com/openworker/desktop/harness/internal/keychain"
	"github.com/openworker/desktop/harness/mcp/launch"
	"github.com/openworker/desktop/harness/servers"
	"github.com/openworker/desktop/harness/tool"
	"github.com/spf13/cobra"
)

// serversCommand is "openworker servers" with import and logout.
func (c *config) serversCommand(reg *tool.Registry) *cobra.Command {
	cmd := &cobra.Command{Use: "servers", Short: "MCP servers: import the config files of other MCP clients; sign out of remote ones"}
	cmd.AddCommand(c.serversImportCommand(reg), c.logoutCommand())
	return cmd
}

// importFlags are the flags of servers import.
type importFlags struct {
	to, format    string
	write, asJSON bool
}

// serversImportCommand is "openworker servers import".
func (c *config) serversImportCommand(reg *tool.Registry) *cobra.Command {
	var f importFlags
	imp := &cobra.Command{
		Use:   "import [FILE] [--write] [--to SERVERS.JSON] [--format FORMAT] [--json]",
		Short: "show what importing another client's MCP config does, and with --write do it",
		Long: `Show what each server of FILE becomes in OpenWorker (namespace,
transport, command or URL, what is ignored and why) and, with --write,
add the servers to the app's servers.json. FILE may be any supported
format (docs/servers.md): Claude Desktop, Cursor, VS Code, Cline, Roo
Code, Windsurf, Claude Code, Amazon Q, or a plain mcpServers file.

Without FILE, it lists the config files of other MCP clients found on
this computer.

The entries of the servers file in use are kept as they are; an entry
whose namespace is already taken is skipped, never replaced. Before
writing, the old file is copied to servers.json.bak. Values are written
as they are in FILE: environment variables and inputs stay references,
never their values.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return c.listClientConfigs()
			}
			return c.serversImport(cmd.Context(), reg, f, args[0])
		},
	}
	imp.Flags().StringVar(&f.to, "to", "", "the servers.json to write (default: the app's)")
	imp.Flags().StringVar(&f.format, "format", "", "format of FILE (default: detected from its name and content; docs/servers.md)")
	imp.Flags().BoolVar(&f.write, "write", false, "write the servers file (without it, nothing is written)")
	imp.Flags().BoolVar(&f.asJSON, "json", false, "print the plan as JSON")
	return imp
}

// serversImport plans the import of file, prints the plan and with
// --write carries it out.
func (c *config) serversImport(ctx context.Context, reg *tool.Registry, f importFlags, file string) error {
	plan, home, err := c.planServersImport(ctx, reg, f, file)
	if err != nil {
		return err
	}
	c.annotateImport(ctx, plan)
	if f.asJSON {
		enc := json.NewEncoder(c.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(plan); err != nil {
			return err
		}
	} else {
		printImport(c.stdout, plan)
	}
	switch {
	case !f.write && plan.Added() > 0:
		fmt.Fprintf(c.stderr, "nothing written; run again with --write to add %d server(s) to %s\n", plan.Added(), plan.Dest)
		return nil
	case !f.write || plan.Added() == 0:
		fmt.Fprintf(c.stderr, "nothing to add to %s\n", plan.Dest)
		return nil
	}
	return c.writeServersImport(plan, home, f.to == "")
}

// planServersImport reads file and plans its import into the --to file,
// or the app's servers file, keeping its entries and the taken
// namespaces of reg.
func (c *config) planServersImport(ctx context.Context, reg *tool.Registry, f importFlags, file string) (*servers.ImportPlan, serversHome, error) {
	format, err := servers.ParseConfigFormat(f.format)
	if err != nil {
		return nil, serversHome{}, usageErr("--format: %v", err)
	}
	from, err := servers.ReadConfig(file, &servers.ConfigOptions{Format: format, Context: ctx})
	if err != nil {
		return nil, serversHome{}, badInput(err)
	}
	home := serversHome{dest: f.to}
	if f.to == "" {
		if !c.app {
			return nil, serversHome{}, usageErr("this binary has no app servers file; name the servers.json to write with --to")
		}
		if home, err = c.appServersHome(); err != nil {
			return nil, serversHome{}, err
		}
	}
	current, err := servers.ImportKept(home.current, home.dest)
	if err != nil {
		return nil, serversHome{}, badInput(err)
	}
	plan, err := servers.PlanImportInto(from, current, home.dest, servers.TakenNamespaces(reg))
	if err != nil {
		return nil, serversHome{}, badInput(err)
	}
	return plan, home, nil
}

// writeServersImport writes plan and, for the app's file (appFile), sets
// the app to use it.
func (c *config) writeServersImport(plan *servers.ImportPlan, home serversHome, appFile bool) error {
	_, statErr := os.Stat(plan.Dest)
	if err := plan.Write(); err != nil {
		return err
	}
	if statErr == nil {
		fmt.Fprintf(c.stderr, "added %d server(s) to %s (the file before is %s.bak)\n", plan.Added(), plan.Dest, plan.Dest)
	} else {
		fmt.Fprintf(c.stderr, "added %d server(s) to the new file %s\n", plan.Added(), plan.Dest)
	}
	if appFile && home.use != nil {
		if err := home.use(plan.Dest); err != nil {
			return fmt.Errorf("the servers were written, but the app could not be set to use %s: %w; choose it in Settings", plan.Dest, err)
		}
		if home.current != plan.Dest {
			fmt.Fprintf(c.stderr, "the app now uses %s (restart it if it is running)\n", plan.Dest)
		}
	}
	return nil
}

// listClientConfigs prints the other clients' config files that exist.
func (c *config) listClientConfigs() error {
	home, err := os.UserHomeDir()
	if err != nil {
		return err
	}
	n := 0
	for _, cc := range servers.ExistingClientConfigs(runtime.GOOS, home, c.getenv) {
		if n == 0 {
			fmt.Fprintln(c.stdout, "MCP config files of other clients on this computer:")
		}
		n++
		fmt.Fprintf(c.stdout, "  %-17s %s\n", cc.Client, cc.Path)
	}
	if n == 0 {
		fmt.Fprintln(c.stdout, "no MCP config file of another client (Claude Desktop, Cursor, VS Code, Windsurf, Cline, Roo Code, Amazon Q) was found in its usual place; name any file, such as a project's .mcp.json or .vscode/mcp.json: openworker servers import FILE")
		return nil
	}
	fmt.Fprintln(c.stdout, "see what one becomes with: openworker servers import FILE")
	return nil
}

func printImport(w io.Writer, p *servers.ImportPlan) {
	fmt.Fprintf(w, "%s (%s) → %s", p.From, p.Format, p.Dest)
	if p.Kept > 0 {
		kept := fmt.Sprintf("its %d entries are kept", p.Kept)
		if p.Kept == 1 {
			kept = "its 1 entry is kept"
		}
		fmt.Fprintf(w, " (%s)", kept)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ACTION\tNAME\tNAMESPACE\tTRANSPORT\tRUNS\tCOMMAND OR URL")
	for _, it := range p.Items {
		action := string(it.Action) // the words of the app's preview (docs/servers.md#import)
		switch {
		case it.Disabled && it.Action == servers.ImportAdd:
			action = "add, off"
		case it.Action == servers.ImportSame:
			action = "already there"
		}
		if it.ProgramMissing != "" && it.Action == servers.ImportAdd {
			action += ", not found"
		}
		// The whole command: a cut would hide the arguments that tell
		// servers apart.
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", action, oneLine(it.Name, 30), oneLine(it.Namespace, 30),
			nonEmpty(it.Transport, "-"), nonEmpty(it.Placement, "-"), oneLine(nonEmpty(it.Target, "-"), 4000))
	}
	tw.Flush()
	for _, n := range p.Notices {
		fmt.Fprintln(w, "notice:", n)
	}
	for _, it := range p.Items {
		if it.Why != "" {
			fmt.Fprintf(w, "skip %s: %s\n", it.Name, it.Why)
		}
		if it.ProgramMissing != "" && it.Action == servers.ImportAdd {
			fmt.Fprintf(w, "%s: its program %s is not on this computer (%s); install it before the server is used\n", it.Name, it.Program, it.ProgramMissing)
		}
		if len(it.EnvKeys) > 0 && it.Action != servers.ImportSkip {
			fmt.Fprintf(w, "%s sets %s (values not shown)\n", it.Name, strings.Join(it.EnvKeys, ", "))
		}
		if len(it.Inputs) > 0 {
			fmt.Fprintf(w, "%s asks for %s when first used (%s)\n", it.Name, strings.Join(it.Inputs, ", "), nonEmpty(it.SecretsKept, "kept where sign-ins are kept"))
		}
		for _, n := range it.Notices {
			fmt.Fprintln(w, "notice:", n)
		}
	}
}

// annotateImport adds to plan what only this computer knows: whether
// each stdio program to add is found (on the PATH servers start on), and
// where the answers to its inputs would be kept (the OS keychain, or the
// encrypted file where there is none: docs/mcp.md#without-a-keychain).
func (c *config) annotateImport(ctx context.Context, plan *servers.ImportPlan) {
	search := launch.Search{Path: launch.Default(ctx).Path}
	kept := ""
	for i := range plan.Items {
		it := &plan.Items[i]
		if it.Program != "" && it.Action == servers.ImportAdd {
			if _, err := search.Find(it.Program); err != nil {
				var nf *launch.NotFoundError
				it.ProgramMissing = "not found"
				if errors.As(err, &nf) {
					it.ProgramMissing = fmt.Sprintf("not found on the PATH searched: %s", strings.Join(search.Folders(), string(os.PathListSeparator)))
				}
			}
		}
		if len(it.Inputs) > 0 {
			if kept == "" {
				kept = c.secretsKept()
			}
			it.SecretsKept = kept
		}
	}
}

// secretsKept says where an answer to ${input:ID} would be kept now: the
// OS keychain when it answers, else the encrypted file of
// docs/mcp.md#without-a-keychain, else nowhere (asked on each run).
func (c *config) secretsKept() string {
	dir := c.secretsDir()
	k := keychain.New(keychain.Options{Dir: dir})
	if _, err := k.Get("openworker", "import-preview"); err != nil && !errors.Is(err, keychain.ErrNotFound) {
		return "not kept: no OS keychain can be written here, so it is asked on each run"
	}
	if w := k.Where(); w != "the OS keychain" {
		return "kept in the encrypted file " + w + ": there is no OS keychain here"
	}
	return "kept in the OS keychain"
}
