package settings

import "golang.org/x/sys/windows"

// knownDocuments is the Documents folder as Windows knows it
// (FOLDERID_Documents): where OneDrive's Known Folder Move or a person's
// own move put it, not necessarily %USERPROFILE%\Documents; "" when
// Windows cannot say.
func knownDocuments() string {
	d, err := windows.KnownFolderPath(windows.FOLDERID_Documents, windows.KF_FLAG_DEFAULT)
	if err != nil {
		return ""
	}
	return d
}
