// Package testbin builds the real openworker binary for tests that drive it
// as a user would (run, check, serve --stdio). Only tests import it.
package testbin

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// BinaryEnv names an environment variable that holds the absolute path of
// an openworker binary built beforehand from the same source: Main then
// uses it instead of building one. It is for test binaries run where no
// Go toolchain is, as under Wine, where scripts/wine/unit-steps.sh
// cross-builds openworker.exe once for harness/cli's tests
// (docs/ci.md#under-wine).
const BinaryEnv = "OPENWORKER_TEST_BINARY"

// Main builds the openworker binary into a temporary folder (or takes
// the one BinaryEnv names), stores its path in *binary, runs the tests
// and exits. Call it from TestMain.
func Main(m *testing.M, binary *string) {
	if prebuilt := os.Getenv(BinaryEnv); prebuilt != "" {
		if err := usable(prebuilt); err != nil {
			panic(err)
		}
		*binary = prebuilt
		os.Exit(m.Run())
	}
	dir, err := os.MkdirTemp("", "openworker-bin-")
	if err != nil {
		panic(err)
	}
	*binary = filepath.Join(dir, "openworker")
	if runtime.GOOS == "windows" {
		*binary += ".exe"
	}
	build := exec.Command("go", "build", "-o", *binary, "github.com/openworker/desktop")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		os.RemoveAll(dir)
		panic("build openworker: " + err.Error() + " (where there is no Go toolchain, set " + BinaryEnv + " to a built openworker)")
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// usable reports why the binary at path, named by BinaryEnv, cannot serve.
func usable(path string) error {
	if !filepath.IsAbs(path) {
		return fmt.Errorf("%s=%s: give the binary's absolute path (the tests run in other folders)", BinaryEnv, path)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("%s: %w; build openworker there or unset %s", BinaryEnv, err, BinaryEnv)
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s=%s is not a file", BinaryEnv, path)
	}
	return nil
}
