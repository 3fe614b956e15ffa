package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/openworker/desktop/harness/extension"
	"github.com/openworker/desktop/harness/sandbox"
	"github.com/openworker/desktop/harness/tool"
)

// sandboxChoice reads the value of --sandbox and of `extension sandbox`:
// "default" is the default preset, "off" none (docs/extensions.md#sandbox).
func sandboxChoice(v string) (*tool.Sandbox, error) {
	switch v {
	case tool.PresetDefault:
		return tool.DefaultSandbox(), nil
	case "off":
		return nil, nil
	}
	return nil, fmt.Errorf("the sandbox is %q; write default (reads system files and its own folder, writes only in the workspace, its temp folder and the folders of its settings, no network) or off (runs with your full access)", v)
}

// sandboxCommand is `openworker extension sandbox NAME default|off`
// (docs/cli.md#extension).
func (c *config) sandboxCommand(dir *string) *cobra.Command {
	return &cobra.Command{
		Use:   "sandbox NAME default|off",
		Short: "run an installed extension's server in the default sandbox, or with your full access",
		Long: `Set the sandbox of the installed extension NAME (docs/sandbox.md):
default reads system files and its own folder, writes only in the
workspace, its temp folder and the folders of its settings, and has no
network; off runs it with your full access. New chats use it; open ones
keep what they started with.`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := sandboxChoice(args[1])
			if err != nil {
				return usageErr("%v", err)
			}
			if err := sandbox.Supported(p); err != nil {
				return &exitError{ExitFailure, fmt.Errorf("extension %s cannot run in that sandbox here: %w", args[0], err)}
			}
			r, err := c.extensionStore(*dir).SetSandbox(args[0], p)
			if err != nil {
				return badInput(err)
			}
			fmt.Fprintf(c.stdout, "extension %s %s\n", r.Name, extensionAccess(r))
			return nil
		},
	}
}

// extensionAccess is the extension's sandbox in words, or that it runs
// with full access.
func extensionAccess(r extension.Record) string {
	if r.Sandbox == nil {
		return tool.FullAccess
	}
	return "runs " + r.Sandbox.Words()
}

// sandboxColumn is the SANDBOX column of `extension list`: default,
// custom or off.
func sandboxColumn(r extension.Record) string {
	switch {
	case r.Sandbox == nil:
		return "off"
	case r.Sandbox.Preset == tool.PresetDefault:
		return "default"
	}
	return "custom"
}
