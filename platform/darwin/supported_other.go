//go:build !darwin

package darwin

const supported = false

// beeepNotify is nil off macOS: beeep's macOS code is not compiled in.
var beeepNotify func(title, message string, icon any) error
