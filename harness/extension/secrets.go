package extension

import (
	"errors"
	"fmt"
	"sync"

	"github.com/zalando/go-keyring"
)

// KeychainService is the OS keychain service sensitive user_config values
// are stored under; each value's account is "<extension name>/<key>"
// (docs/extensions.md#what-is-stored).
const KeychainService = "OpenWorker extensions"

// SecretStore keeps the sensitive user_config values of extensions. Get
// returns "" and no error when none is stored; deleting a missing value is
// not an error. Implementations must be safe for concurrent use.
type SecretStore interface {
	Get(extension, key string) (string, error)
	Set(extension, key, value string) error
	Delete(extension, key string) error
}

// Keychain is the SecretStore of the OS keychain (Keychain on macOS,
// Credential Manager on Windows, the Secret Service on Linux), through
// github.com/zalando/go-keyring. Errors name the extension and the key,
// never the value.
type Keychain struct{}

// keychainFix is what to do when the keychain cannot be reached.
const keychainFix = "sensitive settings are kept in the OS keychain: unlock it, or on Linux start a Secret Service (GNOME Keyring, KWallet, KeePassXC) in this desktop session, and try again"

func account(extension, key string) string { return extension + "/" + key }

func (Keychain) Get(extension, key string) (string, error) {
	v, err := keyring.Get(KeychainService, account(extension, key))
	if errors.Is(err, keyring.ErrNotFound) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("extension %s: read %s from the keychain: %w; %s", extension, key, err, keychainFix)
	}
	return v, nil
}

func (Keychain) Set(extension, key, value string) error {
	if err := keyring.Set(KeychainService, account(extension, key), value); err != nil {
		return fmt.Errorf("extension %s: save %s in the keychain: %w; %s", extension, key, err, keychainFix)
	}
	return nil
}

func (Keychain) Delete(extension, key string) error {
	if err := keyring.Delete(KeychainService, account(extension, key)); err != nil && !errors.Is(err, keyring.ErrNotFound) {
		return fmt.Errorf("extension %s: delete %s from the keychain: %w; %s", extension, key, err, keychainFix)
	}
	return nil
}

// MemorySecrets is a SecretStore in memory, for tests and for hosts
// without a keychain (the values end with the process).
type MemorySecrets struct {
	mu sync.Mutex
	m  map[string]string
}

func (s *MemorySecrets) Get(extension, key string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.m[account(extension, key)], nil
}

func (s *MemorySecrets) Set(extension, key, value string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[string]string{}
	}
	s.m[account(extension, key)] = value
	return nil
}

func (s *MemorySecrets) Delete(extension, key string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.m, account(extension, key))
	return nil
}

// Len is the number of values held (for tests).
func (s *MemorySecrets) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.m)
}
