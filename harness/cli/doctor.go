package cli

import (
	"errors"
	"io"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/doctor"
	"github.com/openworker/desktop/harness/tool"
	"github.com/spf13/cobra"
)

// WithDoctor sets what `openworker doctor` asks the binary
// (doctor.Hooks): the product's main.go gives the desktop app's Desktop
// facts (the webview runtime, the notification back end); a partner
// binary fills what it knows. The fields it sets win over
// WithAppSettings'.
func WithDoctor(h doctor.Hooks) Option { return func(c *config) { c.doctor = h } }

// doctorHooks are WithDoctor's hooks, with the app's (doctor.AppHooks)
// where those are nil and the binary is the app's (WithAppSettings).
func (c *config) doctorHooks() doctor.Hooks {
	h := c.doctor
	if !c.app {
		return h
	}
	app := doctor.AppHooks(c.appDir, c.getenv)
	if h.Keychain == nil {
		h.Keychain = app.Keychain
	}
	if h.JournalPath == nil {
		h.JournalPath = app.JournalPath
	}
	if h.ServersFile == nil {
		h.ServersFile = app.ServersFile
	}
	if h.Secrets == nil {
		h.Secrets = app.Secrets
	}
	if h.Sections == nil {
		h.Sections = app.Sections
	}
	return h
}

func (c *config) doctorCommand(reg *tool.Registry) *cobra.Command {
	var db, servers, format string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "doctor [--db FILE] [--servers FILE [--format FORMAT]] [--json]",
		Short: "print what a bug report needs: OS, webview, notifications, keychain, PATH, journal, providers (no secrets)",
		Long: `Print what a bug report needs: the OS and its version, the webview
runtime, the notification back end and whether it works, the keychain,
the PATH commands are searched in, the journal and its checks, and each
MCP provider with whether it starts. Secrets (API keys, the values of
servers' env and headers, passwords and query values of URLs) are never
printed (docs/cli.md#doctor). Exit 0 even when a check fails: the report
is the result.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			hooks := c.doctorHooks()
			if servers == "" && hooks.ServersFile != nil {
				servers = hooks.ServersFile()
			}
			if db == "" {
				db = harness.DefaultDBPath()
				if hooks.JournalPath != nil {
					db = hooks.JournalPath()
				}
			}
			in := doctor.Input{Version: harness.BuildVersion(c.version), Hooks: hooks, JournalPath: db, Getenv: c.getenv, Tokens: c.tokenStore()}
			if servers != "" {
				cfg, err := c.registerServers(ctx, reg, servers, format, false)
				var ee *exitError
				if errors.As(err, &ee) || errors.Is(err, tool.ErrFrozen) { // a bad --format
					return err
				}
				in.ServersFile = servers
				if cfg == nil && err != nil {
					in.ServersErr = err
				}
			}
			in.Servers, in.Broken, in.Agents = reg.Servers(), reg.Broken(), reg.Agents()
			rep := doctor.Diagnose(ctx, in)
			if asJSON {
				return writeJSON(c.stdout, rep)
			}
			_, err := io.WriteString(c.stdout, rep.Text())
			return err
		},
	}
	cmd.Flags().StringVar(&db, "db", "", "the journal file (default: the app's, else "+harness.DefaultDBPath()+")")
	cmd.Flags().StringVar(&servers, "servers", "", "the servers file whose providers are started (default: the app's)")
	cmd.Flags().StringVar(&format, "format", "", formatUsage())
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON: {\"sections\": [{\"name\", \"facts\": [{\"key\", \"status\", \"value\"}]}]}")
	return cmd
}
