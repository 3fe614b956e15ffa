//go:build (linux || freebsd || netbsd || openbsd || illumos) && !nodbus

package freedesktop

import (
	"sync"

	"github.com/gen2brain/beeep"
)

var beeepAppName sync.Once

// beeepNotify is beeep.Notify with beeep.AppName set to AppName (once,
// before the first call). icon is a path or "".
var beeepNotify = func(title, body, icon string) error {
	beeepAppName.Do(func() { beeep.AppName = AppName })
	return beeep.Notify(title, body, icon)
}
