package update_test

import (
	"archive/zip"
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/openworker/desktop/internal/update"
	"github.com/openworker/desktop/internal/update/feedgen"
)

// release is a signed feed with one file per platform, served on
// 127.0.0.1 from dir.
type release struct {
	srv     *httptest.Server
	dir     string
	feedURL string
}

// newRelease makes a test key (trusted for this test), writes files (name
// → content) and a feed of version listing each as platform=name, and
// serves the folder.
func newRelease(t *testing.T, version string, files map[string]string) *release {
	t.Helper()
	dir := t.TempDir()
	pub, err := feedgen.Keygen(filepath.Join(dir, "key"))
	if err != nil {
		t.Fatal(err)
	}
	update.SwapKeyForTest(t, pub)
	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	t.Cleanup(srv.Close)
	var assets []feedgen.Asset
	for platform, content := range files {
		name := "file-" + platform
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		assets = append(assets, feedgen.Asset{Platform: platform, File: filepath.Join(dir, name), URL: srv.URL + "/" + name})
	}
	if err := feedgen.Sign(filepath.Join(dir, "key", "update.key"), filepath.Join(dir, "feed.json"), feedgen.Release{Version: version, Notes: "faster turns", Assets: assets}); err != nil {
		t.Fatal(err)
	}
	return &release{srv: srv, dir: dir, feedURL: srv.URL + "/feed.json"}
}

func (r *release) check(t *testing.T, current, platform string) (update.Result, error) {
	t.Helper()
	return update.Check(context.Background(), r.srv.Client(), r.feedURL, current, platform)
}

// A signed feed with a newer version and a file for this platform is
// reported as newer, with its notes and file; the same or an older version
// is not, nor a platform the feed has no file for.
func TestCheckReportsANewerSignedRelease(t *testing.T) {
	r := newRelease(t, "1.4.0", map[string]string{"linux-amd64": "new", "darwin-universal": "app"})
	res, err := r.check(t, "1.3.2", "linux-amd64")
	if err != nil {
		t.Fatal(err)
	}
	if !res.Newer || res.Latest != "1.4.0" || res.Notes != "faster turns" || res.Asset == nil || res.Asset.Size != 3 {
		t.Fatalf("check = %+v; want 1.4.0 newer with a 3-byte file", res)
	}
	if res, _ := r.check(t, "v1.4.0", "linux-amd64"); res.Newer {
		t.Errorf("same version reported newer: %+v", res)
	}
	if res, _ := r.check(t, "1.3.0", "darwin-arm64"); !res.Newer {
		t.Errorf("darwin-arm64 should take the universal build: %+v", res)
	}
	if res, _ := r.check(t, "1.3.0", "windows-amd64"); res.Newer || !strings.Contains(res.Why, "no file for windows-amd64") {
		t.Errorf("a platform without a file = %+v", res)
	}
	if res, _ := r.check(t, "dev", "linux-amd64"); res.Newer || !strings.Contains(res.Why, "not a release version") {
		t.Errorf("a development build = %+v", res)
	}
}

// A feed changed after signing, signed by another key, or without a
// signature is refused with a message that says so.
func TestCheckRefusesAFeedThatDoesNotVerify(t *testing.T) {
	r := newRelease(t, "1.4.0", map[string]string{"linux-amd64": "new"})
	feed := filepath.Join(r.dir, "feed.json")
	body, _ := os.ReadFile(feed)
	os.WriteFile(feed, []byte(strings.Replace(string(body), "faster turns", "faster turns!", 1)), 0o644)
	_, err := r.check(t, "1.0.0", "linux-amd64")
	if !errors.Is(err, update.ErrRefused) || !strings.Contains(err.Error(), "signature does not match") {
		t.Fatalf("tampered feed: err = %v", err)
	}
	os.WriteFile(feed, body, 0o644)
	if _, err := r.check(t, "1.0.0", "linux-amd64"); err != nil {
		t.Fatalf("restored feed: %v", err)
	}

	other, err := feedgen.Keygen(filepath.Join(t.TempDir(), "other"))
	if err != nil {
		t.Fatal(err)
	}
	update.SwapKeyForTest(t, other)
	if _, err := r.check(t, "1.0.0", "linux-amd64"); !errors.Is(err, update.ErrRefused) || !strings.Contains(err.Error(), "not OpenWorker's update key") {
		t.Fatalf("feed signed by another key: err = %v", err)
	}

	os.Remove(feed + ".minisig")
	if _, err := r.check(t, "1.0.0", "linux-amd64"); err == nil || !strings.Contains(err.Error(), "has no signature") {
		t.Fatalf("unsigned feed: err = %v", err)
	}
}

