package servers

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/zalando/go-keyring"

	"github.com/openworker/desktop/harness/internal/keychain"
)

// InputsKeychainService is the OS keychain service the answers to
// ${input:ID} are kept under (docs/servers.md#inputs).
const InputsKeychainService = "OpenWorker MCP inputs"

// AskFunc asks the person for the value of an input; it is what
// ConfigOptions.Inputs calls.
type AskFunc func(ctx context.Context, id, description string, password bool) (string, error)

// KeychainInputs returns a ConfigOptions.Inputs that answers each input
// from the OS keychain (macOS Keychain, Windows Credential Manager, the
// Secret Service on Linux, through github.com/zalando/go-keyring) and, when
// the keychain has no answer yet, asks once with ask and keeps the answer
// there. Answers are keyed by the input's id and description, so the same
// input in another file (an imported one) is not asked again. An empty
// answer is refused and not kept. ask may be nil: then an input not in the
// keychain is an error saying where it can be answered.
//
// When the keychain cannot be used (no Secret Service on Linux) the
// answer is still asked and used for this read, and the error is reported
// through warn (may be nil), never with the answer. KeychainInputsWith
// keeps it in an encrypted file instead.
func KeychainInputs(ask AskFunc, warn func(error)) AskFunc {
	return KeychainInputsWith(InputsOptions{Ask: ask, Warn: warn})
}

// InputsOptions configure KeychainInputsWith.
type InputsOptions struct {
	// Ask asks the person; nil asks nobody (an input not kept yet is an
	// error saying where it can be answered).
	Ask AskFunc
	// Warn is told of a keychain failure, never with an answer; may be nil.
	Warn func(error)
	// Dir is the folder of the encrypted file answers go to where there
	// is no OS keychain (docs/mcp.md#without-a-keychain), shared with
	// sign-ins; "" keeps them in the OS keychain only.
	Dir string
	// Notice is told once, when that file is created; may be nil.
	Notice func(msg string)
}

// KeychainInputsWith is KeychainInputs with the options of o: with Dir,
// an answer is kept in the encrypted file when there is no OS keychain,
// and read from it next time.
func KeychainInputsWith(o InputsOptions) AskFunc {
	k := keychain.New(keychain.Options{Dir: o.Dir, Notice: o.Notice})
	return func(ctx context.Context, id, description string, password bool) (string, error) {
		account := InputAccount(id, description)
		v, err := k.Get(InputsKeychainService, account)
		if err == nil && v != "" {
			return v, nil
		}
		keychainOK := err == nil || errors.Is(err, keychain.ErrNotFound)
		if !keychainOK && o.Warn != nil {
			o.Warn(fmt.Errorf("the OS keychain could not be read for input %q: %v; it is asked again each time", id, err))
		}
		if o.Ask == nil {
			return "", fmt.Errorf("it is not answered yet: answer it once in the app (Settings) or in a terminal, where checking the servers file asks for it")
		}
		v, err = o.Ask(ctx, id, description, password)
		if err != nil {
			return "", err
		}
		if v == "" {
			return "", fmt.Errorf("the answer is empty")
		}
		if keychainOK {
			if err := k.Set(InputsKeychainService, account, v); err != nil && o.Warn != nil {
				o.Warn(fmt.Errorf("the answer to input %q could not be kept: %v; it is asked again next time", id, err))
			}
		}
		return v, nil
	}
}

// InputAccount is the keychain account of an input's answer:
// "input:ID:" and the first 12 hex digits of the SHA-256 of its
// description.
func InputAccount(id, description string) string {
	sum := sha256.Sum256([]byte(description))
	return "input:" + id + ":" + hex.EncodeToString(sum[:6])
}

// SetInput keeps value as the answer of an input in the OS keychain (the
// app's Settings answer an input this way); an empty value removes it.
func SetInput(id, description, value string) error {
	account := InputAccount(id, description)
	if value == "" {
		if err := keyring.Delete(InputsKeychainService, account); err != nil && !errors.Is(err, keyring.ErrNotFound) {
			return fmt.Errorf("could not remove the answer to input %q from the OS keychain: %v", id, err)
		}
		return nil
	}
	if err := keyring.Set(InputsKeychainService, account, value); err != nil {
		return fmt.Errorf("could not keep the answer to input %q in the OS keychain: %v (on Linux a Secret Service such as GNOME Keyring must be running)", id, err)
	}
	return nil
}

// InputStored reports whether the OS keychain holds an answer to an input.
func InputStored(id, description string) (bool, error) {
	v, err := keyring.Get(InputsKeychainService, InputAccount(id, description))
	if errors.Is(err, keyring.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return v != "", nil
}
