//go:build unix

package cli_test

import (
	"strings"
	"testing"

	"github.com/openworker/desktop/harness/internal/npmtest"
)

// TestCheckWorkspace: server-everything lists get-roots-list only when
// the client offers roots. check without --workspace reports the bundle
// broken, saying the server offers the tool only with a workspace and how
// to give one; check --workspace DIR passes; a folder that does not exist
// is a usage error.
func TestCheckWorkspace(t *testing.T) {
	node, entry := npmtest.Server(t, "server-everything")
	s := newSetup(t, "helper", map[string]any{"everything": map[string]any{"transport": "stdio", "command": node, "args": []string{entry, "stdio"}}},
		nil, "everything.get-roots-list")
	code, out, errs := runCLISplit(t, "check", "--coworkers", s.coworkers, "--servers", s.servers)
	if code == 0 || !strings.Contains(out+errs, `MCP provider "everything" offers tool "get-roots-list" only with a workspace`) ||
		!strings.Contains(out+errs, "name a workspace folder for the run or the check: give one with --workspace DIR") || strings.Contains(out+errs, "lists no tool") {
		t.Errorf("check without --workspace: exit %d\n%s\n%s", code, out, errs)
	}
	code, out, errs = runCLISplit(t, "check", "--coworkers", s.coworkers, "--servers", s.servers, "--workspace", t.TempDir())
	if code != 0 || !strings.Contains(out, "everything.get-roots-list") {
		t.Errorf("check --workspace: exit %d\n%s\n%s", code, out, errs)
	}
	code, _, errs = runCLISplit(t, "check", "--coworkers", s.coworkers, "--servers", s.servers, "--workspace", "/no/such/folder")
	if code != 2 || !strings.Contains(errs, `--workspace "/no/such/folder" is not a folder`) {
		t.Errorf("check --workspace /no/such/folder: exit %d\n%s", code, errs)
	}
}
