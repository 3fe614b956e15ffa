// Package feedgen writes signed update feeds and their keys: the release
// step and the tests use it (internal/cmd/update-feed, docs/update.md#feed).
package feedgen

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"aead.dev/minisign"
	"github.com/openworker/desktop/internal/update"
)

// Keygen writes dir/update.key (the private key, unencrypted, mode 0600)
// and dir/update.pub, and returns the public key's text ("RW…").
func Keygen(dir string) (string, error) {
	pub, priv, err := minisign.GenerateKey(rand.Reader)
	if err != nil {
		return "", err
	}
	pt, err := pub.MarshalText()
	if err != nil {
		return "", err
	}
	kt, err := priv.MarshalText()
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, "update.key"), append(kt, '\n'), 0o600); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, "update.pub"), append(pt, '\n'), 0o644); err != nil {
		return "", err
	}
	return string(pt), nil
}

// Asset is one platform's file for a feed.
type Asset struct {
	Platform, File, URL string
}

// Release is what Sign puts in a feed.
type Release struct {
	Version, Notes string
	Assets         []Asset
}

// ParseAssets reads PLATFORM=FILE=URL arguments.
func ParseAssets(args []string) ([]Asset, error) {
	var out []Asset
	for _, a := range args {
		p := strings.SplitN(a, "=", 3)
		if len(p) != 3 || p[0] == "" || p[1] == "" || p[2] == "" {
			return nil, fmt.Errorf("%q: write PLATFORM=FILE=URL, e.g. linux-amd64=build/bin/openworker=https://…/openworker-linux-amd64", a)
		}
		out = append(out, Asset{Platform: p[0], File: p[1], URL: p[2]})
	}
	return out, nil
}

// Sign writes the feed for r to out and its signature to out+".minisig",
// signed with the private key in keyFile.
func Sign(keyFile, out string, r Release) error {
	kt, err := os.ReadFile(keyFile)
	if err != nil {
		return fmt.Errorf("read the private key: %w", err)
	}
	var key minisign.PrivateKey
	if err := key.UnmarshalText([]byte(strings.TrimSpace(string(kt)))); err != nil {
		return fmt.Errorf("%s is not an unencrypted minisign private key: %w", keyFile, err)
	}
	body, err := Feed(r)
	if err != nil {
		return err
	}
	if err := os.WriteFile(out, body, 0o644); err != nil {
		return err
	}
	return os.WriteFile(out+".minisig", SignBytes(key, body), 0o644)
}

// Feed is the JSON feed for r, with each file's size and SHA-256.
func Feed(r Release) ([]byte, error) {
	if r.Version == "" {
		return nil, errors.New("the feed needs a -version")
	}
	f := update.Feed{Version: r.Version, Notes: r.Notes, Published: time.Now().UTC().Format(time.RFC3339), Platforms: map[string]update.Asset{}}
	for _, a := range r.Assets {
		size, sum, err := hashFile(a.File)
		if err != nil {
			return nil, err
		}
		f.Platforms[a.Platform] = update.Asset{URL: a.URL, Size: size, SHA256: sum}
	}
	b, err := json.MarshalIndent(f, "", "  ")
	return append(b, '\n'), err
}

// SignBytes is the minisign signature of body with key.
func SignBytes(key minisign.PrivateKey, body []byte) []byte {
	return minisign.SignWithComments(key, body, "openworker update feed", "signature from the OpenWorker update key")
}

// hashFile is the size and SHA-256 (hex) of the file at path.
func hashFile(path string) (int64, string, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, "", err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return 0, "", err
	}
	return n, hex.EncodeToString(h.Sum(nil)), nil
}
