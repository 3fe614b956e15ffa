//go:build !updatetestkey

package update

// testKeyHook is false in every release build: feeds verify against
// releaseKey alone (key_testhook.go is the test builds' hook).
const testKeyHook = false
