//go:build updatetestkey

package update

import "os"

// TestKeyEnv names the environment variable through which a test build
// trusts another update key (docs/update.md#keys). This file is compiled
// only with the build tag updatetestkey, which no release build sets
// (TestReleaseBuildHasNoTestKeyHook): scripts/build-windows.sh adds it
// only for OPENWORKER_UPDATE_TEST_BUILD=1, the Wine update step's builds.
const TestKeyEnv = "OPENWORKER_UPDATE_TEST_KEY"

// testKeyHook is true in a build that honours TestKeyEnv.
const testKeyHook = true

func init() {
	if k := os.Getenv(TestKeyEnv); k != "" {
		keyText = k
	}
}
