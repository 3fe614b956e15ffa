//go:build linux && cgo && (production || dev || bindings)

package app

/*
#cgo !webkit2_41 pkg-config: webkit2gtk-4.0
#cgo webkit2_41 pkg-config: webkit2gtk-4.1
#include <webkit2/webkit2.h>
*/
import "C"

import (
	"context"
	"fmt"
)

// webviewRuntime is the WebKitGTK this binary runs with (the library
// loaded, not the headers it was built against): the same pkg-config
// rule as Wails' Linux frontend (webkit2gtk-4.0, or 4.1 with the
// webkit2_41 tag).
func webviewRuntime(context.Context) (name, version string, err error) {
	return "WebKitGTK", fmt.Sprintf("%d.%d.%d", C.webkit_get_major_version(), C.webkit_get_minor_version(), C.webkit_get_micro_version()), nil
}
