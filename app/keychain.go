package app

import (
	"errors"
	"fmt"

	"github.com/zalando/go-keyring"
)

// keychainService is the service name API keys are stored under.
const keychainService = "OpenWorker"

// Keychain keeps API keys per provider ("openai", "anthropic") in the OS
// keychain: Keychain on macOS, Credential Manager on Windows, the Secret
// Service (GNOME Keyring, KWallet) on Linux. Keys never go to a file, the
// journal or a log.
type Keychain interface {
	// Get returns the key, or "" with no error when none is stored.
	Get(provider string) (string, error)
	Set(provider, key string) error
	// Delete removes the key; deleting a missing key is not an error.
	Delete(provider string) error
}

// osKeychain is Keychain over github.com/zalando/go-keyring.
type osKeychain struct{}

func (osKeychain) Get(provider string) (string, error) {
	k, err := keyring.Get(keychainService, provider)
	if errors.Is(err, keyring.ErrNotFound) {
		return "", nil
	}
	if err != nil {
		return "", keychainError("read", provider, err)
	}
	return k, nil
}

func (osKeychain) Set(provider, key string) error {
	if err := keyring.Set(keychainService, provider, key); err != nil {
		return keychainError("save", provider, err)
	}
	return nil
}

func (osKeychain) Delete(provider string) error {
	err := keyring.Delete(keychainService, provider)
	if err != nil && !errors.Is(err, keyring.ErrNotFound) {
		return keychainError("delete", provider, err)
	}
	return nil
}

// keychainError explains a keychain failure without the key. On Linux the
// usual cause is that no Secret Service (GNOME Keyring, KWallet) runs.
func keychainError(op, provider string, err error) error {
	return fmt.Errorf("could not %s the %s API key in the OS keychain: %v (on Linux a Secret Service such as GNOME Keyring must be running; alternatively set %s in the environment before starting the app)",
		op, providerLabel(provider), err, envKeyName(provider))
}

// providerLabel is the name the Settings screen gives a provider.
func providerLabel(provider string) string {
	if provider == "anthropic" {
		return "Anthropic"
	}
	return "OpenAI-compatible"
}

func envKeyName(provider string) string {
	if provider == "anthropic" {
		return "ANTHROPIC_API_KEY"
	}
	return "OPENAI_API_KEY"
}
