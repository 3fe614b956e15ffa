package app

import (
	"fmt"
	"os"
	"path/filepath"
)

// Kinds of FolderHint.
const (
	HintBundle            = "bundle"             // the folder is a bundle: <coworkers>/<id>
	HintCoworkerSubfolder = "coworker_subfolder" // the folder is a bundle's coworker/ folder
)

// FolderHint says that a folder picked as the coworkers folder is a
// coworker itself (or a bundle's coworker/ folder), so the coworkers
// folder is its parent (or grandparent): the Coworkers screen shows
// Message and a "Use the parent folder" button that calls
// SetCoworkersDir(Parent) (docs/app.md#adding-a-coworker).
type FolderHint struct {
	Kind    string `json:"kind"`    // HintBundle or HintCoworkerSubfolder
	Picked  string `json:"picked"`  // the folder picked, absolute
	Bundle  string `json:"bundle"`  // the bundle folder it is or belongs to
	Parent  string `json:"parent"`  // the folder that holds that bundle: the coworkers folder to use
	Message string `json:"message"` // what to tell the person
}

// bundleFolderHint returns the hint for dir (absolute), or nil when dir
// is neither a bundle (it holds coworker/manifest.md) nor a bundle's
// coworker/ folder (it is named coworker and holds manifest.md).
func bundleFolderHint(dir string) *FolderHint {
	isFile := func(p string) bool {
		st, err := os.Stat(p)
		return err == nil && st.Mode().IsRegular()
	}
	if isFile(filepath.Join(dir, "coworker", "manifest.md")) {
		parent := filepath.Dir(dir)
		return &FolderHint{Kind: HintBundle, Picked: dir, Bundle: dir, Parent: parent,
			Message: fmt.Sprintf("This folder is a coworker (%s); its parent %s is the coworkers folder.", filepath.Base(dir), parent)}
	}
	if filepath.Base(dir) == "coworker" && isFile(filepath.Join(dir, "manifest.md")) {
		b := filepath.Dir(dir)
		parent := filepath.Dir(b)
		return &FolderHint{Kind: HintCoworkerSubfolder, Picked: dir, Bundle: b, Parent: parent,
			Message: fmt.Sprintf("This folder is the coworker/ folder of the coworker %s; the coworkers folder is %s, two levels up.", filepath.Base(b), parent)}
	}
	return nil
}
