//go:build !production && !dev && !bindings

package app

// WindowAvailable reports whether this binary can open the desktop window:
// true only when built with the Wails tags (`-tags desktop,production`, or
// `dev`). A plain `go build` gives a CLI-only binary; the CLI then prints
// usage instead of starting the app.
const WindowAvailable = false
