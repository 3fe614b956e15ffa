package launch

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// DefaultPathExt is the PATHEXT used on Windows when the variable is unset
// or empty (docs/mcp.md#finding-the-program).
const DefaultPathExt = ".COM;.EXE;.BAT;.CMD"

// Search is where and how a program is looked for
// (docs/mcp.md#finding-the-program). The zero value searches an empty
// PATH with the rules of the running OS.
type Search struct {
	// Path is the search PATH: folders separated by ";" when GOOS is
	// "windows", ":" otherwise. Empty and relative folders are skipped.
	Path string
	// Source says where Path came from, for messages ("the login shell
	// /bin/zsh", "the process"); "" leaves it out.
	Source string
	// GOOS picks the rules: "windows" matches PATHEXT extensions without
	// case and needs no executable bit; any other value needs a regular
	// file with an executable bit. "" is runtime.GOOS.
	GOOS string
	// PathExt is Windows' PATHEXT (";"-separated extensions); "" is
	// DefaultPathExt.
	PathExt string
	// InstallDir is the app's install folder: a relative program with a
	// separator resolves against it, and a bare name found there wins over
	// the search PATH. "" means unknown.
	InstallDir string
}

// NotFoundError is a program that is not in the install folder nor in
// any folder of the search PATH. Its message names the program, the
// folders searched and the fix.
type NotFoundError struct {
	Program string
	Install string   // the install folder looked in first ("" when unknown)
	Folders []string // the folders of the search PATH, in order
	Source  string   // Search.Source
	// Shims are PowerShell scripts and other files with a PATHEXT
	// extension CreateProcess cannot start (.js, .vbs; Windows rules)
	// found under the name, which are not run.
	Shims []string
}

func (e *NotFoundError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "program %q cannot be found: ", e.Program)
	if e.Install != "" {
		fmt.Fprintf(&b, "it is not in the install folder %s and ", e.Install)
	} else {
		b.WriteString("it is ")
	}
	path := "the PATH searched"
	if e.Source != "" {
		path += " (from " + e.Source + ")"
	}
	if len(e.Folders) == 0 {
		fmt.Fprintf(&b, "not on the search PATH, which is empty")
	} else {
		fmt.Fprintf(&b, "not in any folder of %s: %s", path, strings.Join(e.Folders, ", "))
	}
	if len(e.Shims) > 0 {
		for _, p := range e.Shims {
			if strings.EqualFold(extOf(p), ".ps1") {
				fmt.Fprintf(&b, "; %s is a PowerShell script, which OpenWorker does not run", p)
			} else {
				fmt.Fprintf(&b, "; %s cannot be started: only .com, .exe, .bat and .cmd files can", p)
			}
		}
		fmt.Fprintf(&b, "; install a version that has %s.cmd or %s.exe, or give the absolute path of one in \"command\"", e.Program, e.Program)
		return b.String()
	}
	b.WriteString("; install it, or give its absolute path in \"command\" (docs/mcp.md#finding-the-program)")
	return b.String()
}

