package keychain

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/openworker/desktop/harness/internal/atomicfile"
)

// FileName and KeyName are the fallback files in Options.Dir: the secrets,
// encrypted (AES-256-GCM), and the key (32 random bytes, hex). Both are
// written with mode 0600 (readable by the user only) and replaced in one
// step (harness/internal/atomicfile); LockName is the lock file processes
// take while they read or change them.
const (
	FileName = "secrets.enc"
	KeyName  = "secrets.key"
	LockName = "secrets.lock"
)

func filePath(dir string) string { return filepath.Join(dir, FileName) }
func keyPath(dir string) string  { return filepath.Join(dir, KeyName) }

// sealed is FileName's JSON: format and version, the GCM nonce and the
// sealed contents (base64, as encoding/json writes []byte).
type sealed struct {
	Format  string `json:"format"`
	Version int    `json:"version"`
	Nonce   []byte `json:"nonce"`
	Data    []byte `json:"data"`
}

const (
	fileFormat  = "openworker-secrets"
	fileVersion = 1
)

// contents is what a sealed file holds: secrets by service, then account.
type contents map[string]map[string]string

// file is the fallback store of one folder.
type file struct{ dir, path, key string }

func (f *file) get(service, account string) (string, bool, error) {
	if _, err := os.Stat(f.path); errors.Is(err, fs.ErrNotExist) {
		return "", false, nil // reading makes no folder and no lock file
	}
	var v string
	var ok bool
	err := f.locked(func() error {
		c, err := f.read()
		if err != nil {
			return err
		}
		v, ok = c[service][account]
		return nil
	})
	return v, ok, err
}

// set keeps value; created reports that the file did not exist before.
func (f *file) set(service, account, value string) (created bool, err error) {
	err = f.locked(func() error {
		_, statErr := os.Stat(f.path)
		created = errors.Is(statErr, fs.ErrNotExist)
		c, err := f.read()
		if err != nil {
			return err
		}
		if c[service] == nil {
			c[service] = map[string]string{}
		}
		c[service][account] = value
		return f.write(c)
	})
	return created, err
}

func (f *file) remove(service, account string) error {
	if _, err := os.Stat(f.path); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return f.locked(func() error {
		c, err := f.read()
		if err != nil {
			return err
		}
		if _, ok := c[service][account]; !ok {
			return nil
		}
		delete(c[service], account)
		if len(c[service]) == 0 {
			delete(c, service)
		}
		return f.write(c)
	})
}

// locked runs fn holding the folder's lock file, creating the folder
// (0700) when it is missing.
func (f *file) locked(fn func() error) error {
	if err := os.MkdirAll(f.dir, 0o700); err != nil {
		return fmt.Errorf("keep secrets in %s: %w", f.dir, err)
	}
	l, err := os.OpenFile(filepath.Join(f.dir, LockName), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("keep secrets in %s: %w", f.dir, err)
	}
	defer l.Close() // closing releases the lock
	if err := lockExclusive(l); err != nil {
		return fmt.Errorf("lock %s: %w", l.Name(), err)
	}
	return fn()
}

// read opens the file; a missing file holds nothing. A file that cannot
// be opened with the key is an error that names both files and the fix.
func (f *file) read() (contents, error) {
	raw, err := os.ReadFile(f.path)
	if errors.Is(err, fs.ErrNotExist) {
		return contents{}, nil
	}
	if err != nil {
		return nil, err
	}
	var s sealed
	if err := json.Unmarshal(raw, &s); err != nil || s.Format != fileFormat {
		return nil, fmt.Errorf("%s is not an OpenWorker secrets file; move it away (the sign-ins and answers it held are asked again)", f.path)
	}
	if s.Version != fileVersion {
		return nil, fmt.Errorf("%s is version %d of the secrets file; this OpenWorker reads version %d", f.path, s.Version, fileVersion)
	}
	key, err := f.readKey(false)
	if err != nil {
		return nil, err
	}
	aead, err := newAEAD(key)
	if err != nil {
		return nil, err
	}
	plain, err := aead.Open(nil, s.Nonce, s.Data, []byte(fileFormat))
	if err != nil {
		return nil, fmt.Errorf("%s cannot be opened with the key in %s (another key, or a damaged file); move both away (the sign-ins and answers they held are asked again)", f.path, f.key)
	}
	c := contents{}
	if err := json.Unmarshal(plain, &c); err != nil {
		return nil, fmt.Errorf("%s holds damaged contents; move it away", f.path)
	}
	return c, nil
}

func (f *file) write(c contents) error {
	key, err := f.readKey(true)
	if err != nil {
		return err
	}
	aead, err := newAEAD(key)
	if err != nil {
		return err
	}
	plain, err := json.Marshal(c)
	if err != nil {
		return err
	}
	nonce := make([]byte, aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return err
	}
	raw, err := json.Marshal(sealed{Format: fileFormat, Version: fileVersion, Nonce: nonce, Data: aead.Seal(nil, nonce, plain, []byte(fileFormat))})
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(f.path, raw, 0o600)
}

// readKey returns the key, making one when create is set and there is
// none (the caller holds the lock).
func (f *file) readKey(create bool) ([]byte, error) {
	raw, err := os.ReadFile(f.key)
	if errors.Is(err, fs.ErrNotExist) && create {
		key := make([]byte, 32)
		if _, err := rand.Read(key); err != nil {
			return nil, err
		}
		if err := atomicfile.WriteFile(f.key, []byte(hex.EncodeToString(key)+"\n"), 0o600); err != nil {
			return nil, err
		}
		return key, nil
	}
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s is missing, so %s cannot be opened; move %s away (the sign-ins and answers it held are asked again)", f.key, f.path, f.path)
	}
	if err != nil {
		return nil, err
	}
	key, err := hex.DecodeString(strings.TrimSpace(string(raw)))
	if err != nil || len(key) != 32 {
		return nil, fmt.Errorf("%s is not a key of 64 hex digits; move it and %s away (the sign-ins and answers they held are asked again)", f.key, f.path)
	}
	return key, nil
}

func newAEAD(key []byte) (cipher.AEAD, error) {
	b, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(b)
}
