package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/openworker/desktop/harness/agentimport"
	"github.com/openworker/desktop/harness/servers"
	"github.com/openworker/desktop/harness/tool"
	"github.com/spf13/cobra"
)

// `openworker coworker import|export` (docs/cli.md#coworker-import):
// agents of other hosts, skills, plugins and exported coworkers brought
// in with the library the app's import uses (harness/agentimport), and a
// coworker exported to one .zip.

// coworkerImportFlags are the flags of coworker import.
type coworkerImportFlags struct {
	dir, into, serversFile string
	dryRun, asJSON         bool
}

// coworkerImportCommand is "openworker coworker import".
func (c *config) coworkerImportCommand(reg *tool.Registry) *cobra.Command {
	var f coworkerImportFlags
	cmd := &cobra.Command{
		Use:   "import PATH... --coworkers DIR [--into ID] [--servers FILE] [--dry-run] [--json]",
		Short: "import agents, recipes, skills, plugins and exported coworkers as coworkers",
		Long: `Import the agents people already have as coworkers (docs/import-agents.md):
Claude Code subagents (.claude/agents/*.md), VS Code / Copilot agents
(*.agent.md) and chat modes (*.chatmode.md), Goose recipes (.yaml,
.json), Agent Skills (a folder with SKILL.md, or a .zip), Claude Code
plugins (a folder with .claude-plugin/plugin.json) and coworkers
exported with openworker coworker export (.zip). A folder of agent
files (such as .claude/agents) is read file by file.

It first shows what it does: each coworker made, the tools its source
names mapped to this OpenWorker's (and those that do not map, with why:
they are not granted), its skills, the fields left out, and the MCP
servers the sources bring, added to the servers file through the
servers import. With --dry-run nothing is written. Source files are
never changed; the import is all or nothing.

Skills go into the coworker --into names; without it, a skill becomes a
new coworker holding it. Servers go to --servers FILE (an OpenWorker
servers.json), else to the app's servers file.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return c.coworkerImport(reg, f, args)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&f.dir, "coworkers", "", "the coworker bundles folder to import into (created when missing)")
	fs.StringVar(&f.into, "into", "", "the coworker skills go into (by id); without it a skill becomes a new coworker")
	fs.StringVar(&f.serversFile, "servers", "", "the servers.json MCP servers the sources bring are added to (default: the app's)")
	fs.BoolVar(&f.dryRun, "dry-run", false, "show what would be imported, and write nothing")
	fs.BoolVar(&f.asJSON, "json", false, "print the preview (and what was written) as JSON")
	return cmd
}

// coworkerImport previews the import of paths, shows the plan and,
// unless it is a dry run or refused, applies it.
func (c *config) coworkerImport(reg *tool.Registry, f coworkerImportFlags, paths []string) error {
	if f.dir == "" {
		return usageErr("coworker import needs --coworkers DIR")
	}
	target, err := c.importServersTarget(reg, f.serversFile)
	if err != nil {
		return err
	}
	plan, err := agentimport.Preview(paths, &agentimport.Options{Coworkers: f.dir, Into: f.into, Catalog: agentimport.RegistryCatalog(reg), Servers: target})
	if err != nil {
		return usageErr("%v", err)
	}
	if !f.asJSON {
		printImportPlan(c.stdout, plan)
		printImportHints(c.stderr, plan, f.serversFile, f.into)
	}
	if f.dryRun || plan.Refused() {
		return c.endImportPreview(plan, f.asJSON)
	}
	res, err := agentimport.Apply(plan)
	if err != nil {
		var re *agentimport.RefusedError
		if errors.As(err, &re) {
			return badInput(err)
		}
		return err
	}
	return c.reportImport(f, plan, res, target)
}

// endImportPreview ends an import that writes nothing: a dry run, or a
// refused plan, which fails.
func (c *config) endImportPreview(plan *agentimport.Plan, asJSON bool) error {
	if asJSON {
		if err := writeJSON(c.stdout, plan); err != nil {
			return err
		}
	}
	if plan.Refused() {
		if asJSON {
			return badInput(fmt.Errorf("the import is refused, and nothing was written: %s", strings.Join(plan.Problems, "\n")))
		}
		return badInput(fmt.Errorf("the import is refused (%d problem(s) above), and nothing was written", len(plan.Problems)))
	}
	fmt.Fprintln(c.stderr, "nothing written (--dry-run)")
	return nil
}

// reportImport says what an applied import wrote and, when it added
// servers to the app's file, makes the app use that file.
func (c *config) reportImport(f coworkerImportFlags, plan *agentimport.Plan, res *agentimport.Result, target *agentimport.ServersTarget) error {
	if f.asJSON {
		if err := writeJSON(c.stdout, struct {
			*agentimport.Plan
			Written *agentimport.Result `json:"written"`
		}{plan, res}); err != nil {
			return err
		}
	}
	printImportResult(c.stderr, f.dir, res)
	if f.serversFile == "" && res.ServersAdded > 0 && target != nil && c.app {
		if err := c.useAppServers(target); err != nil {
			return err
		}
	}
	return nil
}

// importServersTarget is where imported servers go: --servers FILE, else
// the app's servers file, else nowhere.
func (c *config) importServersTarget(reg *tool.Registry, file string) (*agentimport.ServersTarget, error) {
	taken := servers.TakenNamespaces(reg)
	if file != "" {
		return &agentimport.ServersTarget{Current: file, Dest: file, Taken: taken}, nil
	}
	if !c.app {
		return nil, nil
	}
	home, err := c.appServersHome()
	if err != nil {
		return nil, err
	}
	return &agentimport.ServersTarget{Current: home.current, Dest: home.dest, Taken: taken}, nil
}

// useAppServers makes the app use the servers file an import wrote.
func (c *config) useAppServers(t *agentimport.ServersTarget) error {
	home, err := c.appServersHome()
	if err != nil || home.use == nil {
		return err
	}
	if err := home.use(t.Dest); err != nil {
		return fmt.Errorf("the servers were written, but the app could not be set to use %s: %w; choose it in Settings", t.Dest, err)
	}
	if home.current != t.Dest {
		fmt.Fprintf(c.stderr, "the app now uses %s (restart it if it is running)\n", t.Dest)
	}
	return nil
}

// kindWords names each kind for people.
var kindWords = map[agentimport.Kind]string{
	agentimport.KindClaudeAgent: "Claude Code subagent", agentimport.KindVSCodeAgent: "VS Code agent",
	agentimport.KindVSCodeChatMode: "VS Code chat mode", agentimport.KindGooseRecipe: "Goose recipe",
	agentimport.KindSkill: "Agent Skill", agentimport.KindClaudePlugin: "Claude Code plugin", agentimport.KindExport: "exported coworker",
}

// printImportPlan writes what an import does: each coworker, the servers
// it brings, the sources' notes and the problems.
func printImportPlan(w io.Writer, p *agentimport.Plan) {
	for _, cw := range p.Coworkers {
		printImportCoworker(w, cw)
	}
	if p.Servers != nil {
		printImport(w, p.Servers)
	}
	for _, s := range p.Sources {
		for _, n := range s.Notes {
			fmt.Fprintf(w, "source  %s: %s\n", s.Path, n)
		}
	}
	for _, pr := range p.Problems {
		fmt.Fprintf(w, "problem %s\n", pr)
	}
}

// printImportCoworker writes one coworker of an import plan: made or
// added to, its tools, skills, model, ignored fields and notes.
func printImportCoworker(w io.Writer, cw *agentimport.Coworker) {
	if cw.Into {
		fmt.Fprintf(w, "into    %s (%s): adds skills %s\n", cw.ID, oneLine(cw.Name, 80), strings.Join(cw.Skills, ", "))
	} else {
		fmt.Fprintf(w, "new     %s (%s), from the %s %s\n", cw.ID, oneLine(cw.Name, 80), kindWords[cw.Kind], cw.Source)
	}
	if d := oneLine(cw.Description, 160); d != "" && !cw.Into {
		fmt.Fprintf(w, "          %s\n", d)
	}
	printImportTools(w, cw)
	if len(cw.Skills) > 0 && !cw.Into {
		fmt.Fprintf(w, "          skills  %s\n", strings.Join(cw.Skills, ", "))
	}
	if cw.Model != "" {
		fmt.Fprintf(w, "          model   %s\n", cw.Model)
	}
	for _, ig := range cw.Ignored {
		at := ""
		if ig.Line > 0 {
			at = fmt.Sprintf(" (line %d)", ig.Line)
		}
		fmt.Fprintf(w, "          ignored %s%s: %s\n", ig.Field, at, ig.Reason)
	}
	for _, n := range cw.Notes {
		fmt.Fprintf(w, "          note    %s\n", n)
	}
}

// printImportTools writes a coworker's tools mapped to this OpenWorker's,
// and those not granted with why.
func printImportTools(w io.Writer, cw *agentimport.Coworker) {
	for _, m := range cw.Mapped {
		how := "verified"
		if !m.Verified {
			how = "not verified"
		}
		to := strings.Join(m.To, ", ")
		if to == "" {
			to = "(tools.json version 1)"
		}
		fmt.Fprintf(w, "          tool    %s → %s (%s)\n", m.From, to, how)
		if m.Note != "" {
			fmt.Fprintf(w, "                  %s\n", m.Note)
		}
	}
	for _, u := range cw.Unmapped {
		fmt.Fprintf(w, "          not granted %s: %s\n", u.Tool, u.Reason)
	}
}

// printImportHints adds the CLI's flags to what the plan says in words.
func printImportHints(w io.Writer, p *agentimport.Plan, serversFile, into string) {
	noServers := false
	for _, s := range p.Sources {
		for _, n := range s.Notes {
			noServers = noServers || strings.Contains(n, "no servers file was given")
		}
	}
	if serversFile == "" && noServers {
		fmt.Fprintln(w, "hint: name the servers.json to add the servers to with --servers FILE")
	}
	if into == "" {
		for _, cw := range p.Coworkers {
			if cw.Kind == agentimport.KindSkill {
				fmt.Fprintln(w, "hint: to add the skills to an existing coworker instead, give --into ID")
				break
			}
		}
	}
	for _, cw := range p.Coworkers {
		if len(cw.Unmapped) > 0 && !cw.Into {
			fmt.Fprintf(w, "hint: add tools later with openworker coworker tools add %s NAMESPACE.TOOL --coworkers DIR\n", cw.ID)
			break
		}
	}
}

func printImportResult(w io.Writer, dir string, r *agentimport.Result) {
	var made, into []string
	for _, cw := range r.Coworkers {
		if cw.Into {
			into = append(into, fmt.Sprintf("skills %s into %s", strings.Join(cw.Skills, ", "), cw.ID))
		} else {
			made = append(made, cw.ID)
		}
	}
	if len(made) > 0 {
		fmt.Fprintf(w, "imported %d coworker(s) into %s: %s\n", len(made), dir, strings.Join(made, ", "))
	}
	for _, s := range into {
		fmt.Fprintf(w, "added %s\n", s)
	}
	if r.ServersAdded > 0 {
		fmt.Fprintf(w, "added %d server(s) to %s\n", r.ServersAdded, r.ServersFile)
	}
}

func (c *config) coworkerExportCommand(reg *tool.Registry) *cobra.Command {
	var dir, out, serversFile string
	cmd := &cobra.Command{
		Use:   "export ID --coworkers DIR -o FILE.zip [--servers FILE]",
		Short: "write a coworker and the servers it needs to one .zip, without secrets",
		Long: `Write coworker ID to one .zip (docs/import-agents.md#export): its bundle
and the entries of the servers file for the providers its tools name,
each value that may be a secret (a token in env, headers, arguments or
the URL) replaced by an input the importer is asked for once.
openworker coworker import FILE.zip, or a drop on the app's window,
installs it elsewhere. The servers come from --servers FILE, else from
the app's servers file.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if dir == "" {
				return usageErr("coworker export needs --coworkers DIR")
			}
			if out == "" {
				return usageErr("coworker export needs -o FILE.zip")
			}
			if serversFile == "" && c.app {
				if home, err := c.appServersHome(); err == nil {
					serversFile = home.current
				}
			}
			cat := agentimport.RegistryCatalog(reg)
			ex, err := agentimport.Export(dir, args[0], out, &agentimport.ExportOptions{Servers: serversFile,
				BuiltIn: func(ns string) bool { _, known := cat.Provider(ns); return known }})
			if err != nil {
				if _, statErr := os.Stat(dir); statErr != nil {
					return badInput(fmt.Errorf("coworkers folder %s: %w", dir, statErr))
				}
				return badInput(err)
			}
			fmt.Fprintf(c.stdout, "exported coworker %s to %s\n", ex.ID, ex.File)
			if len(ex.Servers) > 0 {
				fmt.Fprintf(c.stdout, "  with the servers entries %s\n", strings.Join(ex.Servers, ", "))
			}
			for _, in := range ex.Inputs {
				fmt.Fprintf(c.stdout, "  %s of %s is a secret: the importer is asked for it (input %s)\n", in.Field, in.Namespace, in.Input)
			}
			for _, l := range ex.LeftOut {
				fmt.Fprintf(c.stdout, "  not included: %s\n", l)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&dir, "coworkers", "", "the coworker bundles folder")
	f.StringVarP(&out, "output", "o", "", "the .zip to write")
	f.StringVar(&serversFile, "servers", "", "the servers file the coworker's servers are taken from (default: the app's)")
	return cmd
}
