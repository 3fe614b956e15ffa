package bundle

import (
	"archive/zip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"
)

// Attaching a skill (docs/bundles.md#attaching-a-skill): a folder holding
// SKILL.md, or a .zip of one, is copied into coworker/skills/<name> of a
// bundle. Only folders and regular files are copied: a link, a device or
// a zip entry that would land outside the skill folder ("../x", "/x",
// "C:x", a backslash) is refused, as is more than MaxSkillFiles entries or
// MaxSkillBytes bytes (counted as written, not as a zip claims). The copy
// is made in a hidden folder and renamed into place after its SKILL.md
// loads, so a failed attach leaves nothing.

// Limits of one attached skill.
const (
	MaxSkillFiles = 1000     // files and folders
	MaxSkillBytes = 64 << 20 // bytes of all files (64 MiB)
)

// AttachSkill is AttachSkillWithNotices without the notices.
func AttachSkill(dir, src string) (name string, err error) {
	name, _, err = AttachSkillWithNotices(dir, src)
	return name, err
}

// AttachSkillWithNotices copies the skill folder or .zip src into the
// bundle in dir (a linked coworker's target) as coworker/skills/<name>
// and returns the name, with notices about what it mended and what the
// skill's SKILL.md holds that the Agent Skills specification would refuse
// (docs/bundles.md#attaching-a-skill).
//
// The name is the one SKILL.md's front matter gives, else the source's:
// the folder's name, or for a zip the one folder it holds, or the zip's
// name without ".zip" when SKILL.md is at its top. A name that is not a
// valid Agent Skills name (capitals, spaces, "_") is mended to one
// ("PDF Processing" gives pdf-processing), and a folder named otherwise
// than its skill is attached under the skill's name; each is a notice.
// SKILL.md is copied as it is. A name with nothing to mend it from (no
// ASCII letter or digit), or one attached already, is an error, as is a
// SKILL.md that does not load (its file, line and fix). The manifest is
// not changed: when it lists skills (Draft.Skills non-nil), add the name
// there and Save.
func AttachSkillWithNotices(dir, src string) (name string, notices []Notice, err error) {
	l := &loader{dir: dir}
	l.resolveRoot()
	if st, err := os.Stat(l.root); err != nil || !st.IsDir() {
		return "", nil, fmt.Errorf("no coworker folder %s", dir)
	}
	from, fill, done, err := openSkillSource(src)
	if err != nil {
		return "", nil, err
	}
	defer done()
	skills := filepath.Join(l.root, "coworker", "skills")
	if _, err := os.Lstat(skills); errors.Is(err, fs.ErrNotExist) {
		defer func() {
			if err != nil {
				os.Remove(skills) // made for this skill: a refused one leaves nothing
			}
		}()
	}
	tmp, err := attachFolder(skills, src)
	if err != nil {
		return "", nil, err
	}
	defer os.RemoveAll(tmp)
	if err := fill(tmp); err != nil {
		return "", nil, err
	}
	name, mended, err := placeSkill(l, from, src, tmp, skills)
	if err != nil {
		return "", nil, err
	}
	notices = append(notices, mended...)
	notices = append(notices, movedNotices(l.notices, tmp, filepath.Join(skills, name))...)
	return name, notices, nil
}

// openSkillSource opens the skill src, a folder (or a link to one) or a
// .zip of one: its own name (the folder's, or zipLayout's), what copies
// the skill into a folder, and what closes the source.
func openSkillSource(src string) (from string, fill func(dst string) error, done func(), err error) {
	st, err := os.Stat(src)
	if err != nil {
		return "", nil, nil, fmt.Errorf("skill %s: %w", src, err)
	}
	switch {
	case st.IsDir():
		real, err := filepath.EvalSymlinks(src) // a link to a skill folder: the folder
		if err != nil {
			return "", nil, nil, fmt.Errorf("skill %s: %w", src, err)
		}
		return filepath.Base(real), func(dst string) error { return copySkillFolder(real, dst) }, func() {}, nil
	case strings.EqualFold(filepath.Ext(src), ".zip"):
		zr, err := zip.OpenReader(src)
		if err != nil {
			return "", nil, nil, fmt.Errorf("skill %s: not a readable zip: %w", src, err)
		}
		from, prefix, err := zipLayout(src, zr.File)
		if err != nil {
			zr.Close()
			return "", nil, nil, err
		}
		return from, func(dst string) error { return extractSkill(src, zr.File, prefix, dst) }, func() { zr.Close() }, nil
	default:
		return "", nil, nil, fmt.Errorf("skill %s is a file; choose a skill folder (holding SKILL.md) or a .zip of one", src)
	}
}

