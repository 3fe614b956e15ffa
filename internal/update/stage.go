package update

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
)

// stagedFile is the record of a downloaded, verified update in the stage
// folder (docs/update.md#stage).
const stagedFile = "staged.json"

// Staged is a verified download waiting for the next start.
type Staged struct {
	Version  string `json:"version"`
	Platform string `json:"platform"`
	// File is the downloaded file's name inside the stage folder.
	File   string `json:"file"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// Progress is told how many of total bytes have arrived.
type Progress func(done, total int64)

// Download fetches res.Asset into dir (the stage folder, created if
// missing), reporting progress, and verifies its size and SHA-256 before
// recording it as staged. A file of another size or hash is deleted and
// refused (ErrRefused); what was staged before stays as it was.
func Download(ctx context.Context, client *http.Client, res Result, dir string, progress Progress) (Staged, error) {
	if !res.Newer || res.Asset == nil {
		return Staged{}, errors.New("no newer version to download")
	}
	a := *res.Asset
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return Staged{}, fmt.Errorf("create the update folder: %w", err)
	}
	name := "openworker-" + strings.TrimPrefix(res.Latest, "v") + "-" + res.Platform + assetExt(res.Platform)
	tmp, err := os.CreateTemp(dir, ".download-*")
	if err != nil {
		return Staged{}, fmt.Errorf("create the update file in %s: %w", dir, err)
	}
	defer os.Remove(tmp.Name()) // after the rename, a no-op
	err = fetchVerified(ctx, client, a, tmp, progress)
	if cerr := tmp.Close(); err == nil && cerr != nil {
		err = cerr
	}
	if err != nil {
		return Staged{}, err
	}
	if err := os.Rename(tmp.Name(), filepath.Join(dir, name)); err != nil {
		return Staged{}, fmt.Errorf("stage the update: %w", err)
	}
	st := Staged{Version: res.Latest, Platform: res.Platform, File: name, Size: a.Size, SHA256: strings.ToLower(a.SHA256)}
	if err := writeStaged(dir, st); err != nil {
		return Staged{}, err
	}
	return st, nil
}

// fetchVerified streams a's URL into w, hashing, and fails unless exactly
// a.Size bytes with hash a.SHA256 arrived.
func fetchVerified(ctx context.Context, client *http.Client, a Asset, w io.Writer, progress Progress) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, a.URL, nil)
	if err != nil {
		return fmt.Errorf("update file URL %q: %w", a.URL, err)
	}
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("download %s: %w", a.URL, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("download %s: HTTP %s", a.URL, resp.Status)
	}
	h := sha256.New()
	pw := &progressWriter{total: a.Size, report: progress}
	// One byte more than promised shows a file that is too long.
	n, err := io.Copy(io.MultiWriter(w, h, pw), io.LimitReader(resp.Body, a.Size+1))
	if err != nil {
		return fmt.Errorf("download %s: %w", a.URL, err)
	}
	if n != a.Size {
		return fmt.Errorf("update file %s is not the size the signed feed gives (%d bytes; the feed says %d): %w", a.URL, n, a.Size, ErrRefused)
	}
	if got := hex.EncodeToString(h.Sum(nil)); !strings.EqualFold(got, a.SHA256) {
		return fmt.Errorf("update file %s has SHA-256 %s, not the %s the signed feed gives: %w", a.URL, got, a.SHA256, ErrRefused)
	}
	return nil
}

// progressWriter counts bytes for a Progress.
type progressWriter struct {
	done, total int64
	report      Progress
}

func (p *progressWriter) Write(b []byte) (int, error) {
	p.done += int64(len(b))
	if p.report != nil {
		p.report(min(p.done, p.total), p.total)
	}
	return len(b), nil
}

// assetExt is the file name ending of platform's update file.
func assetExt(platform string) string {
	switch {
	case strings.HasPrefix(platform, "windows-"):
		return "-setup.exe"
	case strings.HasPrefix(platform, "darwin-"):
		return ".app.zip"
	}
	return ""
}

// writeStaged records st in dir atomically.
func writeStaged(dir string, st Staged) error {
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".staged-*")
	if err != nil {
		return fmt.Errorf("record the staged update: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("record the staged update: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("record the staged update: %w", err)
	}
	if err := os.Rename(tmp.Name(), filepath.Join(dir, stagedFile)); err != nil {
		return fmt.Errorf("record the staged update: %w", err)
	}
	return nil
}

// ReadStaged is the update staged in dir, if any (ok false when none).
func ReadStaged(dir string) (st Staged, ok bool, err error) {
	b, err := os.ReadFile(filepath.Join(dir, stagedFile))
	if errors.Is(err, os.ErrNotExist) {
		return Staged{}, false, nil
	}
	if err != nil {
		return Staged{}, false, err
	}
	if err := json.Unmarshal(b, &st); err != nil {
		return Staged{}, false, fmt.Errorf("%s: %v; delete the file to forget the staged update", filepath.Join(dir, stagedFile), err)
	}
	return st, true, nil
}

// verifyStaged checks the staged file is still the one verified when it
// was downloaded.
func verifyStaged(dir string, st Staged) (string, error) {
	if st.File == "" || filepath.Base(st.File) != st.File {
		return "", fmt.Errorf("%s names no file of the update folder: %w", filepath.Join(dir, stagedFile), ErrRefused)
	}
	path := filepath.Join(dir, st.File)
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("the staged update: %w", err)
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return "", fmt.Errorf("read the staged update %s: %w", path, err)
	}
	if n != st.Size || !strings.EqualFold(hex.EncodeToString(h.Sum(nil)), st.SHA256) {
		return "", fmt.Errorf("the staged update %s changed after it was verified (%d bytes): %w", path, n, ErrRefused)
	}
	return path, nil
}

// Discard forgets the update staged in dir.
func Discard(dir string) error {
	st, ok, _ := ReadStaged(dir)
	if ok && st.File != "" && filepath.Base(st.File) == st.File {
		os.Remove(filepath.Join(dir, st.File))
	}
	err := os.Remove(filepath.Join(dir, stagedFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	return err
}
