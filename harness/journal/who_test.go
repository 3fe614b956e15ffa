package journal

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestWhoAmINamesTheProgram: a lease's .who names this process by pid and
// program, without Windows' ".exe" (the test binary is journal.test.exe
// there; scripts/test-windows-wine.sh runs it), so messages read the same
// on every system.
func TestWhoAmINamesTheProgram(t *testing.T) {
	who := whoAmI()
	// The binary is journal.test, or harness_journal.test where the Wine
	// step names test binaries by their package's path.
	if want := fmt.Sprintf("pid %d (", os.Getpid()); !strings.HasPrefix(who, want) || !strings.Contains(who, "journal.test") {
		t.Errorf("whoAmI() = %q; want it to start with %q and name journal.test", who, want)
	}
	if strings.Contains(strings.ToLower(who), ".exe") {
		t.Errorf("whoAmI() = %q; the program's .exe is not part of its name", who)
	}
}
