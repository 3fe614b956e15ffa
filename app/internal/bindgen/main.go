// Command bindgen writes the TypeScript bindings of the app's bound
// services (app.Window, app.Chats, …, and app.Gate) into frontend/src/wailsjs
// (the wailsjsdir of the wails.json in the working folder). Run it from
// the repository root with the bindings tag: `go run -tags bindings
// ./app/internal/bindgen` (scripts/app-bindings.sh); TestBindingsInSync
// runs it in a temporary folder and compares. Without the tag it only
// says so.
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
