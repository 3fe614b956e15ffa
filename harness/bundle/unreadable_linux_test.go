package bundle

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// unreadableChildEnv makes the test binary load the bundle folder it names
// and print the error (TestUnreadableBundleSaysWhatToDo).
const unreadableChildEnv = "BUNDLE_TEST_LOAD_CHILD"

func init() {
	if dir := os.Getenv(unreadableChildEnv); dir != "" {
		_, err := Load(dir)
		fmt.Println(err)
		os.Exit(0)
	}
}

// TestUnreadableBundleSaysWhatToDo: a bundle whose coworker folder its
// user cannot read is reported with the file and a fix (issue 40: a bare
// "lstat …: permission denied"). Root reads everything, so as root the
// load runs in a child process as nobody.
func TestUnreadableBundleSaysWhatToDo(t *testing.T) {
	base, err := os.MkdirTemp("", "unreadable-bundle")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(filepath.Join(base, "helper", "coworker"), 0o755); os.RemoveAll(base) })
	dir := filepath.Join(base, "helper")
	writeAt(t, dir, map[string]string{"coworker/manifest.md": "---\nid: helper\nname: Helper\n---\nHelps.\n", "coworker/tools.json": emptyTools})
	filepath.Walk(base, func(p string, fi os.FileInfo, _ error) error { return os.Chmod(p, fi.Mode()|0o755) })
	cw := filepath.Join(dir, "coworker")
	if err := os.Chmod(cw, 0); err != nil {
		t.Fatal(err)
	}
	var out string
	if os.Geteuid() != 0 {
		_, lerr := Load(dir)
		out = fmt.Sprint(lerr)
	} else {
		exe, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		copyExe := filepath.Join(base, "bundle.test")
		src, _ := os.Open(exe)
		dst, _ := os.OpenFile(copyExe, os.O_CREATE|os.O_WRONLY, 0o755)
		io.Copy(dst, src)
		src.Close()
		dst.Close()
		cmd := exec.Command(copyExe, "-test.run=^$")
		cmd.Env = []string{unreadableChildEnv + "=" + dir}
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
		b, err := cmd.CombinedOutput()
		if err != nil {
			t.Skipf("cannot run a child as nobody here: %v %s", err, b)
		}
		out = string(b)
	}
	if !strings.Contains(out, "permission denied") || !strings.Contains(out, "give your user read access") || !strings.Contains(out, "coworker") {
		t.Errorf("load of an unreadable bundle = %q; want permission denied, the folder and a fix", out)
	}
}