// Find resolves prog (docs/mcp.md#finding-the-program):
//
//   - an absolute path is used as is (on Windows, one without a PATHEXT
//     extension gets the first PATHEXT extension that exists next to it);
//   - a relative path with a separator ("bin/acer-mcp") resolves against
//     InstallDir;
//   - a bare name ("npx") is taken from InstallDir when it is there, else
//     from the first folder of Path that has it.
//
// On Windows a name without a PATHEXT extension is tried with each
// extension in PATHEXT order, a name with one is tried as is, and
// extensions match without case. Only .com, .exe, .bat and .cmd are
// returned: other PATHEXT extensions (.ps1, .js) are skipped, and naming
// such a file, or finding only such files, is an error naming the .cmd
// or .exe to use instead. The error for a name found nowhere is a
// *NotFoundError.
func (s Search) Find(prog string) (string, error) {
	goos := s.goos()
	switch {
	case prog == "":
		return "", errors.New("no program to run; set \"command\" in servers.json")
	case strings.ContainsRune(prog, 0):
		return "", fmt.Errorf("program %q holds a NUL character; fix \"command\"", prog)
	case isAbs(prog, goos):
		return s.atPath(prog, goos)
	case strings.ContainsAny(prog, `/\`):
		if s.InstallDir == "" {
			return "", fmt.Errorf("program %q is relative and the install folder is unknown; give an absolute path in \"command\"", prog)
		}
		return s.atPath(filepath.Join(s.InstallDir, prog), goos)
	}
	return s.byName(prog, goos)
}

// atPath is the program at the absolute path p: as is, or on Windows the
// file of that name with a runnable extension when there is one.
func (s Search) atPath(p, goos string) (string, error) {
	if goos != "windows" {
		return p, nil
	}
	if err := s.refusePS1(p); err != nil {
		return "", err
	}
	if q, ok := s.inFolder(filepath.Dir(p), filepath.Base(p)); ok {
		return q, nil
	}
	return p, nil
}

// byName finds the bare name prog in InstallDir, then in the folders of
// Path.
func (s Search) byName(prog, goos string) (string, error) {
	if goos == "windows" {
		if err := s.refusePS1(prog); err != nil {
			return "", err
		}
	}
	if s.InstallDir != "" {
		if p, ok := s.inFolder(s.InstallDir, prog); ok {
			return p, nil
		}
	}
	folders := s.Folders()
	for _, dir := range folders {
		if p, ok := s.inFolder(dir, prog); ok {
			return p, nil
		}
	}
	return "", s.notFound(prog, folders, goos)
}

// notFound is the error for prog found nowhere; on Windows it names the
// files of that name that CreateProcess cannot start (Shims).
func (s Search) notFound(prog string, folders []string, goos string) *NotFoundError {
	e := &NotFoundError{Program: prog, Install: s.InstallDir, Folders: folders, Source: s.Source}
	if goos != "windows" {
		return e
	}
	for _, dir := range append([]string{s.InstallDir}, folders...) {
		if dir == "" {
			continue
		}
		for _, ext := range s.unrunnable() {
			if name, ok := entryFold(dir, prog+ext); ok {
				e.Shims = append(e.Shims, filepath.Join(dir, name))
			}
		}
	}
	return e
}

// Folders returns the folders of Path in order, without empty or relative
// entries and (Windows) without the quotes around an entry.
func (s Search) Folders() []string {
	goos := s.goos()
	sep := ":"
	if goos == "windows" {
		sep = ";"
	}
	var out []string
	for _, dir := range strings.Split(s.Path, sep) {
		if goos == "windows" && len(dir) >= 2 && dir[0] == '"' && dir[len(dir)-1] == '"' {
			dir = dir[1 : len(dir)-1]
		}
		if dir == "" || !isAbs(dir, goos) {
			continue
		}
		out = append(out, dir)
	}
	return out
}

// IsShim reports whether path is a batch file (.cmd or .bat, any case)
// that Windows runs through cmd.exe; see CmdLine. Trailing dots and
// spaces are ignored, as Windows strips them from a file name: npx.cmd.
// and "npx.cmd " are npx.cmd (CVE-2024-43402).
func IsShim(path string) bool {
	ext := strings.ToLower(winExt(path))
	return ext == ".cmd" || ext == ".bat"
}

// runnable are the extensions CreateProcess can start; other PATHEXT
// entries (.ps1, .js, .vbs) are skipped (docs/mcp.md#finding-the-program).
var runnable = []string{".com", ".exe", ".bat", ".cmd"}

// winTrim drops the trailing dots and spaces Windows strips from the last
// element of path.
func winTrim(path string) string {
	i := strings.LastIndexAny(path, `/\:`) + 1
	return path[:i] + strings.TrimRight(path[i:], ". ")
}

// winExt is extOf of path after winTrim: the extension Windows goes by.
func winExt(path string) string { return extOf(winTrim(path)) }

func (s Search) goos() string {
	if s.GOOS == "" {
		return runtime.GOOS
	}
	return s.GOOS
}

// exts is PATHEXT as lowercase extensions with their dot.
func (s Search) exts() []string {
	pe := s.PathExt
	if strings.TrimSpace(pe) == "" {
		pe = DefaultPathExt
	}
	var out []string
	for _, e := range strings.Split(pe, ";") {
		e = strings.ToLower(strings.TrimSpace(e))
		if e == "" {
			continue
		}
		if e[0] != '.' {
			e = "." + e
		}
		out = append(out, e)
	}
	return out
}

// unrunnable is .ps1 and the PATHEXT extensions CreateProcess cannot
// start, for NotFoundError.Shims.
func (s Search) unrunnable() []string {
	out := []string{".ps1"}
	for _, ext := range s.exts() {
		if !contains(runnable, ext) && !contains(out, ext) {
			out = append(out, ext)
		}
	}
	return out
}

// inFolder looks for name in dir by the rules of s.
func (s Search) inFolder(dir, name string) (string, bool) {
	if s.goos() != "windows" {
		p := filepath.Join(dir, name)
		fi, err := os.Stat(p)
		if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0 {
			return "", false
		}
		return p, true
	}
	exts := s.exts()
	if ext := strings.ToLower(winExt(name)); ext != "" && contains(exts, ext) {
		if !contains(runnable, ext) {
			return "", false // refused by Find (refuseUnrunnable)
		}
		if real, ok := entryFold(dir, winTrim(name)); ok {
			return filepath.Join(dir, real), true
		}
		return "", false
	}
	for _, ext := range exts {
		if !contains(runnable, ext) {
			continue
		}
		if real, ok := entryFold(dir, name+ext); ok {
			return filepath.Join(dir, real), true
		}
	}
	return "", false
}

// refusePS1 refuses a program named with the .ps1 extension (trailing
// dots and spaces ignored), naming the .cmd or .exe next to it when there
// is one, and one with another extension CreateProcess cannot start
// (refuseUnrunnable).
func (s Search) refusePS1(prog string) error {
	if !strings.EqualFold(winExt(prog), ".ps1") {
		return s.refuseUnrunnable(prog)
	}
	trimmed := winTrim(prog)
	base := trimmed[:len(trimmed)-len(".ps1")]
	dirs := []string{filepath.Dir(prog)}
	if !strings.ContainsAny(prog, `/\`) { // a bare name: where Find would look
		dirs = append([]string{s.InstallDir}, s.Folders()...)
	}
	var instead []string
	for _, ext := range []string{".cmd", ".exe"} {
		name := filepath.Base(base) + ext
		for _, dir := range dirs {
			if dir == "" {
				continue
			}
			if real, ok := entryFold(dir, name); ok {
				instead = append(instead, filepath.Join(dir, real))
				break
			}
		}
	}
	if len(instead) == 0 {
		return fmt.Errorf("program %q is a PowerShell script, which OpenWorker does not run, and no %s.cmd or %s.exe is next to it; install a version that has one and name it in \"command\"", prog, filepath.Base(base), filepath.Base(base))
	}
	return fmt.Errorf("program %q is a PowerShell script, which OpenWorker does not run; use %s in \"command\" instead", prog, strings.Join(instead, " or "))
}

// refuseUnrunnable refuses a program named with a PATHEXT extension
// other than .com, .exe, .bat and .cmd (.js, .vbs), which CreateProcess
// cannot start.
func (s Search) refuseUnrunnable(prog string) error {
	ext := strings.ToLower(winExt(prog))
	if ext == "" || !contains(s.exts(), ext) || contains(runnable, ext) {
		return nil
	}
	return fmt.Errorf("program %q is a %s file, which Windows cannot start (only .com, .exe, .bat and .cmd files can); name the program that runs it (such as node.exe) in \"command\" and the file in \"args\"", prog, ext)
}

// entryFold returns the name, as the file system keeps it, of the
// regular file (or link to one) in dir whose name equals name without
// case, as Windows file systems compare: npx.CMD for "npx.cmd". On a
// case-sensitive file system (the Windows rules tested on Linux) it reads
// the folder; on Windows a Stat already ignores case and diskName gives
// the stored spelling.
func entryFold(dir, name string) (string, bool) {
	if fi, err := os.Stat(filepath.Join(dir, name)); err == nil && fi.Mode().IsRegular() {
		return diskName(dir, name), true
	}
	if runtime.GOOS == "windows" {
		return "", false
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", false
	}
	for _, e := range entries {
		if !strings.EqualFold(e.Name(), name) {
			continue
		}
		if fi, err := os.Stat(filepath.Join(dir, e.Name())); err == nil && fi.Mode().IsRegular() {
			return e.Name(), true
		}
	}
	return "", false
}

// extOf is the extension of the last element of path ("" when none),
// taking both separators.
func extOf(path string) string {
	base := path[strings.LastIndexAny(path, `/\:`)+1:]
	if i := strings.LastIndexByte(base, '.'); i > 0 {
		return base[i:]
	}
	return ""
}

// isAbs is filepath.IsAbs for goos; Windows paths ("C:\x", `\\host\share`)
// are recognised on every OS so that tests of the Windows rules run here.
func isAbs(p, goos string) bool {
	if filepath.IsAbs(p) {
		return true
	}
	if goos != "windows" {
		return false
	}
	if len(p) >= 3 && p[1] == ':' && (p[2] == '\\' || p[2] == '/') {
		return true
	}
	return strings.HasPrefix(p, `\\`)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
