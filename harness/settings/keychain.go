package settings

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

// OSKeychain is Keychain over github.com/zalando/go-keyring: the service
// "OpenWorker", one account per provider.
type OSKeychain struct{}

func (OSKeychain) Get(provider string) (string, error) {
	k, err := keyring.Get(keychainService, provider)
	if errors.Is(err, keyring.ErrNotFound) {
		return "", nil
	}
	if err != nil {
		return "", KeychainError("read", provider, err)
	}
	return k, nil
}

func (OSKeychain) Set(provider, key string) error {
	if err := keyring.Set(keychainService, provider, key); err != nil {
		return KeychainError("save", provider, err)
	}
	return nil
}

func (OSKeychain) Delete(provider string) error {
	err := keyring.Delete(keychainService, provider)
	if err != nil && !errors.Is(err, keyring.ErrNotFound) {
		return KeychainError("delete", provider, err)
	}
	return nil
}

// KeychainError explains a keychain failure (op is "read", "save" or
// "delete") without the key. On Linux the
// usual cause is that no Secret Service (GNOME Keyring, KWallet) runs.
func KeychainError(op, provider string, err error) error {
	return fmt.Errorf("could not %s the %s API key in the OS keychain: %v (on Linux a Secret Service such as GNOME Keyring must be running; alternatively set %s in the environment before starting the app)",
		op, ProviderLabel(provider), err, APIKeyEnv(provider))
}

// ProviderLabel is the name the Settings screen gives a provider.
func ProviderLabel(provider string) string {
	if provider == "anthropic" {
		return "Anthropic"
	}
	return "OpenAI-compatible"
}

// APIKeyEnv is the environment variable a provider's API key may come
// from instead of the keychain (docs/cli.md#environment-variables).
func APIKeyEnv(provider string) string {
	if provider == "anthropic" {
		return "ANTHROPIC_API_KEY"
	}
	return "OPENAI_API_KEY"
}
