package doctor

import "testing"

// TestTildeForLeavesOtherFolders: tildeFor has no boundary before home and
// takes any non-ASCII or other punctuation after it for the end of the
// folder, so other folders are rewritten as if in the home folder.
func TestTildeForLeavesOtherFolders(t *testing.T) {
	for _, c := range []struct{ home, in, want string }{
		// another person's folder whose name starts with the user's and goes on with a space or a non-ASCII letter
		{`C:\Users\John`, `C:\Users\John Smith\AppData`, `C:\Users\John Smith\AppData`},
		{"/home/ann", "/home/annë/x", "/home/annë/x"},
		{"/Users/ann", "/Users/ann+work/x", "/Users/ann+work/x"},
		// the same path under another root
		{"/home/ann", "/mnt/backup/home/ann/x", "/mnt/backup/home/ann/x"},
	} {
		if got := tildeFor(c.home, c.in); got != c.want {
			t.Errorf("tildeFor(%q, %q) = %q, want %q", c.home, c.in, got, c.want)
		}
	}
}

// TestTildeForOtherSpellings: the home folder written another way stays in
// the report with the person's name.
func TestTildeForOtherSpellings(t *testing.T) {
	for _, c := range []struct{ home, in, want string }{
		{"/home/ann", "journal: /home/ann.", "journal: ~."},             // a sentence ending in the folder
		{`C:\Users\Ann`, `c:\users\ann\AppData\x.db`, `~\AppData\x.db`}, // Windows: case differs
		{`C:\Users\Ann`, `C:/Users/Ann/AppData/x.db`, `~/AppData/x.db`}, // Windows: forward slashes
	} {
		if got := tildeFor(c.home, c.in); got != c.want {
			t.Errorf("tildeFor(%q, %q) = %q, want %q", c.home, c.in, got, c.want)
		}
	}
}
