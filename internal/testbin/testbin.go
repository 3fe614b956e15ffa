// Package testbin builds the real openworker binary for tests that drive it
// as a user would (run, check, serve --stdio). Only tests import it.
package testbin

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Main builds the openworker binary into a temporary folder, stores its path
// in *binary, runs the tests and exits. Call it from TestMain.
func Main(m *testing.M, binary *string) {
	dir, err := os.MkdirTemp("", "openworker-bin-")
	if err != nil {
		panic(err)
	}
	*binary = filepath.Join(dir, "openworker")
	build := exec.Command("go", "build", "-o", *binary, "github.com/openworker/desktop")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		os.RemoveAll(dir)
		panic("build openworker: " + err.Error())
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
