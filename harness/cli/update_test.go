package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/cli"
	"github.com/openworker/desktop/harness/tool"
	"github.com/openworker/desktop/internal/update"
	"github.com/openworker/desktop/internal/update/feedgen"
)

// runVersioned runs the CLI as a build stamped with version.
func runVersioned(version string, args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := cli.Run(context.Background(), tool.NewRegistry(), args,
		cli.WithIO(strings.NewReader(""), &out, &errb, func(string) string { return "" }, func() bool { return false }),
		cli.WithVersion(harness.Version{Version: version}))
	return code, out.String(), errb.String()
}

// `update check` against a signed feed on 127.0.0.1 reports the newer
// version in words and as JSON; a feed changed after signing is refused
// (exit 1, the reason on stderr).
func TestUpdateCheck(t *testing.T) {
	dir := t.TempDir()
	pub, err := feedgen.Keygen(filepath.Join(dir, "key"))
	if err != nil {
		t.Fatal(err)
	}
	update.SwapKeyForTest(t, pub)
	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	defer srv.Close()
	bin := filepath.Join(dir, "build")
	os.WriteFile(bin, []byte("the new build"), 0o755)
	err = feedgen.Sign(filepath.Join(dir, "key", "update.key"), filepath.Join(dir, "feed.json"), feedgen.Release{
		Version: "2.0.0", Notes: "Coworkers can now hand work to each other.",
		Assets: []feedgen.Asset{{Platform: update.Platform(), File: bin, URL: srv.URL + "/build"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	feed := srv.URL + "/feed.json"

	code, out, errs := runVersioned("1.9.0", "update", "check", "--feed", feed)
	if code != 0 || !strings.Contains(out, "OpenWorker 2.0.0 is available (this is 1.9.0)") || !strings.Contains(out, "hand work to each other") {
		t.Fatalf("update check: exit %d\n%s%s", code, out, errs)
	}
	code, out, _ = runVersioned("2.0.0", "update", "check", "--feed", feed)
	if code != 0 || !strings.Contains(out, "is up to date") {
		t.Errorf("same version: exit %d %s", code, out)
	}
	code, out, _ = runVersioned("1.9.0", "update", "check", "--feed", feed, "--json")
	var res update.Result
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil || !res.Newer || res.Latest != "2.0.0" || res.Asset == nil || res.Asset.Size != 13 {
		t.Fatalf("--json: exit %d %s", code, out)
	}

	body, _ := os.ReadFile(filepath.Join(dir, "feed.json"))
	os.WriteFile(filepath.Join(dir, "feed.json"), bytes.Replace(body, []byte(srv.URL+"/build"), []byte("http://127.0.0.1:1/evil"), 1), 0o644)
	code, out, errs = runVersioned("1.9.0", "update", "check", "--feed", feed)
	if code != 1 || !strings.Contains(errs, "signature does not match") || !strings.Contains(errs, "nothing was changed") || out != "" {
		t.Errorf("tampered feed: exit %d\nstdout %s\nstderr %s", code, out, errs)
	}
	if code, _, errs := runVersioned("1.9.0", "update", "chek"); code != 2 || !strings.Contains(errs, "use check") {
		t.Errorf("update chek: exit %d %s", code, errs)
	}
}