// attachFolder makes a new hidden folder (mode 0755) in the skills
// folder (made when missing) to put the skill src together in.
func attachFolder(skills, src string) (string, error) {
	if err := os.MkdirAll(skills, 0o755); err != nil {
		return "", fmt.Errorf("attach skill %s: %w", src, err)
	}
	tmp, err := os.MkdirTemp(skills, ".attach-")
	if err != nil {
		return "", fmt.Errorf("attach skill %s: %w", src, err)
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		os.RemoveAll(tmp)
		return "", fmt.Errorf("attach skill %s: %w", src, err)
	}
	return tmp, nil
}

// placeSkill names the skill put together in tmp (attachName), checks
// that it is not attached already and that it loads (collecting l's
// notices), and renames it into the skills folder; mended says how its
// name was mended.
func placeSkill(l *loader, from, src, tmp, skills string) (name string, mended []Notice, err error) {
	srcMD := filepath.Join(src, "SKILL.md") // as errors name it
	name, mended, lerr := attachName(l, from, filepath.Join(tmp, "SKILL.md"), srcMD)
	if lerr != nil {
		return "", nil, lerr
	}
	dst := filepath.Join(skills, name)
	if _, err := os.Lstat(dst); err == nil {
		return "", nil, fmt.Errorf("skill %q is attached already (%s); detach it first, or rename the one to attach", name, dst)
	}
	l.notices = nil
	if _, _, lerr := l.loadSkill(name, filepath.Join(tmp, "SKILL.md")); lerr != nil {
		lerr.File = srcMD
		return "", nil, lerr
	}
	if err := rename(tmp, dst); err != nil {
		return "", nil, fmt.Errorf("attach skill %s: %w", name, err)
	}
	return name, mended, nil
}

// movedNotices returns notices with each file under tmp renamed to the
// same file under dst, where the skill now is.
func movedNotices(notices []Notice, tmp, dst string) []Notice {
	out := make([]Notice, 0, len(notices))
	for _, n := range notices {
		if rel, err := filepath.Rel(tmp, n.File); err == nil && !strings.HasPrefix(rel, "..") {
			n.File = filepath.Join(dst, rel)
		}
		out = append(out, n)
	}
	return out
}

// attachName is the folder name a skill is attached under, from the
// name in its SKILL.md at path (srcMD as errors and notices name it) or
// else from, the source's name: that name, mended to a valid Agent
// Skills name when it is not one. mended says what was changed.
func attachName(l *loader, from, path, srcMD string) (name string, mended []Notice, _ *LoadError) {
	front, line, col := frontName(path)
	want, what := from, "the skill's folder"
	if front != "" {
		want, what = front, "its SKILL.md"
		if line == 0 {
			line, col = 2, 1
		}
	}
	if specName(want) {
		name = want
	} else if name = skillNameFor(want); name == "" {
		return "", nil, l.errf(srcMD, line, col, fmt.Sprintf("name the skill with lowercase ASCII letters, digits and hyphens in SKILL.md (name: %s)", suggestSkillName(from)),
			"skill name %s (from %s) has no ASCII letter or digit to make a skill folder name of", strconv.QuoteToASCII(want), what)
	}
	switch {
	case name != want:
		mended = append(mended, Notice{File: srcMD, Line: line, Col: col, Fix: fmt.Sprintf("write \"name: %s\" in SKILL.md", name),
			Msg: fmt.Sprintf("skill name %s (from %s) is not a valid Agent Skills name (lowercase letters, digits and single hyphens); the skill is attached as coworker/skills/%s", strconv.QuoteToASCII(want), what, name)})
	case name != from:
		mended = append(mended, Notice{File: srcMD, Line: line, Col: col, Fix: fmt.Sprintf("rename the folder %q to %q where the skill comes from", from, name),
			Msg: fmt.Sprintf("SKILL.md names the skill %q, its folder is %q; the skill is attached as coworker/skills/%s, as the Agent Skills specification names a skill's folder after it", name, from, name)})
	}
	return name, mended, nil
}

