package bundle

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const goodManifest = "---\nid: cw\nname: Coworker\n---\nYou help.\n"

// symlink makes link point at target, skipping where links cannot be made
// (Windows without the privilege).
func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("cannot make symbolic links here: %v", err)
	}
}

// secretFile writes a file outside any bundle whose text must never load.
func secretFile(t *testing.T) (path, text string) {
	t.Helper()
	text = "SECRET-" + t.Name()
	path = filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path, text
}

// wantLinkOut checks that err is the LoadError for link (relative to dir)
// leading out to target, and that no bundle came back.
func wantLinkOut(t *testing.T, b *Bundle, err error, dir, link, target string) {
	t.Helper()
	var le *LoadError
	if !errors.As(err, &le) {
		t.Fatalf("Load = %v, %v; want a *LoadError", b, err)
	}
	if b != nil {
		t.Errorf("Load returned a bundle with its error")
	}
	file := filepath.Join(dir, filepath.FromSlash(link))
	msg := link + " is a link to " + target
	if le.File != file || !strings.HasPrefix(le.Msg, msg) || !strings.Contains(le.Msg, "outside the bundle folder") || le.Fix != linkOutFix {
		t.Errorf("error = %q (file %s)\nwant file %s, message starting %q, fix %q", le, le.File, file, msg, linkOutFix)
	}
}

func TestLinkOutOfBundleRefused(t *testing.T) {
	for _, tc := range []struct {
		name string
		link string // relative to the bundle folder; pointed at the secret
	}{
		{"manifest", "coworker/manifest.md"},
		{"tools", "coworker/tools.json"},
		{"listed skill file", "coworker/skills/s/SKILL.md"},
		{"walked skill file", "coworker/skills/s/SKILL.md"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			secret, text := secretFile(t)
			manifest := goodManifest
			if tc.name == "listed skill file" {
				manifest = "---\nid: cw\nname: Coworker\nskills: [s]\n---\nYou help.\n"
			}
			files := map[string]string{"coworker/manifest.md": manifest, "coworker/tools.json": emptyTools}
			delete(files, tc.link)
			dir := writeBundle(t, "cw", files)
			symlink(t, secret, filepath.Join(dir, filepath.FromSlash(tc.link)))
			b, err := Load(dir)
			wantLinkOut(t, b, err, dir, tc.link, secret)
			if strings.Contains(err.Error(), text) {
				t.Errorf("the error shows the secret's text: %v", err)
			}
			set, err := LoadDir(filepath.Dir(dir))
			if err != nil || len(set.Bundles) != 0 || len(set.Errors) != 1 {
				t.Fatalf("LoadDir = %+v, %v; want one error", set, err)
			}
		})
	}
}

// A folder on the way (coworker, skills, one skill) that links out is
// named, not the file under it.
func TestFolderLinkOutOfBundleRefused(t *testing.T) {
	for _, link := range []string{"coworker", "coworker/skills", "coworker/skills/s"} {
		t.Run(link, func(t *testing.T) {
			outside := writeBundle(t, "elsewhere", map[string]string{
				"coworker/manifest.md": goodManifest, "coworker/tools.json": emptyTools,
				"coworker/skills/s/SKILL.md": "Skill body.\n",
			})
			dir := writeBundle(t, "cw", map[string]string{"coworker/manifest.md": goodManifest, "coworker/tools.json": emptyTools})
			target := filepath.Join(outside, filepath.FromSlash(link))
			if link == "coworker" {
				if err := os.RemoveAll(filepath.Join(dir, "coworker")); err != nil {
					t.Fatal(err)
				}
			}
			symlink(t, target, filepath.Join(dir, filepath.FromSlash(link)))
			b, err := Load(dir)
			wantLinkOut(t, b, err, dir, link, target)
		})
	}
}

// Links that stay inside the bundle are followed, relative or absolute.
func TestLinkInsideBundleLoads(t *testing.T) {
	dir := writeBundle(t, "cw", map[string]string{
		"shared/manifest.md": goodManifest, "coworker/tools.json": emptyTools,
		"shared/skill.md": "Shared skill body.\n",
	})
	symlink(t, "../shared/manifest.md", filepath.Join(dir, "coworker", "manifest.md"))
	symlink(t, filepath.Join(dir, "shared", "skill.md"), filepath.Join(dir, "coworker", "skills", "s", "SKILL.md"))
	b, err := Load(dir)
	if err != nil {
		t.Fatalf("Load = %v", err)
	}
	if b.Instructions != "You help." || len(b.Skills) != 1 || b.Skills[0].Body != "Shared skill body." {
		t.Errorf("bundle = %+v", b)
	}
	if want := filepath.Join(dir, "coworker", "skills", "s", "SKILL.md"); b.Skills[0].Path != want {
		t.Errorf("skill path = %s, want the path in the bundle %s", b.Skills[0].Path, want)
	}
}

// The bundle folder may itself be a link in the bundles folder; its files
// are then confined to the folder it resolves to.
func TestLinkedBundleFolder(t *testing.T) {
	dev := t.TempDir() // where the user develops the coworker
	real := filepath.Join(dev, "cw")
	writeAt(t, real, map[string]string{"coworker/manifest.md": goodManifest, "coworker/tools.json": emptyTools, "notes.md": "x"})
	bundles := t.TempDir()
	linked := filepath.Join(bundles, "cw")
	symlink(t, real, linked)
	set, err := LoadDir(bundles)
	if err != nil || len(set.Errors) != 0 || len(set.Bundles) != 1 || set.Bundles[0].Dir != linked {
		t.Fatalf("LoadDir = %+v, %v; want the linked bundle", set, err)
	}
	// A file next to the real folder is outside the bundle, though the
	// link that leads there is inside it.
	sibling := filepath.Join(dev, "secret.md")
	if err := os.WriteFile(sibling, []byte("SECRET"), 0o600); err != nil {
		t.Fatal(err)
	}
	skill := filepath.Join(real, "coworker", "skills", "s", "SKILL.md")
	symlink(t, "../../../../secret.md", skill)
	b, err := Load(linked)
	wantLinkOut(t, b, err, linked, "coworker/skills/s/SKILL.md", "../../../../secret.md ("+mustEval(t, sibling)+")")
	// Inside the real folder is fine, through the link as well.
	if err := os.Remove(skill); err != nil {
		t.Fatal(err)
	}
	symlink(t, "../../../notes.md", skill)
	if b, err := Load(linked); err != nil || len(b.Skills) != 1 || b.Skills[0].Body != "x" {
		t.Errorf("Load(link inside) = %+v, %v", b, err)
	}
}

func mustEval(t *testing.T, p string) string {
	t.Helper()
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestDanglingLink(t *testing.T) {
	dir := writeBundle(t, "cw", map[string]string{"coworker/tools.json": emptyTools})
	symlink(t, "gone.md", filepath.Join(dir, "coworker", "manifest.md"))
	_, err := Load(dir)
	var le *LoadError
	if !errors.As(err, &le) || le.File != filepath.Join(dir, "coworker", "manifest.md") ||
		le.Msg != "coworker/manifest.md is a link to gone.md, which does not exist" {
		t.Errorf("Load = %v", err)
	}
}
