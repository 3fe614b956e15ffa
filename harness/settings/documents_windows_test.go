package settings

import (
	"os"
	"path/filepath"
	"testing"
)

// On Windows the coworkers folder goes in Documents as Windows knows it
// (the Known Folder, which OneDrive's Known Folder Move redirects), an
// absolute folder that exists.
func TestDocumentsIsTheKnownFolder(t *testing.T) {
	d := knownDocuments()
	if d == "" || !filepath.IsAbs(d) {
		t.Fatalf("knownDocuments() = %q; want an absolute folder", d)
	}
	if st, err := os.Stat(d); err != nil || !st.IsDir() {
		t.Fatalf("Documents %s: %v", d, err)
	}
	if got := documentsDir(); got != d {
		t.Errorf("documentsDir() = %q; want the Known Folder %q", got, d)
	}
	p, err := ResolvePaths(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if p.DefaultCoworkers != filepath.Join(d, "OpenWorker Coworkers") {
		t.Errorf("coworkers folder = %q; want it inside %q", p.DefaultCoworkers, d)
	}
}
