//go:build updatetestkey

package update

import "os"

// TestKeyEnv names the environment variable through which a test build
// trusts another update key (docs/update.md#keys). This file is compiled
// only with the build tag updatetestkey, which no release build sets
// (TestReleaseBuildHasNoTestKeyHook): scripts/build-windows.sh and
// scripts/build-macos.sh add it only for OPENWORKER_UPDATE_TEST_BUILD=1,
// the update tests' builds (scripts/wine/update-steps.sh,
// scripts/macos-update-smoke.sh).
const TestKeyEnv = "OPENWORKER_UPDATE_TEST_KEY"

// testKeyHook is true in a build that honours TestKeyEnv.
const testKeyHook = true

func init() {
	if k := os.Getenv(TestKeyEnv); k != "" {
		keyText = k
	}
}