// frontName is the "name" of the SKILL.md at path and its position, or ""
// when it has none or cannot be read (loadSkill says why).
func frontName(path string) (name string, line, col int) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", 0, 0
	}
	fm, err := splitFrontMatter(data)
	if err != nil || !fm.present {
		return "", 0, 0
	}
	l := &loader{}
	m, _, lerr := l.parseYAML(path, fm.yaml, skillKeys)
	if lerr != nil {
		return "", 0, 0
	}
	n, ok := m.value("name").(*ast.StringNode)
	if !ok {
		return "", 0, 0
	}
	line, col = pos(n)
	return strings.TrimSpace(n.Value), line, col
}

// RemoveSkill deletes the folder coworker/skills/<name> of the bundle in
// dir. Remove the name from Draft.Skills too (and Save) when the manifest
// lists skills, or the bundle no longer loads.
func RemoveSkill(dir, name string) error {
	if !skillPattern.MatchString(name) {
		return fmt.Errorf("skill name %q is not valid", name)
	}
	l := &loader{dir: dir}
	l.resolveRoot()
	p := filepath.Join(l.root, "coworker", "skills", name)
	if _, err := os.Lstat(p); err != nil {
		return fmt.Errorf("coworker %s has no skill %q", dir, name)
	}
	return os.RemoveAll(p)
}

// skillBudget counts what a copy writes against the limits.
type skillBudget struct {
	src          string
	files, bytes int64
}

func (b *skillBudget) entry() error {
	if b.files++; b.files > MaxSkillFiles {
		return fmt.Errorf("skill %s holds more than %d files and folders; a skill is a few instructions and resources", b.src, MaxSkillFiles)
	}
	return nil
}

// copyFile copies r to a new file dst, counting bytes.
func (b *skillBudget) copyFile(dst string, r io.Reader) error {
	f, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	left := MaxSkillBytes - b.bytes
	n, err := io.Copy(f, io.LimitReader(r, left+1))
	b.bytes += n
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && b.bytes > MaxSkillBytes {
		err = fmt.Errorf("skill %s is larger than %d MiB", b.src, MaxSkillBytes>>20)
	}
	return err
}

// copySkillFolder copies the folder src into the empty folder dst.
func copySkillFolder(src, dst string) error {
	if st, err := os.Stat(filepath.Join(src, "SKILL.md")); err != nil || !st.Mode().IsRegular() {
		return fmt.Errorf("%s is not a skill: it has no SKILL.md file", src)
	}
	b := &skillBudget{src: src}
	return filepath.WalkDir(src, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("skill %s: %w", src, err)
		}
		rel, _ := filepath.Rel(src, p)
		if rel == "." {
			return nil
		}
		if err := b.entry(); err != nil {
			return err
		}
		out := filepath.Join(dst, rel)
		switch t := e.Type(); {
		case t.IsDir():
			return os.Mkdir(out, 0o755)
		case t.IsRegular():
			f, err := os.Open(p)
			if err != nil {
				return fmt.Errorf("skill %s: %w", src, err)
			}
			defer f.Close()
			if err := b.copyFile(out, f); err != nil {
				return fmt.Errorf("skill %s: %s: %w", src, filepath.ToSlash(rel), err)
			}
			return nil
		case t&fs.ModeSymlink != 0:
			return fmt.Errorf("skill %s: %s is a link; copy the file it points to into the skill instead", src, filepath.ToSlash(rel))
		default:
			return fmt.Errorf("skill %s: %s is not a regular file", src, filepath.ToSlash(rel))
		}
	})
}

