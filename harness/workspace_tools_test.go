//go:build unix

package harness_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/internal/npmtest"
	"github.com/openworker/desktop/harness/tool"
)

// TestCheckToolOnlyWithWorkspace: server-everything lists get-roots-list
// only to a client that offers roots. Checked without a workspace, a
// bundle selecting it is broken with an error that says the tool is
// offered only with a workspace and how to give one, not that the name
// is wrong; with a workspace it resolves; a name the server never lists
// is still a wrong name.
func TestCheckToolOnlyWithWorkspace(t *testing.T) {
	node, entry := npmtest.Server(t, "server-everything")
	dir := t.TempDir()
	bundles := filepath.Join(dir, "coworkers")
	writeBundle(t, bundles, "roots", []string{"everything.get-roots-list"}, "")
	writeBundle(t, bundles, "typo", []string{"everything.get-roots-lists"}, "")
	check := func(workspace string) *harness.CheckReport {
		t.Helper()
		return checkRoots(t, node, entry, bundles, harness.Options{Workspace: workspace})
	}
	rep := check("")
	b := broken(rep, "roots")
	if b == nil {
		t.Fatalf("without a workspace: roots is not broken: %+v", rep)
	}
	if !strings.Contains(b.Message, `MCP provider "everything" offers tool "get-roots-list" only with a workspace`) || b.Fix != harness.WorkspaceFix ||
		strings.Contains(b.Message, "lists no tool") || !strings.Contains(b.Fix, "in the app, choose a Working folder for the coworker") {
		t.Errorf("without a workspace: %+v", b)
	}
	if ty := broken(rep, "typo"); ty == nil || !strings.Contains(ty.Message, `lists no tool "get-roots-lists"`) {
		t.Errorf("typo without a workspace: %+v", ty)
	}

	rep = check(t.TempDir())
	if broken(rep, "roots") != nil || len(rep.OK) != 1 || rep.OK[0].ID != "roots" {
		t.Errorf("with a workspace: %+v", rep)
	}
	if ty := broken(rep, "typo"); ty == nil || !strings.Contains(ty.Message, `lists no tool "get-roots-lists"`) {
		t.Errorf("typo with a workspace: %+v", ty)
	}
}

// TestDefaultWorkspaceNoRoot: a host whose workspace is a default
// (Options.DefaultWorkspace, the app's hidden folder) offers its
// providers no root: server-everything's get-roots-list is reported as a
// tool offered only with a workspace, with the fix that says to choose a
// Working folder; a coworker whose manifest sets a folder is offered it
// as the root and resolves (docs/mcp.md#roots).
func TestDefaultWorkspaceNoRoot(t *testing.T) {
	node, entry := npmtest.Server(t, "server-everything")
	dir := t.TempDir()
	bundles := filepath.Join(dir, "coworkers")
	writeBundle(t, bundles, "roots", []string{"everything.get-roots-list"}, "")
	writeBundle(t, bundles, "chosen", []string{"everything.get-roots-list"}, "folder: "+t.TempDir()+"\n")
	rep := checkRoots(t, node, entry, bundles, harness.Options{Workspace: t.TempDir(), DefaultWorkspace: true})
	b := broken(rep, "roots")
	if b == nil || !strings.Contains(b.Message, `offers tool "get-roots-list" only with a workspace`) || b.Fix != harness.WorkspaceFix {
		t.Errorf("default workspace: roots = %+v; want broken, offered only with a workspace", b)
	}
	if broken(rep, "chosen") != nil || len(rep.OK) != 1 || rep.OK[0].ID != "chosen" {
		t.Errorf("a coworker with a folder on a default workspace: %+v", rep)
	}
}

// checkRoots checks bundles on a runtime with opts whose one MCP server
// is server-everything (node, entry) as namespace "everything".
func checkRoots(t *testing.T, node, entry, bundles string, opts harness.Options) *harness.CheckReport {
	t.Helper()
	reg := tool.NewRegistry()
	if err := reg.RegisterMCP(tool.MCPServer{Namespace: "everything", Program: node, Args: []string{entry, "stdio"}}); err != nil {
		t.Fatal(err)
	}
	opts.Coworkers, opts.RememberFailedStarts = bundles, true
	rt, err := harness.Open(context.Background(), reg, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	rep, err := rt.Check(context.Background(), bundles, nil)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// broken is the bundle id of rep's broken ones, or nil.
func broken(rep *harness.CheckReport, id string) *harness.CheckedBundle {
	for i := range rep.Broken {
		if rep.Broken[i].ID == id {
			return &rep.Broken[i]
		}
	}
	return nil
}
