package update

import (
	"archive/zip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// bundleOf is the .app folder exe runs from
// (…/OpenWorker.app/Contents/MacOS/openworker).
func bundleOf(exe string) (string, error) {
	for d := filepath.Dir(exe); d != filepath.Dir(d); d = filepath.Dir(d) {
		if strings.HasSuffix(d, ".app") {
			return d, nil
		}
	}
	return "", fmt.Errorf("%s is not inside a .app bundle: update it by downloading OpenWorker again", exe)
}

// replaceAppBundle unpacks the zipped .app at zipPath beside the bundle
// exe runs from, then swaps the two folders by rename and deletes the old
// one. If the second rename fails the old bundle is put back.
func replaceAppBundle(zipPath, exe string) error {
	bundle, err := bundleOf(exe)
	if err != nil {
		return err
	}
	parent := filepath.Dir(bundle)
	tmp, err := os.MkdirTemp(parent, ".openworker-update-")
	if err != nil {
		return fmt.Errorf("unpack the update beside %s (is the folder writable?): %w", bundle, err)
	}
	defer os.RemoveAll(tmp)
	newApp, err := unzipApp(zipPath, tmp)
	if err != nil {
		return err
	}
	old := filepath.Join(tmp, "old.app")
	if err := os.Rename(bundle, old); err != nil {
		return fmt.Errorf("move the old %s aside: %w", bundle, err)
	}
	if err := os.Rename(newApp, bundle); err != nil {
		if rerr := os.Rename(old, bundle); rerr != nil {
			return fmt.Errorf("install the new %s: %v; putting the old one back failed too (%v): it is at %s", bundle, err, rerr, old)
		}
		return fmt.Errorf("install the new %s: %w", bundle, err)
	}
	return nil
}

// unzipApp extracts the zip at zipPath into dir and returns the one .app
// folder at its top.
func unzipApp(zipPath, dir string) (string, error) {
	zr, err := zip.OpenReader(zipPath)
	if err != nil {
		return "", fmt.Errorf("open the update %s: %w", zipPath, err)
	}
	defer zr.Close()
	top := ""
	for _, f := range zr.File {
		name := filepath.FromSlash(f.Name)
		if !filepath.IsLocal(name) {
			return "", fmt.Errorf("the update %s holds %q, outside its folder: %w", zipPath, f.Name, ErrRefused)
		}
		first := strings.SplitN(filepath.ToSlash(name), "/", 2)[0]
		if top == "" {
			top = first
		}
		if first != top || !strings.HasSuffix(top, ".app") {
			return "", fmt.Errorf("the update %s must hold one .app folder at its top, not %q: %w", zipPath, f.Name, ErrRefused)
		}
		if err := extract(f, filepath.Join(dir, name)); err != nil {
			return "", fmt.Errorf("unpack %s from the update: %w", f.Name, err)
		}
	}
	if top == "" {
		return "", fmt.Errorf("the update %s is empty: %w", zipPath, ErrRefused)
	}
	return filepath.Join(dir, top), nil
}

// extract writes one zip entry: a folder, a symbolic link (frameworks use
// them) or a file with its mode.
func extract(f *zip.File, dst string) error {
	mode := f.Mode()
	if mode.IsDir() {
		return os.MkdirAll(dst, 0o755)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	rc, err := f.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	if mode&os.ModeSymlink != 0 {
		target, err := io.ReadAll(io.LimitReader(rc, 4096))
		if err != nil {
			return err
		}
		t := string(target)
		if filepath.IsAbs(t) || !filepath.IsLocal(filepath.Join(filepath.Dir(f.Name), t)) {
			return errors.New("a symbolic link pointing outside the app")
		}
		return os.Symlink(t, dst)
	}
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, mode.Perm()|0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, rc); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
