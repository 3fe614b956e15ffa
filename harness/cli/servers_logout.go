package cli

import (
	"context"
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
			serversFile = c.logoutServersFile(serversFile)
			if serversFile == "" {
				return usageErr("name the servers file with --servers FILE")
			}
			srv, err := remoteServer(cmd.Context(), serversFile, format, args[0])
			if err != nil {
				return err
			}
			return c.logout(args[0], srv)
		},
	}
	cmd.Flags().StringVar(&serversFile, "servers", "", "the servers file naming NAMESPACE (default: the app's)")
	cmd.Flags().StringVar(&format, "format", "", formatUsage())
	return cmd
}

// logoutServersFile is the servers file logout reads: --servers (file),
// else the app's, else the one of the doctor hooks; "" when there is none.
func (c *config) logoutServersFile(file string) string {
	if file == "" && c.app {
		if home, err := c.appServersHome(); err == nil {
			file = home.current
		}
	}
	if h := c.doctorHooks(); file == "" && h.ServersFile != nil {
		file = h.ServersFile()
	}
	return file
}

// remoteServer is the remote streamable HTTP server ns of the servers
// file; any other is bad input.
func remoteServer(ctx context.Context, file, format, ns string) (*tool.MCPServer, error) {
	f, err := servers.ParseConfigFormat(format)
	if err != nil {
		return nil, usageErr("--format: %v", err)
	}
	cfg, err := servers.ReadConfig(file, &servers.ConfigOptions{Format: f, Context: ctx})
	if err != nil {
		return nil, badInput(err)
	}
	var srv *tool.MCPServer
	for i := range cfg.Entries {
		if cfg.Entries[i].Server.Namespace == ns {
			srv = &cfg.Entries[i].Server
		}
	}
	switch {
	case srv == nil:
		return nil, badInput(fmt.Errorf("%s has no server %q; the namespaces are the names of its \"servers\"", file, ns))
	case srv.Transport != tool.TransportStreamableHTTP || srv.URL == "":
		return nil, badInput(fmt.Errorf("server %q (%s) is not a remote streamable HTTP server: it has no sign-in", ns, srv.Source))
	}
	return srv, nil
}

// logout deletes the sign-in of srv (namespace ns) from the token store
// and says where it was.
func (c *config) logout(ns string, srv *tool.MCPServer) error {
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
}
