package npmtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// MCPB returns node (from PATH) and the first arguments of a command line
// that runs the pinned official MCPB CLI, @anthropic-ai/mcpb (its bin
// dist/cli/cli.js): append "pack DIR OUT", "sign FILE --self-signed",
// "verify FILE" and run it. It skips as Server does.
//
// `mcpb sign --self-signed` writes its certificate and key beside its own
// dist folder. So that no test writes into node_modules, the CLI runs from
// a mirror in t.TempDir(): real folders down to dist, symbolic links to
// everything else, and node's --preserve-symlinks flags keep the mirror's
// paths. The certificate thus lives (and is made anew) per test. It skips
// where symbolic links cannot be made (Windows without the privilege).
func MCPB(t testing.TB) (node string, args []string) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: skipping the mcpb CLI test")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		SkipOrFail(t, "node is not on PATH; install Node.js 18+ to run the mcpb CLI test")
	}
	modules := filepath.Join(Dir(t), "node_modules")
	pkg := filepath.Join(modules, "@anthropic-ai", "mcpb")
	if _, err := os.Stat(filepath.Join(pkg, "dist", "cli", "cli.js")); err != nil {
		SkipOrFail(t, "@anthropic-ai/mcpb is not installed: "+InstallHint)
	}
	mirror := filepath.Join(t.TempDir(), "node_modules")
	dist := filepath.Join(mirror, "@anthropic-ai", "mcpb", "dist")
	if err := os.MkdirAll(dist, 0o755); err != nil {
		t.Fatal(err)
	}
	link := func(dir, into string, skip string) {
		ents, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			if e.Name() == skip || e.Name() == "self-signed-cert.pem" || e.Name() == "self-signed-key.pem" {
				continue
			}
			if err := os.Symlink(filepath.Join(dir, e.Name()), filepath.Join(into, e.Name())); err != nil {
				SkipOrFail(t, "cannot make the mcpb mirror's symbolic links: "+err.Error())
			}
		}
	}
	link(modules, mirror, "@anthropic-ai")
	link(pkg, filepath.Join(mirror, "@anthropic-ai", "mcpb"), "dist")
	link(filepath.Join(pkg, "dist"), dist, "")
	return node, []string{"--preserve-symlinks", "--preserve-symlinks-main", filepath.Join(dist, "cli", "cli.js")}
}
