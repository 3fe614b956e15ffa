//go:build !(linux || freebsd || netbsd || openbsd || illumos) || nodbus

package freedesktop

// beeepNotify is nil where beeep has no D-Bus path: every request takes the
// adapter's own Notify call (see the package doc).
var beeepNotify func(title, body, icon string) error
