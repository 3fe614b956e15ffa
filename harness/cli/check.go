package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/extension"
	"github.com/openworker/desktop/harness/mcp/launch"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/servers"
	"github.com/openworker/desktop/harness/tool"
	"github.com/spf13/cobra"
)

func (c *config) checkCommand(reg *tool.Registry) *cobra.Command {
	var dir, serversFile, extensions, provider, format, workspace string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "check --coworkers DIR [--servers FILE [--format FORMAT]] [--workspace DIR] [--provider openai|anthropic] [--json]",
		Short: "load every coworker bundle and resolve its tools",
		Long: `Load every coworker bundle and resolve its tools, as run would.

Each tool's model alias is checked against the tool-name rule of the model
provider named by --provider (the one run would use); without it, against
the rule both providers share. A whole provider's tool (tools.json
version 1) whose name the rule refuses is left out with a warning.

A tool whose provider is an installed extension (--extensions) names the
extension under its bundle; a bundle whose extension cannot run says
what to install (docs/cli.md#check).

--workspace offers a folder to the MCP providers as their root, as run
--workspace does: some servers list a tool only then.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if dir == "" {
				return usageErr("check needs --coworkers DIR")
			}
			rule, err := model.ToolNames(provider)
			if err != nil {
				return usageErr("--provider %q: use openai or anthropic", provider)
			}
			if workspace != "" {
				if st, err := os.Stat(workspace); err != nil || !st.IsDir() {
					return usageErr("--workspace %q is not a folder", workspace)
				}
			}
			rep, err := c.check(cmd.Context(), reg, checkArgs{dir: dir, serversFile: serversFile, extensions: extensions, format: format, workspace: workspace}, rule)
			if err != nil {
				return err
			}
			if len(rep.OK)+len(rep.Broken) == 0 {
				fmt.Fprintf(c.stderr, "no coworker bundles in %s: each coworker is a folder <id>/coworker/ with manifest.md and tools.json (see docs/bundles.md)\n", dir)
			}
			if asJSON {
				enc := json.NewEncoder(c.stdout)
				enc.SetIndent("", "  ")
				if err := enc.Encode(rep); err != nil {
					return err
				}
			} else {
				printCheck(c.stdout, rep)
			}
			if len(rep.Broken) > 0 || len(rep.BrokenServers) > 0 {
				msg := fmt.Sprintf("%d of %d coworker bundles in %s are broken", len(rep.Broken), len(rep.Broken)+len(rep.OK), dir)
				if n := len(rep.BrokenServers); n > 0 {
					msg += brokenServersSummary(rep.BrokenServers)
				}
				return &exitError{ExitUsage, errors.New(msg)}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&dir, "coworkers", "", "the coworker bundles folder")
	cmd.Flags().StringVar(&serversFile, "servers", "", "servers.json, or another MCP client's config file, naming MCP providers (docs/servers.md)")
	cmd.Flags().StringVar(&format, "format", "", formatUsage())
	cmd.Flags().StringVar(&extensions, "extensions", "", extensionsUsage)
	cmd.Flags().StringVar(&workspace, "workspace", "", "a folder offered to the MCP providers as their root, as run --workspace does (docs/mcp.md#roots)")
	cmd.Flags().StringVar(&provider, "provider", "", "apply the tool-name rule of this model provider: openai or anthropic (default: the rule both share)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

// checkReport is what check prints: the harness report and the installed
// extensions as providers (docs/cli.md#check).
type checkReport struct {
	*harness.CheckReport
	// Extensions are the installed, enabled extensions, each with the
	// coworkers that use it (extension.Provider).
	Extensions []extension.Provider `json:"extensions,omitempty"`
}

// checkArgs are check's flags.
type checkArgs struct{ dir, serversFile, extensions, format, workspace string }

func (c *config) check(ctx context.Context, reg *tool.Registry, a checkArgs, rule model.NameRule) (*checkReport, error) {
	dir, serversFile, extensions, format := a.dir, a.serversFile, a.extensions, a.format
	var cfg *servers.Config
	if serversFile != "" {
		var err error
		cfg, err = c.registerServers(ctx, reg, serversFile, format, true)
		var ee *exitError
		if errors.As(err, &ee) || errors.Is(err, tool.ErrFrozen) {
			return nil, err
		}
		// Every other problem is recorded in reg and reported below.
	} else if format != "" {
		return nil, usageErr("--format names the format of the --servers file; give --servers FILE too")
	}
	if extensions == "" && c.extensionsHome != nil {
		extensions = c.extensionsHome()
	}
	if err := c.registerExtensions(reg, extensions); err != nil {
		return nil, err
	}
	rt, err := harness.Open(ctx, reg, harness.Options{Coworkers: dir, RememberFailedStarts: true, SignIn: c.signIn(), Workspace: a.workspace, StartsFile: c.startsFile()})
	if err != nil {
		return nil, badInput(err)
	}
	defer rt.Close()
	rep, err := rt.Check(ctx, dir, rule)
	if err != nil {
		return nil, badInput(err)
	}
	for i := range rep.Broken {
		if rep.Broken[i].Fix == harness.WorkspaceFix {
			rep.Broken[i].Fix += ": " + workspaceHint
		}
	}
	if ctx.Err() != nil { // Ctrl-C: what did not finish is not broken
		return nil, &exitError{ExitFailure, fmt.Errorf("check was interrupted before every bundle was resolved; nothing is reported (%w)", context.Cause(ctx))}
	}
	if cfg != nil {
		rep.Notices = cfg.AllNotices()
	}
	out := &checkReport{CheckReport: rep}
	if extensions != "" {
		search := launch.Search{Path: launch.Default(ctx).Path} // the PATH harness.Open starts programs on
		out.Extensions = extension.Annotate(ctx, rep, reg, c.extensionStore(extensions).Providers(), extensions, search, "run check again")
	}
	return out, nil
}

// brokenServersSummary is the part of check's error about broken
// providers: the servers file's or an extension's, the first named.
func brokenServersSummary(bs []harness.CheckedServer) string {
	b := bs[0]
	where := b.Source
	switch {
	case b.File != "" && b.Line > 0:
		where = fmt.Sprintf("%s:%d:%d", b.File, b.Line, b.Col)
	case b.File != "":
		where = b.File
	}
	n := len(bs)
	if !strings.HasPrefix(b.Label, "servers ") { // an extension's (extension.Annotate)
		if n == 1 {
			return fmt.Sprintf("; %s is broken (%s)", b.Label, where)
		}
		return fmt.Sprintf("; %d providers are broken, the first %s (%s)", n, b.Label, where)
	}
	entry := strings.TrimPrefix(b.Label, "servers ")
	switch {
	case !b.Entry:
		return "; the servers file cannot be read (" + where + ")"
	case n == 1:
		return fmt.Sprintf("; the servers file's %s is broken (%s)", entry, where)
	}
	return fmt.Sprintf("; %d entries of the servers file are broken, the first %s (%s)", n, strings.TrimPrefix(entry, "entry "), where)
}

// printCheck writes rep for people: notices, broken servers, skipped
// files, the bundles that are ok and those that are broken.
func printCheck(w io.Writer, rep *checkReport) {
	for _, n := range rep.Notices {
		fmt.Fprintf(w, "notice  %s\n", n)
	}
	for _, s := range rep.BrokenServers {
		fmt.Fprintf(w, "broken  %s\n          %s\n", line(s.Label), line(s.Message))
		switch {
		case s.Entry && s.Namespace != "":
			fmt.Fprintf(w, "          provider %q is disabled; bundles that do not use it are checked as usual\n", s.Namespace)
		case s.Entry:
			fmt.Fprintf(w, "          this entry gives no provider; the others are checked as usual\n")
		}
	}
	for _, f := range rep.Skipped {
		fmt.Fprintf(w, "skipped %s\n          a file, not a coworker folder (<id>/coworker/manifest.md); move it out of %s or unpack it there\n", f, rep.Dir)
	}
	if len(rep.OK)+len(rep.Broken) > 0 {
		fmt.Fprintf(w, "names   %s\n", rep.NameRule)
	}
	for _, cw := range rep.OK {
		printCheckedCoworker(w, cw, rep.Extensions)
	}
	printBroken(w, rep)
}

// printCheckedCoworker writes a bundle that loaded and resolved: its
// tools, the programs they run, the extensions that provide them and
// its warnings and notices.
func printCheckedCoworker(w io.Writer, cw harness.CheckedCoworker, extensions []extension.Provider) {
	fmt.Fprintf(w, "ok      %s (%s, v%s, tools.json v%d)\n", line(cw.ID), line(cw.Name), line(cw.Version), cw.ToolsFormat)
	for _, t := range cw.Tools {
		where := ""
		if !tool.IsLocalPlacement(t.Placement) {
			where = "; calls go to " + t.Placement
		}
		fmt.Fprintf(w, "          %-40s → %-12s %s (alias %s%s)\n", line(t.Name), line(t.Provider), line(t.Remote), line(t.Alias), where)
	}
	for _, p := range programs(cw.Tools) {
		fmt.Fprintf(w, "          %s runs %s\n", line(p[0]), line(p[1]))
		if p[2] != "" {
			fmt.Fprintf(w, "          %s %s\n", line(p[0]), line(p[2])) // "runs with your full access" or "sandboxed: …"
		}
	}
	for _, e := range extension.ProvidersOf(extensions, cw.Tools) {
		fmt.Fprintf(w, "          mcp:%s is %s (%q, %s)\n", line(e.Namespace), line(e.Label), e.DisplayName, line(e.Source))
	}
	for _, l := range cw.LeftOut {
		fmt.Fprintf(w, "          warning: %s\n", line(l.Message))
	}
	for _, n := range cw.Notices {
		fmt.Fprintf(w, "          notice: %s\n", n)
	}
}

// printBroken prints the bundles of rep that did not load or resolve,
// with their fix and the command that gives a required sandbox.
func printBroken(w io.Writer, rep *checkReport) {
	for _, e := range rep.Broken {
		name := e.ID
		if name == "" {
			name = filepath.Base(e.Dir)
		}
		fmt.Fprintf(w, "broken  %s\n          %s\n", line(name), line(e.Message))
		if e.Fix != "" && !strings.Contains(e.Message, e.Fix) { // a load error's message holds its fix
			fmt.Fprintf(w, "          fix: %s\n", line(e.Fix))
		}
		if hint := sandboxHint(rep.Extensions, e.Provider); e.SandboxRequired && hint != "" {
			fmt.Fprintf(w, "          in a terminal: %s\n", hint)
		}
	}
}

// programs lists each stdio provider of tools once with the program it
// runs, as resolved (docs/mcp.md#finding-the-program), in tools order.
func programs(tools []harness.ResolvedTool) [][3]string {
	var out [][3]string
	seen := map[string]bool{}
	for _, t := range tools {
		if t.ProgramPath != "" && !seen[t.Provider] {
			seen[t.Provider] = true
			out = append(out, [3]string{t.Provider, t.ProgramPath, t.Access}) // docs/sandbox.md#in-words
		}
	}
	return out
}
