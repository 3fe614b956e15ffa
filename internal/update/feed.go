// Package update keeps OpenWorker up to date from a signed feed: it checks
// the feed (a JSON document with a detached minisign signature), downloads
// the file for this platform with progress, verifies its size and SHA-256,
// stages it, and applies it when the app next starts (docs/update.md).
package update

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"runtime"
	"strings"

	"aead.dev/minisign"
	"github.com/Masterminds/semver/v3"
)

// DefaultFeedURL is where released builds look for updates; the signature
// is the same URL with ".minisig" appended (docs/update.md#feed).
const DefaultFeedURL = "https://github.com/openworker/desktop/releases/latest/download/feed.json"

// maxFeedBytes bounds the feed and its signature.
const maxFeedBytes = 1 << 20

// Feed is the signed update document (docs/update.md#feed).
type Feed struct {
	// Version is the released version, semantic ("1.4.0" or "v1.4.0").
	Version string `json:"version"`
	// Notes says what changed, in plain words.
	Notes string `json:"notes,omitempty"`
	// Published is when it was released (RFC 3339), for display.
	Published string `json:"published,omitempty"`
	// Platforms maps "GOOS-GOARCH" (and "darwin-universal") to its file.
	Platforms map[string]Asset `json:"platforms"`
}

// Asset is one platform's file: the Windows installer, the macOS .app
// zipped, or the Linux executable.
type Asset struct {
	URL    string `json:"url"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// Result is what a check found.
type Result struct {
	FeedURL string `json:"feed"`
	Current string `json:"current"`
	Latest  string `json:"latest"`
	// Newer is true when Latest is a newer release than Current and the
	// feed has a file for Platform.
	Newer    bool   `json:"newer"`
	Notes    string `json:"notes,omitempty"`
	Platform string `json:"platform"`
	Asset    *Asset `json:"asset,omitempty"`
	// Why says why Newer is false when a newer version exists (no file for
	// this platform, a development build).
	Why string `json:"why,omitempty"`
}

// Platform is this program's key in Feed.Platforms.
func Platform() string { return runtime.GOOS + "-" + runtime.GOARCH }

// ErrRefused marks a feed or file that failed verification: nothing was
// changed.
var ErrRefused = errors.New("refused; nothing was changed")

// Check fetches the feed at feedURL and its signature (feedURL+".minisig"),
// verifies the signature against the built-in key, and compares the
// feed's version with current for platform.
func Check(ctx context.Context, client *http.Client, feedURL, current, platform string) (Result, error) {
	res := Result{FeedURL: feedURL, Current: current, Platform: platform}
	feed, err := FetchFeed(ctx, client, feedURL)
	if err != nil {
		return res, err
	}
	res.Latest, res.Notes = feed.Version, feed.Notes
	latest, _ := parseVersion(feed.Version) // FetchFeed checked it
	cur, err := parseVersion(current)
	if err != nil {
		res.Why = fmt.Sprintf("this build's version %q is not a release version, so it is not updated", current)
		return res, nil
	}
	if !latest.GreaterThan(cur) {
		return res, nil
	}
	a, ok := assetFor(feed, platform)
	if !ok {
		res.Why = fmt.Sprintf("the feed has no file for %s", platform)
		return res, nil
	}
	res.Newer, res.Asset = true, &a
	return res, nil
}

// assetFor is platform's file, a universal macOS build standing in for
// either architecture.
func assetFor(f Feed, platform string) (Asset, bool) {
	if a, ok := f.Platforms[platform]; ok {
		return a, true
	}
	if strings.HasPrefix(platform, "darwin-") {
		a, ok := f.Platforms["darwin-universal"]
		return a, ok
	}
	return Asset{}, false
}

// parseVersion reads a semantic version, "v" prefix allowed; a commit
// hash or "dev" is none.
func parseVersion(s string) (*semver.Version, error) {
	return semver.StrictNewVersion(strings.TrimPrefix(s, "v"))
}

// IsRelease reports whether version is a semantic version, the only kind
// of build that is updated (a development build is not).
func IsRelease(version string) bool {
	_, err := parseVersion(version)
	return err == nil
}

// FetchFeed downloads, verifies and parses the feed at feedURL.
func FetchFeed(ctx context.Context, client *http.Client, feedURL string) (Feed, error) {
	body, err := get(ctx, client, feedURL)
	if err != nil {
		return Feed{}, err
	}
	sig, err := get(ctx, client, feedURL+".minisig")
	if err != nil {
		return Feed{}, fmt.Errorf("update feed %s has no signature: %w", feedURL, err)
	}
	return VerifyFeed(feedURL, body, sig)
}

// VerifyFeed checks sig over body with the built-in key and parses body.
// name (the URL or file) is only for messages.
func VerifyFeed(name string, body, sig []byte) (Feed, error) {
	key, err := trustedKey()
	if err != nil {
		return Feed{}, err
	}
	var s minisign.Signature
	if err := s.UnmarshalText(sig); err != nil {
		return Feed{}, fmt.Errorf("update feed %s: its signature is not a minisign signature (%v): %w", name, err, ErrRefused)
	}
	if s.KeyID != key.ID() {
		return Feed{}, fmt.Errorf("update feed %s is signed with key %016X, not OpenWorker's update key %016X: %w", name, s.KeyID, key.ID(), ErrRefused)
	}
	if !minisign.Verify(key, body, sig) {
		return Feed{}, fmt.Errorf("update feed %s: the signature does not match its content (changed after signing?): %w", name, ErrRefused)
	}
	var f Feed
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(&f); err != nil {
		return Feed{}, fmt.Errorf("update feed %s is signed but not valid JSON: %v: %w", name, err, ErrRefused)
	}
	if err := f.validate(); err != nil {
		return Feed{}, fmt.Errorf("update feed %s: %v: %w", name, err, ErrRefused)
	}
	return f, nil
}

// validate checks the fields a client relies on.
func (f Feed) validate() error {
	if _, err := parseVersion(f.Version); err != nil {
		return fmt.Errorf("\"version\" %q is not a semantic version (e.g. \"1.4.0\")", f.Version)
	}
	for p, a := range f.Platforms {
		u, err := url.Parse(a.URL)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return fmt.Errorf("platforms.%s.url %q is not an http(s) URL", p, a.URL)
		}
		if a.Size <= 0 {
			return fmt.Errorf("platforms.%s.size must be the file's size in bytes, above 0", p)
		}
		if b, err := hex.DecodeString(a.SHA256); err != nil || len(b) != 32 {
			return fmt.Errorf("platforms.%s.sha256 %q is not 64 hex digits", p, a.SHA256)
		}
	}
	return nil
}

// get fetches a small document.
func get(ctx context.Context, client *http.Client, u string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, fmt.Errorf("update feed URL %q: %w", u, err)
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, unreachable(u, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("fetch %s: HTTP %s", u, resp.Status)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxFeedBytes+1))
	if err != nil {
		return nil, fmt.Errorf("fetch %s: %w", u, err)
	}
	if len(b) > maxFeedBytes {
		return nil, fmt.Errorf("fetch %s: larger than %d bytes, not an update feed", u, maxFeedBytes)
	}
	return b, nil
}

// unreachable says in words why u could not be fetched when the network is
// the cause (no connection, a name that does not resolve, a refused
// connection), keeping err for errors.Is; other errors as they are.
func unreachable(u string, err error) error {
	host := u
	if p, perr := url.Parse(u); perr == nil && p.Host != "" {
		host = p.Host
	}
	var dns *net.DNSError
	var op *net.OpError
	switch {
	case errors.As(err, &dns):
		return fmt.Errorf("could not check for updates: %s cannot be found (no network connection, or a DNS problem); try again when online: %w", host, err)
	case errors.As(err, &op) && op.Op == "dial":
		return fmt.Errorf("could not check for updates: %s cannot be reached (no network connection, or a proxy or firewall in the way); try again when online: %w", host, err)
	}
	return fmt.Errorf("fetch %s: %w", u, err)
}
