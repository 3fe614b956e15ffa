package update

import (
	"fmt"
	"sync"
	"testing"

	"aead.dev/minisign"
)

// releaseKey is OpenWorker's update public key (minisign, Ed25519). Every
// feed is verified against it, whichever URL it came from; only a Go test
// (SwapKeyForTest) or a build with the tag updatetestkey
// (key_testhook.go, never a release) can swap it. The private half is kept
// by whoever signs releases, never in this repository
// (docs/update.md#keys).
const releaseKey = "RWR7C7JubVrQRO6yomFOab9Q3CCNglRg26VjFiaqBKkwcapxVNvA/VMX"

var (
	keyMu   sync.Mutex
	keyText = releaseKey
)

// TestKeyBuild reports whether this program was built with the test-key
// hook (the build tag updatetestkey), so `openworker version` can say so.
func TestKeyBuild() bool { return testKeyHook }

// trustedKey is the key feeds are verified against.
func trustedKey() (minisign.PublicKey, error) {
	keyMu.Lock()
	text := keyText
	keyMu.Unlock()
	var k minisign.PublicKey
	if err := k.UnmarshalText([]byte(text)); err != nil {
		return k, fmt.Errorf("the update public key built into this program is malformed: %w", err)
	}
	return k, nil
}

// Cleaner is what SwapKeyForTest needs of a *testing.T.
type Cleaner interface {
	Helper()
	Cleanup(func())
}

// SwapKeyForTest makes feeds verify against key (a minisign public key,
// "RW…") until the test ends. It panics outside a test binary, so no
// shipped program can trust another key.
func SwapKeyForTest(t Cleaner, key string) {
	t.Helper()
	if !testing.Testing() {
		panic("update.SwapKeyForTest called outside a test")
	}
	keyMu.Lock()
	old := keyText
	keyText = key
	keyMu.Unlock()
	t.Cleanup(func() {
		keyMu.Lock()
		keyText = old
		keyMu.Unlock()
	})
}