// A download reports progress up to its size, is verified and staged; a
// file of the wrong size or hash is refused and nothing is staged.
func TestDownloadVerifiesSizeAndHash(t *testing.T) {
	r := newRelease(t, "1.4.0", map[string]string{"linux-amd64": "new build"})
	res, err := r.check(t, "1.0.0", "linux-amd64")
	if err != nil {
		t.Fatal(err)
	}
	stage := filepath.Join(t.TempDir(), "updates")
	var last, calls int64
	st, err := update.Download(context.Background(), r.srv.Client(), res, stage, func(done, total int64) { last, calls = done, calls+1 })
	if err != nil {
		t.Fatal(err)
	}
	if last != 9 || calls == 0 || st.Version != "1.4.0" || st.Size != 9 {
		t.Fatalf("staged %+v, progress last %d after %d calls", st, last, calls)
	}
	if got, ok, err := update.ReadStaged(stage); !ok || err != nil || got != st {
		t.Fatalf("ReadStaged = %+v %v %v", got, ok, err)
	}

	file := filepath.Join(r.dir, "file-linux-amd64")
	for name, content := range map[string]string{"wrong hash": "NEW build", "too long": "new build!", "too short": "new"} {
		t.Run(name, func(t *testing.T) {
			os.WriteFile(file, []byte(content), 0o644)
			dir := filepath.Join(t.TempDir(), "updates")
			_, err := update.Download(context.Background(), r.srv.Client(), res, dir, nil)
			if !errors.Is(err, update.ErrRefused) {
				t.Fatalf("err = %v; want refused", err)
			}
			want := "SHA-256"
			if name != "wrong hash" {
				want = "not the size"
			}
			if !strings.Contains(err.Error(), want) {
				t.Errorf("err = %v; want it to name the %s", err, want)
			}
			if _, ok, _ := update.ReadStaged(dir); ok {
				t.Error("a refused download was staged")
			}
			if left, _ := os.ReadDir(dir); len(left) != 0 {
				t.Errorf("left behind: %v", left)
			}
		})
	}
}

// stageFor downloads r's file for platform into a fresh stage folder.
func stageFor(t *testing.T, r *release, platform string) string {
	t.Helper()
	res, err := r.check(t, "1.0.0", platform)
	if err != nil {
		t.Fatal(err)
	}
	stage := filepath.Join(t.TempDir(), "updates")
	if _, err := update.Download(context.Background(), r.srv.Client(), res, stage, nil); err != nil {
		t.Fatal(err)
	}
	return stage
}

// On Linux the staged executable replaces the running one by rename, and
// the stage is cleared; a staged file changed since its download is
// refused and the installed executable stays as it was.
func TestApplyStagedReplacesTheExecutable(t *testing.T) {
	r := newRelease(t, "1.4.0", map[string]string{"linux-amd64": "#!/bin/sh\necho new\n"})
	exe := filepath.Join(t.TempDir(), "openworker")
	os.WriteFile(exe, []byte("old"), 0o755)

	stage := stageFor(t, r, "linux-amd64")
	a, ok, err := update.ApplyStaged(stage, update.Target{Exe: exe, Platform: "linux-amd64"})
	if err != nil || !ok || a.Version != "1.4.0" || a.Installer {
		t.Fatalf("ApplyStaged = %+v %v %v", a, ok, err)
	}
	if b, _ := os.ReadFile(exe); string(b) != "#!/bin/sh\necho new\n" {
		t.Fatalf("exe = %q", b)
	}
	if fi, _ := os.Stat(exe); !executable(fi) {
		t.Errorf("the new executable is not executable: %v", fi.Mode())
	}
	if _, ok, _ := update.ApplyStaged(stage, update.Target{Exe: exe, Platform: "linux-amd64"}); ok {
		t.Error("the stage was not cleared")
	}

	os.WriteFile(exe, []byte("old"), 0o755)
	stage = stageFor(t, r, "linux-amd64")
	st, _, _ := update.ReadStaged(stage)
	os.WriteFile(filepath.Join(stage, st.File), []byte("#!/bin/sh\necho evil\n"), 0o755)
	_, ok, err = update.ApplyStaged(stage, update.Target{Exe: exe, Platform: "linux-amd64"})
	if !ok || !errors.Is(err, update.ErrRefused) || !strings.Contains(err.Error(), "changed after it was verified") {
		t.Fatalf("tampered stage: ok %v err %v", ok, err)
	}
	if b, _ := os.ReadFile(exe); string(b) != "old" {
		t.Fatalf("exe changed by a refused update: %q", b)
	}
	if left, _ := os.ReadDir(stage); len(left) != 0 {
		t.Errorf("a refused stage left %v", left)
	}
}

