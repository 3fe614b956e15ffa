package sandbox

import (
	"fmt"
	"strings"
	"unsafe"

	"golang.org/x/sys/windows"
)

// The Windows sandbox is a restricted primary token at low integrity
// (docs/sandbox.md#windows): the token of this process with every
// privilege but SeChangeNotifyPrivilege removed, the Administrators group
// made deny-only, and the integrity level lowered to Low (S-1-16-4096).
// Windows' mandatory integrity control then denies the program, and
// every process it starts, writing to any object of a higher integrity
// level: files and folders (unlabelled ones count as Medium), registry
// keys outside HKCU\Software\AppDataLow, other processes and their
// windows.

// disableMaxPrivilege is CreateRestrictedToken's DISABLE_MAX_PRIVILEGE:
// delete every privilege but SeChangeNotifyPrivilege.
const disableMaxPrivilege = 0x1

var procCreateRestrictedToken = windows.NewLazySystemDLL("advapi32.dll").NewProc("CreateRestrictedToken")

// lowToken returns a new primary token for a sandboxed program; the
// caller closes it once the process has started.
func lowToken() (windows.Token, error) {
	var self windows.Token
	access := uint32(windows.TOKEN_DUPLICATE | windows.TOKEN_ASSIGN_PRIMARY | windows.TOKEN_QUERY | windows.TOKEN_ADJUST_DEFAULT)
	if err := windows.OpenProcessToken(windows.CurrentProcess(), access, &self); err != nil {
		return 0, fmt.Errorf("open this process's token: %w", err)
	}
	defer self.Close()
	admins, err := windows.CreateWellKnownSid(windows.WinBuiltinAdministratorsSid)
	if err != nil {
		return 0, fmt.Errorf("the Administrators SID: %w", err)
	}
	disable := []windows.SIDAndAttributes{{Sid: admins}}
	var tok windows.Token
	r, _, e := procCreateRestrictedToken.Call(uintptr(self), disableMaxPrivilege,
		uintptr(len(disable)), uintptr(unsafe.Pointer(&disable[0])),
		0, 0, 0, 0, uintptr(unsafe.Pointer(&tok)))
	if r == 0 {
		return 0, fmt.Errorf("CreateRestrictedToken: %w", e)
	}
	low, err := windows.CreateWellKnownSid(windows.WinLowLabelSid)
	if err != nil {
		tok.Close()
		return 0, fmt.Errorf("the low integrity SID: %w", err)
	}
	label := windows.Tokenmandatorylabel{Label: windows.SIDAndAttributes{Sid: low, Attributes: windows.SE_GROUP_INTEGRITY}}
	if err := windows.SetTokenInformation(tok, windows.TokenIntegrityLevel, (*byte)(unsafe.Pointer(&label)), label.Size()); err != nil {
		tok.Close()
		return 0, fmt.Errorf("lower the token to low integrity: %w", err)
	}
	return tok, nil
}

// Mandatory labels in SDDL: Low, no write up; a folder's is inherited by
// what it contains and what is created in it.
const (
	lowLabelFolder = "S:(ML;OICI;NW;;;LW)"
	lowLabelFile   = "S:(ML;;NW;;;LW)"
)

// labelLow gives path the Low mandatory label, so that a low-integrity
// program may write there (its access list must allow it too, as for any
// program of the person). A folder's label is inherited by everything in
// it; Windows applies it to what is already there when it is set. A path
// that already has it is left alone. The label stays when the program
// ends: other low-integrity programs of the person may write there too.
func labelLow(path string, dir bool) error {
	want := lowLabelFile
	if dir {
		want = lowLabelFolder
	}
	if sd, err := windows.GetNamedSecurityInfo(path, windows.SE_FILE_OBJECT, windows.LABEL_SECURITY_INFORMATION); err == nil {
		if strings.Contains(sd.String(), strings.TrimPrefix(want, "S:")) {
			return nil
		}
	}
	sd, err := windows.SecurityDescriptorFromString(want)
	if err != nil {
		return err
	}
	sacl, _, err := sd.SACL()
	if err != nil {
		return err
	}
	if err := windows.SetNamedSecurityInfo(path, windows.SE_FILE_OBJECT, windows.LABEL_SECURITY_INFORMATION, nil, nil, nil, sacl); err != nil {
		return fmt.Errorf("give %s the low integrity label, so that the sandboxed program may write there: %w", path, err)
	}
	return nil
}
