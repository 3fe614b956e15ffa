//go:build !windows && !darwin && !(linux && cgo && (production || dev || bindings))

package app

import (
	"context"
	"errors"
)

// webviewRuntime: a build without the desktop tags links no WebKitGTK.
func webviewRuntime(context.Context) (name, version string, err error) {
	return "WebKitGTK", "", errors.New("version unknown: this build has no desktop window (built without the desktop tags)")
}
