// Package keychain keeps secrets by service and account: in the OS keychain
// (Keychain on macOS, Credential Manager on Windows, the Secret Service on
// Linux, through github.com/zalando/go-keyring) and, where there is none
// (Linux without a Secret Service: a server, a container, a minimal
// desktop), in an encrypted file readable only by the user
// (docs/mcp.md#without-a-keychain). Sign-ins to remote MCP servers
// (harness/mcp/oauth) and the answers to ${input:ID} (harness/servers) are
// kept through it.
//
// The file is obfuscation, not protection: its key is a file next to it,
// readable by the same user. It keeps a secret out of sight of a casual
// look and of a copy of the one file, not from anything that runs as the
// user. Options.Notice is told so once, when the file is first created.
package keychain

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/zalando/go-keyring"
)

// ErrNotFound is returned by Get when neither the OS keychain nor the
// file holds the secret.
var ErrNotFound = errors.New("not in the keychain")

// DefaultWait bounds one call of the OS keychain when Options.Wait is 0:
// on Linux a Secret Service that never answers must not hold a sign-in.
const DefaultWait = 5 * time.Second

// Options configure a Keychain.
type Options struct {
	// Dir is the folder of the fallback files (FileName and KeyName); ""
	// keeps secrets in the OS keychain only, and its failures are errors.
	Dir string
	// Notice is told once, when the fallback file is created: the OS
	// keychain's failure, where the secrets are now kept and what that
	// protects. nil tells nobody.
	Notice func(msg string)
	// Wait bounds each OS keychain call; 0 is DefaultWait.
	Wait time.Duration
}

// Keychain is the OS keychain with an encrypted file as its fallback.
// Safe for concurrent use; processes that share Dir exclude each other
// while they change the file (a lock file next to it).
type Keychain struct {
	o    Options
	mu   sync.Mutex
	down error // the OS keychain's failure, once seen: later calls go to the file at once
}

// New returns a Keychain.
func New(o Options) *Keychain {
	if o.Wait <= 0 {
		o.Wait = DefaultWait
	}
	return &Keychain{o: o}
}

// Where says where secrets are kept now: "the OS keychain", or the
// fallback file's path once the OS keychain failed.
func (k *Keychain) Where() string {
	if k.failed() == nil {
		return "the OS keychain"
	}
	return k.file().path
}

// Get returns the secret of service and account: the OS keychain's, else
// the fallback file's. ErrNotFound when neither holds it.
func (k *Keychain) Get(service, account string) (string, error) {
	if k.failed() == nil {
		v, err := k.bounded(func() (string, error) { return keyring.Get(service, account) })
		if err == nil {
			return v, nil
		}
		if !errors.Is(err, keyring.ErrNotFound) {
			k.fail(err)
			if k.o.Dir == "" {
				return "", k.osError("read", err)
			}
		}
	}
	if k.o.Dir == "" {
		return "", ErrNotFound
	}
	v, ok, err := k.file().get(service, account)
	if err != nil {
		return "", err
	}
	if !ok {
		return "", ErrNotFound
	}
	return v, nil
}

// Set keeps value as the secret of service and account: in the OS
// keychain, else (it failed now or before) in the fallback file.
func (k *Keychain) Set(service, account, value string) error {
	if k.failed() == nil {
		_, err := k.bounded(func() (string, error) { return "", keyring.Set(service, account, value) })
		if err == nil {
			if k.o.Dir != "" {
				_ = k.file().remove(service, account) // an older copy kept while the keychain was away
			}
			return nil
		}
		if k.o.Dir == "" {
			return k.osError("save", err)
		}
		if !errors.Is(err, keyring.ErrSetDataTooBig) { // too big for this keychain: this one secret goes to the file
			k.fail(err)
		}
	}
	created, err := k.file().set(service, account, value)
	if err != nil {
		return err
	}
	if created && k.o.Notice != nil {
		k.o.Notice(k.notice())
	}
	return nil
}

// Delete removes the secret of service and account from the OS keychain
// and the fallback file; a missing secret is not an error.
func (k *Keychain) Delete(service, account string) error {
	if k.failed() == nil {
		_, err := k.bounded(func() (string, error) { return "", keyring.Delete(service, account) })
		if err != nil && !errors.Is(err, keyring.ErrNotFound) {
			k.fail(err)
			if k.o.Dir == "" {
				return k.osError("delete", err)
			}
		}
	}
	if k.o.Dir == "" {
		return nil
	}
	return k.file().remove(service, account)
}

func (k *Keychain) failed() error {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.down
}

func (k *Keychain) fail(err error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.down == nil {
		k.down = err
	}
}

// bounded runs f, an OS keychain call, within o.Wait.
func (k *Keychain) bounded(f func() (string, error)) (string, error) {
	type res struct {
		v   string
		err error
	}
	ch := make(chan res, 1)
	go func() {
		v, err := f()
		ch <- res{v, err}
	}()
	t := time.NewTimer(k.o.Wait)
	defer t.Stop()
	select {
	case r := <-ch:
		return r.v, r.err
	case <-t.C:
		return "", fmt.Errorf("the OS keychain did not answer within %v", k.o.Wait)
	}
}

func (k *Keychain) file() *file {
	return &file{dir: k.o.Dir, path: filePath(k.o.Dir), key: keyPath(k.o.Dir)}
}

// osError explains an OS keychain failure when there is no fallback; it
// never holds a secret.
func (k *Keychain) osError(op string, err error) error {
	return fmt.Errorf("the OS keychain could not %s it: %v (on Linux a Secret Service such as GNOME Keyring must be running)", op, err)
}

func (k *Keychain) notice() string {
	why := "it failed"
	if err := k.failed(); err != nil {
		why = err.Error()
	}
	return fmt.Sprintf("the OS keychain is not available (%s), so sign-ins and secrets are kept in %s, encrypted with the key in %s. "+
		"Both files are readable only by you, but the key is next to the data: anything that runs as you can read them. "+
		"Start a Secret Service (such as GNOME Keyring) to keep them in the OS keychain instead.", why, filePath(k.o.Dir), keyPath(k.o.Dir))
}
