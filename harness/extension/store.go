package extension

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/openworker/desktop/harness/internal/atomicfile"
	"github.com/openworker/desktop/harness/tool"
)

// RecordFile is the name of an installed extension's record in its folder.
const RecordFile = "installed.json"

// maxRecordBytes bounds an installed.json read back.
const maxRecordBytes = 1 << 20

// Record is what is kept of an installed extension in
// extensions/<name>/installed.json (docs/extensions.md#what-is-stored).
// It never holds a sensitive user_config value: those are in the Store's
// SecretStore, and Sensitive only names their keys.
type Record struct {
	// Name is the manifest's name; the folder's name.
	Name string `json:"name"`
	// Version is the installed (current) version; the unpacked bundle is
	// the folder extensions/<name>/<version>.
	Version string `json:"version"`
	// Namespace is the provider's namespace, fixed at the first install
	// and kept across upgrades (docs/extensions.md#namespace).
	Namespace string `json:"namespace"`
	// DisplayName is the manifest's display_name (or name), for lists.
	DisplayName string `json:"display_name,omitempty"`
	// InstalledAt is when this version was installed (UTC).
	InstalledAt time.Time `json:"installed_at"`
	// Signature is the signature status of the installed file
	// ("unsigned", "self-signed", "signed", "invalid") and Signer its
	// subject, as shown when it was installed.
	Signature string `json:"signature,omitempty"`
	Signer    string `json:"signer,omitempty"`
	// Source is the absolute path of the file it was installed from.
	Source string `json:"source,omitempty"`
	// Values are the non-sensitive user_config values as entered (after
	// defaults), by key.
	Values map[string]any `json:"values,omitempty"`
	// Sensitive names the user_config keys whose values are in the
	// SecretStore.
	Sensitive []string `json:"sensitive,omitempty"`
	// Disabled extensions are not registered as providers.
	Disabled bool `json:"disabled,omitempty"`
	// Sandbox is the execution boundary the person chose for the
	// extension's server (docs/extensions.md#sandbox, docs/sandbox.md);
	// nil runs it with the person's full access. An upgrade keeps it.
	Sandbox *tool.Sandbox `json:"sandbox,omitempty"`

	// Dir is the unpacked bundle's folder (not stored: the Store fills it).
	Dir string `json:"-"`
}

// Store is the folder of installed extensions and the store of their
// sensitive values. The zero Store is not usable: Dir must be set.
// Methods are not safe for concurrent use by several processes on the
// same folder beyond what atomic renames give (one app instance per
// config folder holds the lock; the CLI writes only on request).
type Store struct {
	// Dir is the extensions folder, usually
	// <config dir>/OpenWorker/extensions. It is created on first install.
	Dir string
	// Secrets keeps sensitive user_config values; nil means Keychain.
	Secrets SecretStore
}

func (s *Store) secrets() SecretStore {
	if s.Secrets == nil {
		return Keychain{}
	}
	return s.Secrets
}

// NotInstalledError is the error of Get and Remove for a name that is not
// installed.
type NotInstalledError struct{ Name, Dir string }

func (e *NotInstalledError) Error() string {
	return fmt.Sprintf("no extension %q is installed in %s; the extension list shows the installed ones", e.Name, e.Dir)
}

// checkName refuses a name that cannot be a folder of Dir (the manifest's
// name is checked by package manifest too; this guards the file system).
func checkName(name string) error {
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, `/\:`) || len(name) > 128 || !utf8.ValidString(name) ||
		strings.ContainsFunc(name, func(r rune) bool { return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) }) {
		return fmt.Errorf("extension name %+q cannot be a folder name; a name holds no '/', '\\', ':', control or invisible format characters (bidi, zero-width) and is at most 128 bytes", name)
	}
	return nil
}

// foldName is name as macOS and Windows folders compare it: NFC, case
// folded.
func foldName(name string) string { return strings.ToLower(norm.NFC.String(name)) }

// sameNameAs returns the installed extension whose name differs from name
// only in case or Unicode normalisation, or "".
func (s *Store) sameNameAs(name string) string {
	ents, err := os.ReadDir(s.Dir)
	if err != nil {
		return ""
	}
	for _, e := range ents {
		if e.IsDir() && e.Name() != name && !strings.HasPrefix(e.Name(), ".") && foldName(e.Name()) == foldName(name) {
			return e.Name()
		}
	}
	return ""
}

