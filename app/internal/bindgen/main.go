// Command bindgen writes the TypeScript bindings of app.App into
// frontend/src/wailsjs (see wails.json). Run it from the repository root
// with the bindings tag: `go run -tags bindings ./app/internal/bindgen`
// (scripts/app-bindings.sh). Without the tag it only says so.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/openworker/desktop/app"
	"github.com/openworker/desktop/harness/tool"
)

func main() {
	if err := app.Run(context.Background(), tool.NewRegistry(), app.Options{}); err != nil {
		fmt.Fprintln(os.Stderr, "bindgen:", err)
		os.Exit(1)
	}
}
