// Command openworker-sandbox is OpenWorker's sandbox launcher on Linux
// (docs/sandbox.md#linux): a small static program that applies a
// sandbox's Landlock and seccomp rules and executes the provider's
// program. Package sandbox's init does the work when OpenWorker starts
// it; the desktop app ships it next to its executable, because running
// the app's own executable (which links GTK and WebKit) as the launcher
// costs more than the provider's start. Without it OpenWorker runs its
// own executable as the launcher.
package main

import (
	"fmt"
	"os"

	_ "github.com/openworker/desktop/harness/sandbox" // the launcher (init)
)

func main() {
	fmt.Fprintln(os.Stderr, "openworker-sandbox is started by OpenWorker to run a sandboxed MCP provider (docs/sandbox.md); it does nothing by itself")
	os.Exit(2)
}