// zipLayout finds the skill in a zip: SKILL.md at the top (name: the zip's
// name), or in the one top folder (name: that folder). Entries under
// __MACOSX/ (macOS resource forks) are ignored.
func zipLayout(src string, files []*zip.File) (name, prefix string, err error) {
	tops := map[string]bool{}
	top := false
	for _, f := range files {
		if ignoredZipEntry(f.Name) {
			continue
		}
		if f.Name == "SKILL.md" {
			top = true
		}
		first, _, _ := strings.Cut(f.Name, "/")
		tops[first] = true
	}
	if top {
		return strings.TrimSuffix(filepath.Base(src), filepath.Ext(src)), "", nil
	}
	if len(tops) == 1 {
		for t := range tops {
			for _, f := range files {
				if f.Name == t+"/SKILL.md" {
					return t, t + "/", nil
				}
			}
		}
	}
	return "", "", fmt.Errorf("%s is not a skill: it has no SKILL.md at its top or in its one folder", src)
}

func ignoredZipEntry(name string) bool {
	return strings.HasPrefix(name, "__MACOSX/") || path.Base(name) == ".DS_Store"
}

// extractSkill extracts the entries of a zip under prefix into dst.
func extractSkill(src string, files []*zip.File, prefix, dst string) error {
	b := &skillBudget{src: src}
	for _, f := range files {
		if ignoredZipEntry(f.Name) || !strings.HasPrefix(f.Name, prefix) {
			continue
		}
		rel := strings.TrimPrefix(f.Name, prefix)
		if rel == "" {
			continue
		}
		if err := b.entry(); err != nil {
			return err
		}
		clean := strings.TrimSuffix(rel, "/")
		if !staysInside(clean) {
			return fmt.Errorf("skill %s: entry %q would land outside the skill folder; the zip is refused", src, f.Name)
		}
		if err := b.extractEntry(f, filepath.Join(dst, filepath.FromSlash(clean))); err != nil {
			return err
		}
	}
	return nil
}

// staysInside reports whether the slash path rel of a zip entry names a
// place inside the folder it is extracted to: relative, clean, no "..",
// no backslash, colon or NUL.
func staysInside(rel string) bool {
	return !(strings.ContainsAny(rel, `\:`) || strings.HasPrefix(rel, "/") || rel != path.Clean(rel) ||
		rel == ".." || strings.HasPrefix(rel, "../") || strings.Contains(rel, "\x00"))
}

// extractEntry extracts the zip entry f of skill b.src to out: a folder,
// or a regular file within b's budget; any other kind is an error.
func (b *skillBudget) extractEntry(f *zip.File, out string) error {
	switch mode := f.Mode(); {
	case mode.IsDir():
		if err := os.MkdirAll(out, 0o755); err != nil {
			return fmt.Errorf("skill %s: %w", b.src, err)
		}
		return nil
	case mode.IsRegular():
		return b.extractFile(f, out)
	case mode&fs.ModeSymlink != 0:
		return fmt.Errorf("skill %s: %s is a link; links in a skill zip are refused", b.src, f.Name)
	default:
		return fmt.Errorf("skill %s: %s is not a regular file", b.src, f.Name)
	}
}

// extractFile writes the regular file f of skill b.src's zip to out
// (copyFile), naming a damaged entry as such.
func (b *skillBudget) extractFile(f *zip.File, out string) error {
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return fmt.Errorf("skill %s: %w", b.src, err)
	}
	r, err := f.Open()
	if err != nil {
		return fmt.Errorf("skill %s: %s: %w", b.src, f.Name, err)
	}
	err = b.copyFile(out, r)
	r.Close()
	if err != nil {
		if errors.Is(err, zip.ErrChecksum) || errors.Is(err, zip.ErrFormat) {
			return fmt.Errorf("skill %s: %s is damaged: %w", b.src, f.Name, err)
		}
		return fmt.Errorf("skill %s: %s: %w", b.src, f.Name, err)
	}
	return nil
}
