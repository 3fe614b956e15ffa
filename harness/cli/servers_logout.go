package cli

import (
	"fmt"

	"github.com/openworker/desktop/harness/servers"
	"github.com/openworker/desktop/harness/tool"
	"github.com/spf13/cobra"
)

// logoutCommand is `openworker servers logout NS` (docs/cli.md#servers-logout):
// it deletes the sign-in (access and refresh tokens) of the remote server
// NS of the servers file from the OS keychain (or the encrypted file of
// docs/mcp.md#without-a-keychain).
func (c *config) logoutCommand() *cobra.Command {
	var serversFile, format string
	cmd := &cobra.Command{
		Use:   "logout NAMESPACE [--servers FILE]",
		Short: "sign out of a remote MCP server: delete its tokens from the OS keychain",
		Long: `Delete the tokens OpenWorker keeps in the OS keychain (or, where there
is none, in its encrypted secrets file) for the remote
MCP server NAMESPACE of the servers file (default: the app's). The next
use of the server asks you to sign in again (docs/mcp.md#sign-in). The
tokens are not revoked at the authorization server; sign out there too
to end the grant.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ns := args[0]
			if serversFile == "" && c.app {
				if home, err := c.appServersHome(); err == nil {
					serversFile = home.current
				}
			}
			if h := c.doctorHooks(); serversFile == "" && h.ServersFile != nil {
				serversFile = h.ServersFile()
			}
			if serversFile == "" {
				return usageErr("name the servers file with --servers FILE")
			}
			f, err := servers.ParseConfigFormat(format)
			if err != nil {
				return usageErr("--format: %v", err)
			}
			cfg, err := servers.ReadConfig(serversFile, &servers.ConfigOptions{Format: f, Context: cmd.Context()})
			if err != nil {
				return badInput(err)
			}
			var srv *tool.MCPServer
			for i := range cfg.Entries {
				if cfg.Entries[i].Server.Namespace == ns {
					srv = &cfg.Entries[i].Server
				}
			}
			switch {
			case srv == nil:
				return badInput(fmt.Errorf("%s has no server %q; the namespaces are the names of its \"servers\"", serversFile, ns))
			case srv.Transport != tool.TransportStreamableHTTP || srv.URL == "":
				return badInput(fmt.Errorf("server %q (%s) is not a remote streamable HTTP server: it has no sign-in", ns, srv.Source))
			}
			store := c.tokenStore()
			g, err := store.Delete(srv.URL)
			if err != nil {
				return err
			}
			where := "the OS keychain"
			if w, ok := store.(interface{ Where() string }); ok {
				where = w.Where()
			}
			if g == nil {
				fmt.Fprintf(c.stdout, "%s is not signed in; nothing to delete\n", ns)
				return nil
			}
			fmt.Fprintf(c.stdout, "signed out of %s: the tokens %s issued were deleted from %s\n", ns, g.Issuer, where)
			return nil
		},
	}
	cmd.Flags().StringVar(&serversFile, "servers", "", "the servers file naming NAMESPACE (default: the app's)")
	cmd.Flags().StringVar(&format, "format", "", formatUsage())
	return cmd
}
