package sandbox

import "testing"

// TestABIFor: the ABI the launcher uses is the kernel's, as go-landlock
// counts it (a kernel whose signal scoping is broken counts as ABI 5, so
// Check refuses what needs more before anything starts), lowered by
// OPENWORKER_SANDBOX_MAX_ABI and at most what go-landlock knows.
func TestABIFor(t *testing.T) {
	for _, c := range []struct{ kernel, errata, max, want int }{
		{0, 0, 0, 0}, {3, 0, 0, 3}, {5, 0, 0, 5},
		{6, 0, 0, 5}, {6, 2, 0, 6}, {7, 3, 0, 7}, {7, 1, 0, 5},
		{7, 2, 4, 4}, {7, 2, 9, 7}, {7, 2, -1, 0}, {99, 2, 0, len(configs) - 1},
	} {
		if got := abiFor(c.kernel, c.errata, c.max); got != c.want {
			t.Errorf("abiFor(%d, %d, %d) = %d; want %d", c.kernel, c.errata, c.max, got, c.want)
		}
	}
}
