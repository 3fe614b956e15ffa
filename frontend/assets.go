// Package frontend holds the built web UI of the desktop app (Vite output in
// dist/), embedded into the binary. Build it first with `npm --prefix
// frontend ci && npm --prefix frontend run build`; without a build, dist/
// holds only a placeholder and the app refuses to start with a message
// saying so.
package frontend

import (
	"embed"
	"io/fs"
)

//go:embed all:dist
var dist embed.FS

// Dist returns the built UI rooted at dist/ (index.html at its top).
func Dist() fs.FS {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic(err) // "dist" is a constant, valid path
	}
	return sub
}

// Built reports whether dist/ holds a built UI (an index.html).
func Built() bool {
	_, err := fs.Stat(Dist(), "index.html")
	return err == nil
}
