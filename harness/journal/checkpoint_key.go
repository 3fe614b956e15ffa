package journal

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/openworker/desktop/harness/internal/keychain"
)

// CheckpointKeyFile is the name of the file key, in the journal's folder,
// used where there is no OS keychain (docs/journal.md#checkpoints).
const CheckpointKeyFile = "journal-checkpoint.key"

// checkpointKeyAccount is the OS keychain entry (service "OpenWorker")
// holding the hex Ed25519 seed.
const checkpointKeyAccount = "journal checkpoint key"

// osKeychainUsable reports whether the OS keychain may be asked: always
// on macOS and Windows; on Linux only with a session bus, so that no bus
// is autolaunched for it (a server, a cron job, CI).
var osKeychainUsable = func() bool {
	return runtime.GOOS != "linux" || os.Getenv("DBUS_SESSION_BUS_ADDRESS") != ""
}

// LoadCheckpointKey returns the key that signs the checkpoints of the
// journal at dbPath, creating it the first time, and says where it is
// kept. A file key (CheckpointKeyFile beside the journal, 0600) already
// there is used first; else the OS keychain's; else, where the OS keychain
// is absent or fails, a new file key, and notice (if not nil) is told so
// once, when it is created, with what that protects.
func LoadCheckpointKey(dbPath string, notice func(string)) (ed25519.PrivateKey, string, error) {
	file := filepath.Join(filepath.Dir(dbPath), CheckpointKeyFile)
	if k, err := readKeyFile(file); err == nil {
		return k, file, nil
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, "", err
	}
	var why error = errors.New("no session bus, so the Secret Service is not asked")
	if osKeychainUsable() {
		k, err := keychainKey()
		if err == nil {
			return k, "the OS keychain", nil
		}
		why = err
	}
	k, created, err := createKeyFile(file)
	if err != nil {
		return nil, "", err
	}
	if created && notice != nil {
		notice(fmt.Sprintf("the OS keychain is not available (%v), so the key that signs the journal's checkpoints is kept in %s (readable only by you). "+
			"Anyone who can read that file and change the journal can forge a checkpoint: keep a second checkpoint folder on another disk (docs/journal.md#checkpoints).", why, file))
	}
	return k, file, nil
}

// keychainKey reads the key from the OS keychain, creating it there the
// first time.
func keychainKey() (ed25519.PrivateKey, error) {
	kc := keychain.New(keychain.Options{})
	v, err := kc.Get("OpenWorker", checkpointKeyAccount)
	if err == nil {
		return parseSeed(v, "the OS keychain entry "+checkpointKeyAccount)
	}
	if !errors.Is(err, keychain.ErrNotFound) {
		return nil, err
	}
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	if err := kc.Set("OpenWorker", checkpointKeyAccount, hex.EncodeToString(priv.Seed())); err != nil {
		return nil, err
	}
	return priv, nil
}

func parseSeed(s, where string) (ed25519.PrivateKey, error) {
	seed, err := hex.DecodeString(strings.TrimSpace(s))
	if err != nil || len(seed) != ed25519.SeedSize {
		return nil, fmt.Errorf("journal: the checkpoint key in %s is not a %d-byte hex Ed25519 seed; move it aside to make a new key (older checkpoints then no longer verify)", where, ed25519.SeedSize)
	}
	return ed25519.NewKeyFromSeed(seed), nil
}

func readKeyFile(path string) (ed25519.PrivateKey, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return parseSeed(string(b), path)
}

// createKeyFile writes a new key to path unless one is there already (two
// processes creating it at once end with the same key: the file is made
// whole beside it and linked into place, which fails if path exists).
func createKeyFile(path string) (ed25519.PrivateKey, bool, error) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, false, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, false, fmt.Errorf("journal: checkpoint key: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return nil, false, fmt.Errorf("journal: checkpoint key: %w", err)
	}
	defer os.Remove(tmp.Name())
	_, werr := tmp.WriteString(hex.EncodeToString(priv.Seed()) + "\n")
	if werr == nil {
		werr = tmp.Sync()
	}
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(tmp.Name(), 0o600)
	}
	if werr != nil {
		return nil, false, fmt.Errorf("journal: checkpoint key %s: %w", path, werr)
	}
	if err := os.Link(tmp.Name(), path); err != nil {
		if errors.Is(err, os.ErrExist) {
			k, rerr := readKeyFile(path)
			return k, false, rerr
		}
		return nil, false, fmt.Errorf("journal: checkpoint key %s: %w", path, err)
	}
	return priv, true, nil
}
