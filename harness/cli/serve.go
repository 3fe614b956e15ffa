package cli

import (
	"context"
	"fmt"

	"github.com/openworker/desktop/harness/protocol"
	"github.com/openworker/desktop/harness/tool"
	"github.com/spf13/cobra"
)

func (c *config) serveCommand(reg *tool.Registry) *cobra.Command {
	var f runFlags
	var stdio bool
	cmd := &cobra.Command{
		Use:   "serve --stdio --coworkers DIR [flags]",
		Short: "speak the harness protocol (JSON lines) on stdin and stdout",
		Long: `Speak the harness protocol on stdin and stdout, for a UI that keeps the
harness in a separate process. See docs/stdio-protocol.md. Approvals are
asked through approval.required events unless --approve bypass; a remote
server's sign-in through signin.required events (the client opens the
sign-in page, or answers "open" and serve opens the system browser).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !stdio {
				return usageErr("serve needs --stdio (the only transport)")
			}
			return c.serve(cmd.Context(), reg, f)
		},
	}
	f.register(cmd, "approval mode: ask (send approval.required events and wait for approval.respond) or bypass")
	cmd.Flags().BoolVar(&stdio, "stdio", false, "serve on stdin and stdout")
	return cmd
}

func (c *config) serve(ctx context.Context, reg *tool.Registry, f runFlags) error {
	srv := protocol.NewServer(c.stdout)
	srv.SetBrowser(c.browser()) // signin.respond "open"
	rt, so, err := c.openRuntime(ctx, reg, f, srv)
	if err != nil {
		return err
	}
	defer rt.Close()
	fmt.Fprintf(c.stderr, "openworker: serving the harness protocol on stdio (model %s)\n", so.Model.Describe())
	if err := srv.Serve(ctx, rt, so, c.stdin); err != nil && ctx.Err() == nil {
		return err
	}
	return nil
}
