package darwin

import "github.com/gen2brain/beeep"

const supported = true

// beeepNotify is beeep's macOS Notify: the notification center through
// purego, then its osascript fallback (see the package doc).
var beeepNotify = beeep.Notify
