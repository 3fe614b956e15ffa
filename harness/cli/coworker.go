package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/openworker/desktop/harness/bundle"
	"github.com/openworker/desktop/harness/tool"
	"github.com/spf13/cobra"
)

// `openworker coworker new|tools|list` (docs/cli.md#coworker): coworker
// bundles made and edited from a terminal with the library the app's
// editor uses (harness/bundle: Create, ReadDraft, Save), so a bundle made
// here is one the app edits, and the reverse.

func (c *config) coworkerCommand(reg *tool.Registry) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "coworker new|tools|list|import|export",
		Short: "make, list, change, import and export coworker bundles",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return usageErr("coworker needs a command: new, tools, list, import or export; run openworker coworker --help")
		},
	}
	cmd.AddCommand(c.coworkerNewCommand(), c.coworkerToolsCommand(), c.coworkerListCommand(), c.coworkerImportCommand(reg), c.coworkerExportCommand(reg))
	return cmd
}

func (c *config) coworkerNewCommand() *cobra.Command {
	var dir, name, description, instructionsFile, folder, modelName string
	var tools []string
	cmd := &cobra.Command{
		Use:   "new ID --coworkers DIR --name NAME [--description TEXT] [--tool QUALIFIED]... [--instructions-file FILE] [--folder DIR] [--model NAME]",
		Short: "make a new coworker bundle",
		Long: `Make a new coworker bundle <DIR>/<ID>/coworker/{manifest.md,tools.json}
(docs/bundles.md). The tools are qualified names (namespace.tool), as
tools.json version 3 holds them; they are not resolved here: run
openworker check --coworkers DIR (with --servers) to see them resolve.

Without --instructions-file the instructions are one line made of the
name and description; "-" reads them from standard input.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if dir == "" {
				return usageErr("coworker new needs --coworkers DIR")
			}
			if name == "" {
				return usageErr("coworker new needs --name NAME (what the person sees)")
			}
			d := bundle.Draft{ID: args[0], Name: name, Description: description, Tools: append([]string{}, tools...), Folder: folder, Model: modelName}
			var err error
			if d.Instructions, err = c.instructions(instructionsFile, name, description); err != nil {
				return err
			}
			if folder != "" && !filepath.IsAbs(folder) {
				abs, err := filepath.Abs(folder) // a terminal's relative path means the current folder
				if err != nil {
					return usageErr("--folder %q: %v", folder, err)
				}
				d.Folder = abs
			}
			made, err := bundle.Create(dir, d)
			if err != nil {
				return draftErr(err)
			}
			fmt.Fprintf(c.stdout, "created coworker %s at %s with %s\n", d.ID, made, countTools(len(d.Tools)))
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&dir, "coworkers", "", "the coworker bundles folder (created when missing)")
	f.StringVar(&name, "name", "", "the coworker's name, as people see it")
	f.StringVar(&description, "description", "", "one or two sentences on what it does")
	f.StringArrayVar(&tools, "tool", nil, "a tool it may use, by qualified name (repeat for more)")
	f.StringVar(&instructionsFile, "instructions-file", "", `a Markdown file with its instructions ("-": standard input)`)
	f.StringVar(&folder, "folder", "", "its working folder: its chats' workspace, offered to MCP providers as their root (docs/bundles.md#folder)")
	f.StringVar(&modelName, "model", "", "the model its chats ask the model provider for (docs/bundles.md#model)")
	return cmd
}

// instructions reads --instructions-file, or makes one line from the
// name and description.
func (c *config) instructions(file, name, description string) (string, error) {
	if file == "" {
		s := "You are " + name + "."
		if d := strings.TrimSpace(description); d != "" {
			s += " " + d
		}
		return s, nil
	}
	var data []byte
	var err error
	if file == "-" {
		data, err = io.ReadAll(io.LimitReader(c.stdin, bundle.MaxMarkdownBytes+1))
	} else {
		data, err = os.ReadFile(file)
	}
	if err != nil {
		return "", usageErr("--instructions-file: %v", err)
	}
	if len(data) > bundle.MaxMarkdownBytes {
		return "", usageErr("--instructions-file %s is larger than %d KB, the limit of manifest.md", file, bundle.MaxMarkdownBytes>>10)
	}
	return strings.TrimSpace(string(data)), nil
}

// draftFlags names the flag or argument of `coworker new` each Draft field
// comes from.
var draftFlags = map[string]string{
	bundle.FieldID: "ID", bundle.FieldName: "--name", bundle.FieldDescription: "--description", bundle.FieldTools: "--tool",
	bundle.FieldInstructions: "--instructions-file", bundle.FieldFolder: "--folder", bundle.FieldModel: "--model",
}

// draftErr words a *bundle.DraftError as one line per problem, each
// naming the flag it comes from (exit 2); other errors are runtime
// failures (exit 1).
func draftErr(err error) error {
	var de *bundle.DraftError
	if !errors.As(err, &de) {
		if errors.Is(err, bundle.ErrIDTaken) {
			return badInput(err)
		}
		return err
	}
	var lines []string
	for _, p := range de.Problems {
		msg := p.Msg
		if p.Fix != "" {
			msg += "; " + p.Fix
		}
		if f := draftFlags[p.Field]; f != "" {
			msg = f + ": " + msg
		} else {
			msg = p.Error()
		}
		lines = append(lines, msg)
	}
	return badInput(errors.New(strings.Join(lines, "\n")))
}

func countTools(n int) string {
	if n == 1 {
		return "1 tool"
	}
	return fmt.Sprintf("%d tools", n)
}

func (c *config) coworkerToolsCommand() *cobra.Command {
	var dir string
	cmd := &cobra.Command{
		Use:   "tools add|remove ID QUALIFIED... --coworkers DIR",
		Short: "give a coworker tools, or take them away",
		Long: `Add tools to the tools.json of coworker ID, or remove them, by qualified
name. A removed tool's policy entry goes with it, and a provider of the
sampling list none of whose tools is left. tools.json is written as
version 3; a version 1 file (whole providers) must be converted first.`,
		Args: cobra.MinimumNArgs(3),
		RunE: func(cmd *cobra.Command, args []string) error {
			if dir == "" {
				return usageErr("coworker tools needs --coworkers DIR")
			}
			op, id, names := args[0], args[1], args[2:]
			if op != "add" && op != "remove" {
				return usageErr("coworker tools %q: use add or remove", op)
			}
			return c.editTools(dir, op, id, names)
		},
	}
	cmd.Flags().StringVar(&dir, "coworkers", "", "the coworker bundles folder")
	return cmd
}

func (c *config) editTools(dir, op, id string, names []string) error {
	if !bundle.IDPattern.MatchString(id) {
		return usageErr("coworker id %q is not valid", id)
	}
	bdir := filepath.Join(dir, id)
	d, _, err := bundle.ReadDraft(bdir)
	if err != nil {
		return badInput(fmt.Errorf("no coworker %q in %s: %w", id, dir, err))
	}
	if len(d.WholeProviders) > 0 {
		return badInput(fmt.Errorf("coworker %q selects every tool of %s (tools.json version 1), which version 3 cannot name; list the tools you want in %s as version 3 (openworker check --coworkers %s --servers FILE lists them), then add or remove",
			id, strings.Join(d.WholeProviders, ", "), filepath.Join(bdir, "coworker", "tools.json"), dir))
	}
	var changed, same []string
	for _, n := range names {
		has := slices.Contains(d.Tools, n)
		switch {
		case op == "add" && !has:
			d.Tools = append(d.Tools, n)
			changed = append(changed, n)
		case op == "remove" && has:
			d.Tools = slices.DeleteFunc(d.Tools, func(t string) bool { return t == n })
			changed = append(changed, n)
		default:
			same = append(same, n)
		}
	}
	if op == "remove" {
		if len(same) > 0 {
			return badInput(fmt.Errorf("coworker %q does not select %s; its tools: %s", id, strings.Join(same, ", "), listOrNone(d.Tools)))
		}
		dropUnselected(&d)
	}
	if len(changed) > 0 {
		if err := bundle.Save(bdir, d); err != nil {
			return toolsErr(err)
		}
	}
	verb := map[string]string{"add": "added", "remove": "removed"}[op]
	if len(changed) > 0 {
		fmt.Fprintf(c.stdout, "%s %s; coworker %s now has %s\n", verb, strings.Join(changed, ", "), id, countTools(len(d.Tools)))
	}
	if len(same) > 0 {
		fmt.Fprintf(c.stdout, "coworker %s selects %s already\n", id, strings.Join(same, ", "))
	}
	return nil
}

// dropUnselected removes the policy entries and sampling providers that
// name no selected tool any more.
func dropUnselected(d *bundle.Draft) {
	providers := map[string]bool{}
	for _, t := range d.Tools {
		if ns, _, err := tool.SplitName(t); err == nil {
			providers[ns] = true
		}
	}
	for n := range d.Policy {
		if n != "*" && !slices.Contains(d.Tools, n) {
			delete(d.Policy, n)
		}
	}
	d.Sampling = slices.DeleteFunc(d.Sampling, func(ns string) bool { return !providers[ns] })
}

// toolsErr words a failed save of `coworker tools`: the problems with
// their files, lines and fixes (exit 2).
func toolsErr(err error) error {
	var de *bundle.DraftError
	if !errors.As(err, &de) {
		return err
	}
	var lines []string
	for _, p := range de.Problems {
		lines = append(lines, p.Error())
	}
	return badInput(fmt.Errorf("nothing was changed:\n%s", strings.Join(lines, "\n")))
}

func listOrNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// listedCoworker is one line of `coworker list`.
type listedCoworker struct {
	ID          string              `json:"id"`
	Name        string              `json:"name"`
	Description string              `json:"description"`
	Dir         string              `json:"dir"`
	Tools       []string            `json:"tools"`
	ToolCount   int                 `json:"tool_count"`
	Whole       []string            `json:"whole_providers,omitempty"`
	Problems    []*bundle.LoadError `json:"problems"`
	Link        string              `json:"link,omitempty"` // the target of a linked coworker
}

func (c *config) coworkerListCommand() *cobra.Command {
	var dir string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list --coworkers DIR [--json]",
		Short: "list the coworker bundles of a folder, broken ones with their problems",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if dir == "" {
				return usageErr("coworker list needs --coworkers DIR")
			}
			list, err := listCoworkers(dir)
			if err != nil {
				return badInput(err)
			}
			if asJSON {
				enc := json.NewEncoder(c.stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(list)
			}
			printCoworkers(c.stdout, list)
			if len(list) == 0 {
				fmt.Fprintf(c.stderr, "no coworker bundles in %s: each coworker is a folder <id>/coworker/ with manifest.md and tools.json (see docs/bundles.md)\n", dir)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&dir, "coworkers", "", "the coworker bundles folder")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

// listCoworkers reads every folder of dir that LoadDir would load (not
// those starting with ".", so not the trash), sorted by folder name.
func listCoworkers(dir string) ([]listedCoworker, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("coworkers folder %s cannot be read: %w", dir, err)
	}
	list := []listedCoworker{}
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if st, err := os.Stat(p); err != nil || !st.IsDir() {
			continue
		}
		d, problems, err := bundle.ReadDraft(p)
		if err != nil {
			problems = []*bundle.LoadError{{Dir: p, File: p, Msg: err.Error()}}
		}
		lc := listedCoworker{ID: d.ID, Name: d.Name, Description: d.Description, Dir: p, Tools: append([]string{}, d.Tools...),
			ToolCount: len(d.Tools), Whole: d.WholeProviders, Problems: append([]*bundle.LoadError{}, problems...)}
		if lc.ID == "" {
			lc.ID = e.Name()
		}
		if t, ok := bundle.LinkTarget(p); ok {
			lc.Link = t
		}
		list = append(list, lc)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Dir < list[j].Dir })
	return list, nil
}

func printCoworkers(w io.Writer, list []listedCoworker) {
	for _, lc := range list {
		state := "ok"
		if len(lc.Problems) > 0 {
			state = "broken"
		}
		tools := countTools(lc.ToolCount)
		if len(lc.Whole) > 0 {
			tools = "every tool of " + strings.Join(lc.Whole, ", ")
		}
		fmt.Fprintf(w, "%-7s %s (%s): %s\n", state, lc.ID, oneLine(lc.Name, 80), tools)
		if d := oneLine(lc.Description, 160); d != "" {
			fmt.Fprintf(w, "          %s\n", d)
		}
		if lc.Link != "" {
			fmt.Fprintf(w, "          linked to %s\n", lc.Link)
		}
		for _, p := range lc.Problems {
			fmt.Fprintf(w, "          %s\n", p.Error())
		}
	}
}