// executable says whether fi has the owner's execute bit. Windows has no
// such bit (Go reports 0666 or 0444 for every file; the test binary runs
// there under Wine, scripts/wine/unit-steps.sh), so there it is true.
func executable(fi os.FileInfo) bool {
	return runtime.GOOS == "windows" || fi.Mode().Perm()&0o100 != 0
}

// zipApp writes a zipped OpenWorker.app whose executable says content,
// plus extra entries.
func zipApp(t *testing.T, content string, extra ...string) string {
	t.Helper()
	var b strings.Builder
	zw := zip.NewWriter(&b)
	h := &zip.FileHeader{Name: "OpenWorker.app/Contents/MacOS/openworker", Method: zip.Deflate}
	h.SetMode(0o755)
	w, _ := zw.CreateHeader(h)
	w.Write([]byte(content))
	for _, e := range extra {
		w, _ := zw.Create(e)
		w.Write([]byte("x"))
	}
	zw.Close()
	return b.String()
}

// On macOS the zipped .app replaces the bundle the program runs from; a
// zip reaching outside its folder is refused and the bundle stays.
func TestApplyStagedReplacesTheAppBundle(t *testing.T) {
	apps := t.TempDir()
	exe := filepath.Join(apps, "OpenWorker.app", "Contents", "MacOS", "openworker")
	os.MkdirAll(filepath.Dir(exe), 0o755)
	os.WriteFile(exe, []byte("old"), 0o755)
	os.WriteFile(filepath.Join(apps, "OpenWorker.app", "Contents", "stale"), []byte("x"), 0o644)

	r := newRelease(t, "1.4.0", map[string]string{"darwin-universal": zipApp(t, "new")})
	stage := stageFor(t, r, "darwin-arm64")
	if _, _, err := update.ApplyStaged(stage, update.Target{Exe: exe, Platform: "darwin-arm64"}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(exe); string(b) != "new" {
		t.Fatalf("exe = %q", b)
	}
	if fi, err := os.Stat(exe); err != nil || !executable(fi) {
		t.Errorf("mode kept? %v %v", fi, err)
	}
	if _, err := os.Stat(filepath.Join(apps, "OpenWorker.app", "Contents", "stale")); !os.IsNotExist(err) {
		t.Errorf("the old bundle's file is still there: %v", err)
	}
	if left, _ := os.ReadDir(apps); len(left) != 1 {
		t.Errorf("beside the bundle: %v; want only OpenWorker.app", left)
	}

	r = newRelease(t, "1.5.0", map[string]string{"darwin-universal": zipApp(t, "evil", "OpenWorker.app/../../escape")})
	stage = stageFor(t, r, "darwin-arm64")
	if _, _, err := update.ApplyStaged(stage, update.Target{Exe: exe, Platform: "darwin-arm64"}); !errors.Is(err, update.ErrRefused) {
		t.Fatalf("zip reaching outside: err = %v", err)
	}
	if b, _ := os.ReadFile(exe); string(b) != "new" {
		t.Fatalf("exe changed by a refused update: %q", b)
	}
}

// TestFetchOfflineSaysSo: a feed whose host cannot be reached (a closed
// port on 127.0.0.1) is reported in words with the host.
func TestFetchOfflineSaysSo(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	_, err = update.FetchFeed(context.Background(), &http.Client{Timeout: time.Minute}, "http://"+addr+"/feed.json")
	if err == nil || !strings.Contains(err.Error(), "could not check for updates: "+addr+" cannot be reached") {
		t.Errorf("closed port: %v", err)
	}
}
