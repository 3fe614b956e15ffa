package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/bundle"
	"github.com/openworker/desktop/harness/mcp"
	"github.com/openworker/desktop/harness/tool"
	"github.com/spf13/cobra"
)

// CheckReport is what `check --json` prints.
type CheckReport struct {
	Coworkers string            `json:"coworkers"`
	OK        []CheckedCoworker `json:"ok"`
	Broken    []CheckedError    `json:"broken"`
}

// CheckedCoworker is one bundle that loaded and resolved.
type CheckedCoworker struct {
	ID          string                 `json:"id"`
	Name        string                 `json:"name"`
	Version     string                 `json:"version"`
	Dir         string                 `json:"dir"`
	ToolsFormat int                    `json:"tools_version"`
	Tools       []harness.ResolvedTool `json:"tools"`
}

// CheckedError is one bundle that failed to load or resolve.
type CheckedError struct {
	Dir     string `json:"dir"`
	ID      string `json:"id,omitempty"`
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
	Col     int    `json:"col,omitempty"`
	Message string `json:"message"`
}

func (c *config) checkCommand(reg *tool.Registry) *cobra.Command {
	var dir, servers string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "check --coworkers DIR [--servers FILE] [--json]",
		Short: "load every coworker bundle and resolve its tools",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if dir == "" {
				return usageErr("check needs --coworkers DIR")
			}
			rep, err := c.check(cmd.Context(), reg, dir, servers)
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
			if len(rep.Broken) > 0 {
				return &exitError{ExitUsage, fmt.Errorf("%d of %d coworker bundles in %s are broken", len(rep.Broken), len(rep.Broken)+len(rep.OK), dir)}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&dir, "coworkers", "", "the coworker bundles folder")
	cmd.Flags().StringVar(&servers, "servers", "", "servers.json naming MCP providers")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func (c *config) check(ctx context.Context, reg *tool.Registry, dir, servers string) (*CheckReport, error) {
	if servers != "" {
		if err := mcp.RegisterServersFile(reg, servers); err != nil {
			return nil, badInput(err)
		}
	}
	rt, err := harness.Open(ctx, reg, harness.Options{Coworkers: dir, RememberFailedStarts: true})
	if err != nil {
		return nil, badInput(err)
	}
	defer rt.Close()
	set, err := rt.Bundles()
	if err != nil {
		return nil, badInput(err)
	}
	rep := &CheckReport{Coworkers: dir, OK: []CheckedCoworker{}, Broken: []CheckedError{}}
	for _, le := range set.Errors {
		rep.Broken = append(rep.Broken, loadError(le))
	}
	for _, b := range set.Bundles {
		res, err := rt.Resolve(ctx, b)
		if err != nil {
			ce := CheckedError{Dir: b.Dir, ID: b.ID, File: b.Tools.File, Message: err.Error()}
			var re *harness.ResolveError
			if errors.As(err, &re) {
				ce.Line, ce.Col = re.Line, re.Col
			}
			rep.Broken = append(rep.Broken, ce)
			continue
		}
		rep.OK = append(rep.OK, CheckedCoworker{ID: b.ID, Name: b.Name, Version: b.Version, Dir: b.Dir, ToolsFormat: b.Tools.Version, Tools: res.Tools})
	}
	return rep, nil
}

func loadError(le *bundle.LoadError) CheckedError {
	return CheckedError{Dir: le.Dir, File: le.File, Line: le.Line, Col: le.Col, Message: le.Error()}
}

func printCheck(w io.Writer, rep *CheckReport) {
	for _, cw := range rep.OK {
		fmt.Fprintf(w, "ok      %s (%s, v%s, tools.json v%d)\n", cw.ID, cw.Name, cw.Version, cw.ToolsFormat)
		for _, t := range cw.Tools {
			fmt.Fprintf(w, "          %-40s → %-12s %s (alias %s)\n", t.Name, t.Provider, t.Remote, t.Alias)
		}
	}
	for _, e := range rep.Broken {
		name := e.ID
		if name == "" {
			name = filepath.Base(e.Dir)
		}
		fmt.Fprintf(w, "broken  %s\n          %s\n", name, e.Message)
	}
}