// Get returns the record of the installed extension name, with Dir set.
func (s *Store) Get(name string) (Record, error) {
	if err := checkName(name); err != nil {
		return Record{}, err
	}
	path := filepath.Join(s.Dir, name, RecordFile)
	f, err := atomicfile.Open(path) // a concurrent install replacing it is waited for (Windows)
	if errors.Is(err, fs.ErrNotExist) {
		return Record{}, &NotInstalledError{Name: name, Dir: s.Dir}
	}
	if err != nil {
		return Record{}, err
	}
	defer f.Close()
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(io.LimitReader(f, maxRecordBytes+1)); err != nil {
		return Record{}, fmt.Errorf("read %s: %w", path, err)
	}
	if buf.Len() > maxRecordBytes {
		return Record{}, fmt.Errorf("%s is over %d bytes; it is not an OpenWorker record: remove the extension and install it again", path, maxRecordBytes)
	}
	var r Record
	if err := json.Unmarshal(buf.Bytes(), &r); err != nil {
		return Record{}, fmt.Errorf("%s: %v; remove extension %s and install it again", path, err, name)
	}
	if r.Name != name || checkName(r.Version) != nil || r.Namespace == "" {
		return Record{}, fmt.Errorf("%s: name %q, version %q, namespace %q do not match its folder; remove the extension and install it again", path, r.Name, r.Version, r.Namespace)
	}
	if err := tool.CheckNamespace(r.Namespace); err != nil { // edited by hand
		return Record{}, fmt.Errorf("%s: %v; remove extension %s and install it again", path, err, name)
	}
	r.Dir = filepath.Join(s.Dir, name, r.Version)

	return r, nil
}

func orUnknown(source string) string {
	if source == "" {
		return "its .mcpb file"
	}
	return source
}

// List returns the installed extensions by name. A folder whose record
// cannot be read is returned in errs (one error each, naming the file and
// the fix) and left alone; a missing Dir is no extensions.
func (s *Store) List() (recs []Record, errs []error) {
	ents, err := os.ReadDir(s.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, []error{fmt.Errorf("read the extensions folder %s: %w", s.Dir, err)}
	}
	for _, e := range ents {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue // staging folders start with "."
		}
		r, err := s.Get(e.Name())
		if err != nil {
			errs = append(errs, err)
			continue
		}
		recs = append(recs, r)
	}
	sort.Slice(recs, func(i, k int) bool { return recs[i].Name < recs[k].Name })
	return recs, errs
}

// save writes r as extensions/<name>/installed.json in one step.
func (s *Store) save(r Record) error {
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(filepath.Join(s.Dir, r.Name, RecordFile), append(data, '\n'), 0o600)
}

// Remove deletes the installed extension name: its sensitive values from
// the SecretStore first, then its record (so it is no longer listed), then
// its folder with every version. A process still running from the folder
// keeps its open files on Unix; on Windows a file in use makes the last
// step fail with an error saying to quit the sessions using it and retry
// (the record is already gone, so a retry removes the rest).
func (s *Store) Remove(name string) (Record, error) {
	if err := checkName(name); err != nil {
		return Record{}, err // never a path outside Dir
	}
	if _, err := os.Stat(filepath.Join(s.Dir, name)); errors.Is(err, fs.ErrNotExist) {
		return Record{}, &NotInstalledError{Name: name, Dir: s.Dir}
	}
	unlock, err := s.lock() // not while an install of it runs
	if err != nil {
		return Record{}, err
	}
	defer unlock()
	r, err := s.Get(name)
	if err != nil {
		var ni *NotInstalledError
		if errors.As(err, &ni) {
			return Record{}, err
		}
		// An unreadable record: remove the folder anyway.
		r = Record{Name: name}
	}
	for _, k := range r.Sensitive {
		if err := s.secrets().Delete(name, k); err != nil {
			return r, err
		}
	}
	dir := filepath.Join(s.Dir, name)
	if err := os.Remove(filepath.Join(dir, RecordFile)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return r, fmt.Errorf("remove %s: %w", name, err)
	}
	if err := os.RemoveAll(dir); err != nil {
		return r, fmt.Errorf("remove %s: %w; quit the chats that use it and remove extension %s again", dir, err, name)
	}
	return r, nil
}
