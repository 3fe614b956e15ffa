package oauth

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/openworker/desktop/harness/internal/keychain"
)

// Grant is one sign-in: the tokens an authorization server issued to
// OpenWorker for one MCP server, and what refreshing them needs
// (docs/mcp.md#sign-in). It is kept only in a TokenStore, never in a
// file, the journal, a log or an error.
type Grant struct {
	// Server is the MCP server's URL as configured (the store's lookup key).
	Server string `json:"server"`
	// Resource is the RFC 8707 resource the tokens are for (the protected
	// resource metadata's "resource"), sent with every token request.
	Resource string `json:"resource"`
	// Issuer is the authorization server's issuer, checked against its
	// metadata at sign-in.
	Issuer string `json:"issuer"`
	// GrantType is how the tokens were got: "" for the authorization
	// code grant (a person signed in), GrantClientCredentials for the
	// client credentials grant, whose expired token is replaced by a new
	// one from the same grant.
	GrantType string `json:"grant_type,omitempty"`
	// ClientID and ClientSecret identify OpenWorker to the issuer (a
	// pre-registered confidential client's secret, or one a dynamic
	// registration issued; usually there is none).
	ClientID     string `json:"client_id"`
	ClientSecret string `json:"client_secret,omitempty"`
	// SecretInHeader sends the secret with HTTP Basic instead of the form.
	SecretInHeader bool     `json:"secret_in_header,omitempty"`
	TokenURL       string   `json:"token_url"`
	Scopes         []string `json:"scopes,omitempty"`

	AccessToken  string    `json:"access_token"`
	TokenType    string    `json:"token_type,omitempty"`
	RefreshToken string    `json:"refresh_token,omitempty"`
	Expiry       time.Time `json:"expiry,omitzero"`
}

// TokenStore keeps grants. Load returns nil and no error when none is
// stored for server (the MCP server's URL); Delete of a missing grant is
// not an error and returns nil. Implementations must be safe for
// concurrent use.
type TokenStore interface {
	Load(server string) (*Grant, error)
	Save(g *Grant) error
	Delete(server string) (*Grant, error)
}

// MemoryStore is a TokenStore in memory, for tests and for a run with no
// keychain (its sign-ins end with the process).
type MemoryStore struct {
	mu sync.Mutex
	m  map[string]Grant
}

// NewMemoryStore returns an empty MemoryStore.
func NewMemoryStore() *MemoryStore { return &MemoryStore{m: map[string]Grant{}} }

func (s *MemoryStore) Load(server string) (*Grant, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g, ok := s.m[server]
	if !ok {
		return nil, nil
	}
	return &g, nil
}

func (s *MemoryStore) Save(g *Grant) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[g.Server] = *g
	return nil
}

func (s *MemoryStore) Delete(server string) (*Grant, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g, ok := s.m[server]
	if !ok {
		return nil, nil
	}
	delete(s.m, server)
	return &g, nil
}

// KeychainService is the OS keychain service sign-ins are stored under
// (the app's API keys use the same one, under other accounts).
const KeychainService = "OpenWorker"

// KeychainStore is the TokenStore of the OS keychain (Keychain on macOS,
// Credential Manager on Windows, the Secret Service on Linux, over
// github.com/zalando/go-keyring). A grant is stored under the account
// "mcp-oauth:ISSUER|CLIENT_ID|RESOURCE"; the account
// "mcp-oauth-server:SERVER_URL" holds that key (no secret), since a
// keychain cannot be listed.
//
// The zero value uses the OS keychain only: where there is none, every
// Load and Save fails saying so. NewKeychainStore adds the encrypted file
// of docs/mcp.md#without-a-keychain as the fallback.
type KeychainStore struct {
	k *keychain.Keychain // nil: the OS keychain only
}

// KeychainOptions configure NewKeychainStore.
type KeychainOptions struct {
	// Dir is the folder of the fallback file (secrets.enc, its key
	// secrets.key, both 0600), usually harness.ConfigDir(); "" is no
	// fallback.
	Dir string
	// Notice is told once, when the fallback file is created: that there
	// is no OS keychain, where sign-ins are kept instead and what that
	// protects. nil tells nobody.
	Notice func(msg string)
}

// NewKeychainStore returns the KeychainStore that falls back to an
// encrypted file in o.Dir when the OS keychain is not there
// (docs/mcp.md#without-a-keychain). Stores of one folder share the file
// (a lock file orders their changes, across processes too).
func NewKeychainStore(o KeychainOptions) KeychainStore {
	return KeychainStore{k: keychain.New(keychain.Options{Dir: o.Dir, Notice: o.Notice})}
}

// Where says where the store keeps grants now: "the OS keychain", or the
// fallback file's path once the keychain failed.
func (s KeychainStore) Where() string { return s.kc().Where() }

func (s KeychainStore) kc() *keychain.Keychain {
	if s.k == nil {
		return keychain.New(keychain.Options{})
	}
	return s.k
}

func serverAccount(server string) string { return "mcp-oauth-server:" + server }

func grantAccount(g *Grant) string {
	return "mcp-oauth:" + g.Issuer + "|" + g.ClientID + "|" + g.Resource
}

func (s KeychainStore) Load(server string) (*Grant, error) {
	k := s.kc()
	acct, err := k.Get(KeychainService, serverAccount(server))
	if errors.Is(err, keychain.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, keychainError("read", err)
	}
	raw, err := k.Get(KeychainService, acct)
	if errors.Is(err, keychain.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, keychainError("read", err)
	}
	var g Grant
	if err := json.Unmarshal([]byte(raw), &g); err != nil || g.Server != server {
		return nil, nil // not ours, or damaged: sign in again
	}
	return &g, nil
}

func (s KeychainStore) Save(g *Grant) error {
	raw, err := json.Marshal(g)
	if err != nil {
		return err
	}
	k := s.kc()
	acct := grantAccount(g)
	if err := k.Set(KeychainService, acct, string(raw)); err != nil {
		return keychainError("save", err)
	}
	if err := k.Set(KeychainService, serverAccount(g.Server), acct); err != nil {
		return keychainError("save", err)
	}
	return nil
}

func (s KeychainStore) Delete(server string) (*Grant, error) {
	k := s.kc()
	acct, err := k.Get(KeychainService, serverAccount(server))
	if errors.Is(err, keychain.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, keychainError("read", err)
	}
	var g *Grant
	if raw, err := k.Get(KeychainService, acct); err == nil {
		var v Grant
		if json.Unmarshal([]byte(raw), &v) == nil {
			g = &v
		}
	}
	for _, a := range []string{acct, serverAccount(server)} {
		if err := k.Delete(KeychainService, a); err != nil {
			return nil, keychainError("delete", err)
		}
	}
	if g == nil {
		g = &Grant{Server: server, Issuer: issuerOfAccount(acct)}
	}
	return g, nil
}

func issuerOfAccount(acct string) string {
	rest, _ := strings.CutPrefix(acct, "mcp-oauth:")
	iss, _, _ := strings.Cut(rest, "|")
	return iss
}

// keychainError explains a store failure; it never holds a token.
func keychainError(op string, err error) error {
	return fmt.Errorf("could not %s the sign-in: %w", op, err)
}
