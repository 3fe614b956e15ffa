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
	"strings"
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

// AttachSkill copies the skill folder or .zip src into the bundle in dir
// (a linked coworker's target) as coworker/skills/<name> and returns the
// name: the folder's name, or for a zip the one folder it holds, or the
// zip's name without ".zip" when SKILL.md is at its top. The name must be
// a valid skill name and not attached already. The manifest is not
// changed: when it lists skills (Draft.Skills non-nil), add the name
// there and Save.
func AttachSkill(dir, src string) (name string, err error) {
	l := &loader{dir: dir}
	l.resolveRoot()
	if st, err := os.Stat(l.root); err != nil || !st.IsDir() {
		return "", fmt.Errorf("no coworker folder %s", dir)
	}
	st, err := os.Stat(src)
	if err != nil {
		return "", fmt.Errorf("skill %s: %w", src, err)
	}
	var fill func(dst string) error
	switch {
	case st.IsDir():
		real, err := filepath.EvalSymlinks(src) // a link to a skill folder: the folder
		if err != nil {
			return "", fmt.Errorf("skill %s: %w", src, err)
		}
		name = filepath.Base(real)
		fill = func(dst string) error { return copySkillFolder(real, dst) }
	case strings.EqualFold(filepath.Ext(src), ".zip"):
		zr, err := zip.OpenReader(src)
		if err != nil {
			return "", fmt.Errorf("skill %s: not a readable zip: %w", src, err)
		}
		defer zr.Close()
		var prefix string
		name, prefix, err = zipLayout(src, zr.File)
		if err != nil {
			return "", err
		}
		fill = func(dst string) error { return extractSkill(src, zr.File, prefix, dst) }
	default:
		return "", fmt.Errorf("skill %s is a file; choose a skill folder (holding SKILL.md) or a .zip of one", src)
	}
	if !skillPattern.MatchString(name) {
		return "", fmt.Errorf("skill name %q (from %s) is not valid; rename it to 1 to 64 letters, digits, '_' or '-'", name, src)
	}
	skills := filepath.Join(l.root, "coworker", "skills")
	dst := filepath.Join(skills, name)
	if _, err := os.Lstat(dst); err == nil {
		return "", fmt.Errorf("skill %q is attached already (%s); detach it first, or rename the one to attach", name, dst)
	}
	if err := os.MkdirAll(skills, 0o755); err != nil {
		return "", fmt.Errorf("attach skill %s: %w", name, err)
	}
	tmp, err := os.MkdirTemp(skills, ".attach-"+name+"-")
	if err != nil {
		return "", fmt.Errorf("attach skill %s: %w", name, err)
	}
	defer os.RemoveAll(tmp)
	if err := os.Chmod(tmp, 0o755); err != nil {
		return "", fmt.Errorf("attach skill %s: %w", name, err)
	}
	if err := fill(tmp); err != nil {
		return "", err
	}
	if _, _, lerr := l.loadSkill(name, filepath.Join(tmp, "SKILL.md")); lerr != nil {
		lerr.File = filepath.Join(src, "SKILL.md")
		return "", lerr
	}
	if err := rename(tmp, dst); err != nil {
		return "", fmt.Errorf("attach skill %s: %w", name, err)
	}
	return name, nil
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
		if strings.ContainsAny(clean, `\:`) || strings.HasPrefix(clean, "/") || clean != path.Clean(clean) ||
			clean == ".." || strings.HasPrefix(clean, "../") || strings.Contains(clean, "\x00") {
			return fmt.Errorf("skill %s: entry %q would land outside the skill folder; the zip is refused", src, f.Name)
		}
		out := filepath.Join(dst, filepath.FromSlash(clean))
		mode := f.Mode()
		switch {
		case mode.IsDir():
			if err := os.MkdirAll(out, 0o755); err != nil {
				return fmt.Errorf("skill %s: %w", src, err)
			}
		case mode.IsRegular():
			if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
				return fmt.Errorf("skill %s: %w", src, err)
			}
			r, err := f.Open()
			if err != nil {
				return fmt.Errorf("skill %s: %s: %w", src, f.Name, err)
			}
			err = b.copyFile(out, r)
			r.Close()
			if err != nil {
				if errors.Is(err, zip.ErrChecksum) || errors.Is(err, zip.ErrFormat) {
					return fmt.Errorf("skill %s: %s is damaged: %w", src, f.Name, err)
				}
				return fmt.Errorf("skill %s: %s: %w", src, f.Name, err)
			}
		case mode&fs.ModeSymlink != 0:
			return fmt.Errorf("skill %s: %s is a link; links in a skill zip are refused", src, f.Name)
		default:
			return fmt.Errorf("skill %s: %s is not a regular file", src, f.Name)
		}
	}
	return nil
}
