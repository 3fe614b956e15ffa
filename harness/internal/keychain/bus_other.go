//go:build !linux

package keychain

// NoAutolaunch does nothing: only Linux reaches its keychain through a
// session bus that could be autolaunched.
func NoAutolaunch() {}

// SessionBus is nil: no bus is needed here.
func SessionBus() error { return nil }
