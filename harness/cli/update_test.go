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

// runInApp runs the CLI as the app's build stamped with version, its
// files in configDir.
func runInApp(configDir, version string, args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := cli.Run(context.Background(), tool.NewRegistry(), args,
		cli.WithIO(strings.NewReader(""), &out, &errb, func(string) string { return "" }, func() bool { return false }),
		cli.WithVersion(harness.Version{Version: version}), cli.WithAppSettings(configDir))
	return code, out.String(), errb.String()
}

// `update check --json` prints a JSON error object when the check fails
// (exit 1; refused for a bad signature), and a --feed that is no URL is a
// usage error (exit 2) naming the flag, in words and as JSON.
func TestUpdateCheckErrors(t *testing.T) {
	dir := t.TempDir()
	pub, err := feedgen.Keygen(filepath.Join(dir, "key"))
	if err != nil {
		t.Fatal(err)
	}
	update.SwapKeyForTest(t, pub)
	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	defer srv.Close()
	os.WriteFile(filepath.Join(dir, "build"), []byte("the new build"), 0o755)
	err = feedgen.Sign(filepath.Join(dir, "key", "update.key"), filepath.Join(dir, "feed.json"), feedgen.Release{
		Version: "2.0.0", Assets: []feedgen.Asset{{Platform: update.Platform(), File: filepath.Join(dir, "build"), URL: srv.URL + "/build"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	body, _ := os.ReadFile(filepath.Join(dir, "feed.json"))
	os.WriteFile(filepath.Join(dir, "feed.json"), bytes.Replace(body, []byte("2.0.0"), []byte("2.0.1"), 1), 0o644)

	type jsonErr struct {
		Feed    string `json:"feed"`
		Error   string `json:"error"`
		Refused bool   `json:"refused"`
		Usage   bool   `json:"usage"`
	}
	code, out, errs := runVersioned("1.9.0", "update", "check", "--feed", srv.URL+"/feed.json", "--json")
	var je jsonErr
	if code != 1 || json.Unmarshal([]byte(out), &je) != nil || !je.Refused || je.Usage || !strings.Contains(je.Error, "signature does not match") || je.Feed != srv.URL+"/feed.json" {
		t.Errorf("bad signature --json: exit %d\nstdout %s\nstderr %s", code, out, errs)
	}
	code, out, _ = runVersioned("1.9.0", "update", "check", "--feed", srv.URL+"/missing.json", "--json")
	je = jsonErr{}
	if code != 1 || json.Unmarshal([]byte(out), &je) != nil || je.Refused || !strings.Contains(je.Error, "404") {
		t.Errorf("missing feed --json: exit %d\nstdout %s", code, out)
	}

	code, out, errs = runVersioned("1.9.0", "update", "check", "--feed", "notaurl")
	if code != 2 || out != "" || !strings.Contains(errs, `--feed "notaurl" is not an http(s) URL`) {
		t.Errorf("--feed notaurl: exit %d\nstdout %s\nstderr %s", code, out, errs)
	}
	code, out, _ = runVersioned("1.9.0", "update", "check", "--feed", "notaurl", "--json")
	je = jsonErr{}
	if code != 2 || json.Unmarshal([]byte(out), &je) != nil || !je.Usage || !strings.Contains(je.Error, "--feed") {
		t.Errorf("--feed notaurl --json: exit %d\nstdout %s", code, out)
	}
	if code, _, errs := runVersioned("1.9.0", "update", "download", "--feed", "ftp://127.0.0.1/feed.json"); code != 2 || !strings.Contains(errs, "--feed") {
		t.Errorf("download --feed ftp://: exit %d %s", code, errs)
	}
}

// `update download` stages a newer release, verified, in the app's update
// folder with progress on stderr; a refused feed stages nothing; `update
// apply` with nothing staged says so (exit 1).
func TestUpdateDownload(t *testing.T) {
	dir := t.TempDir()
	pub, err := feedgen.Keygen(filepath.Join(dir, "key"))
	if err != nil {
		t.Fatal(err)
	}
	update.SwapKeyForTest(t, pub)
	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	defer srv.Close()
	os.WriteFile(filepath.Join(dir, "build"), bytes.Repeat([]byte("the new build "), 1000), 0o755)
	err = feedgen.Sign(filepath.Join(dir, "key", "update.key"), filepath.Join(dir, "feed.json"), feedgen.Release{
		Version: "2.0.0", Assets: []feedgen.Asset{{Platform: update.Platform(), File: filepath.Join(dir, "build"), URL: srv.URL + "/build"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	body, _ := os.ReadFile(filepath.Join(dir, "feed.json"))
	os.WriteFile(filepath.Join(dir, "bad.json"), bytes.Replace(body, []byte("2.0.0"), []byte("9.0.0"), 1), 0o644)
	sig, _ := os.ReadFile(filepath.Join(dir, "feed.json.minisig"))
	os.WriteFile(filepath.Join(dir, "bad.json.minisig"), sig, 0o644)
	app := filepath.Join(dir, "app")

	code, out, errs := runInApp(app, "1.9.0", "update", "download", "--feed", srv.URL+"/bad.json")
	if code != 1 || !strings.Contains(errs, "nothing was changed") {
		t.Errorf("bad feed: exit %d\n%s%s", code, out, errs)
	}
	if _, err := os.Stat(filepath.Join(app, "updates")); !os.IsNotExist(err) {
		t.Errorf("a refused feed made the update folder: %v", err)
	}
	if code, _, errs := runInApp(app, "1.9.0", "update", "apply"); code != 1 || !strings.Contains(errs, "no update is staged") {
		t.Errorf("apply with nothing staged: exit %d %s", code, errs)
	}

	code, out, errs = runInApp(app, "1.9.0", "update", "download", "--feed", srv.URL+"/feed.json", "--json")
	var got struct {
		Latest string         `json:"latest"`
		Staged *update.Staged `json:"staged"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &got) != nil || got.Latest != "2.0.0" || got.Staged == nil || got.Staged.Size != 14000 || !strings.Contains(errs, "downloaded 100% (14000 of 14000 bytes)") {
		t.Fatalf("download: exit %d\nstdout %s\nstderr %s", code, out, errs)
	}
	st, ok, err := update.ReadStaged(filepath.Join(app, "updates"))
	if !ok || err != nil || st.Version != "2.0.0" {
		t.Fatalf("staged: %+v %v %v", st, ok, err)
	}
	if b, err := os.ReadFile(filepath.Join(app, "updates", st.File)); err != nil || !bytes.Equal(b, bytes.Repeat([]byte("the new build "), 1000)) {
		t.Errorf("the staged file: %v", err)
	}
}
