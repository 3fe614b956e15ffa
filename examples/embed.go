// Package examples embeds the sample coworker bundles, so the desktop app can
// seed a new user's coworkers folder wherever it is installed.
package examples

import (
	"embed"
	"io/fs"
)

//go:embed coworkers
var coworkers embed.FS

// Coworkers returns the sample bundles folder: one sub-folder per coworker.
func Coworkers() fs.FS {
	sub, err := fs.Sub(coworkers, "coworkers")
	if err != nil {
		panic(err) // the folder is embedded at build time
	}
	return sub
}
