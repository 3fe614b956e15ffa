package app

import "github.com/openworker/desktop/harness/settings"

// Keychain keeps API keys per provider in the OS keychain
// (settings.Keychain); osKeychain is the real one.
type Keychain = settings.Keychain

type osKeychain = settings.OSKeychain

// keychainError explains a keychain failure without the key
// (settings.KeychainError).
func keychainError(op, provider string, err error) error {
	return settings.KeychainError(op, provider, err)
}

// providerLabel is the name the Settings screen gives a provider.
func providerLabel(provider string) string { return settings.ProviderLabel(provider) }

// envKeyName is the environment variable a provider's key may come from.
func envKeyName(provider string) string { return settings.APIKeyEnv(provider) }
