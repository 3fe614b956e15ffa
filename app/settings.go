package app

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/model"
)

// Settings are the person's non-secret choices, kept as JSON in
// <config dir>/OpenWorker/settings.json. API keys are never here: they live
// in the OS keychain (keychain.go).
type Settings struct {
	// Provider is "openai" (any OpenAI-compatible endpoint) or "anthropic".
	Provider  string           `json:"provider"`
	OpenAI    ProviderSettings `json:"openai"`
	Anthropic ProviderSettings `json:"anthropic"`
	// CoworkersDir is the bundles folder (docs/bundles.md); "" means the default
	// folder under the person's documents.
	CoworkersDir string `json:"coworkers_dir"`
	// ServersPath is the servers file of MCP providers, in any format
	// docs/servers.md lists; "" for none. A change applies to new chats
	// at once; an import (ApplyImport) sets it to the file it wrote.
	ServersPath string `json:"servers_path"`
	// ApprovalMode is "ask" or "bypass" (docs/consent.md).
	ApprovalMode string `json:"approval_mode"`
	// Theme is the window's colours: "system" or "" (follow the OS),
	// "light" or "dark" (docs/app.md#theme). Only SetTheme changes it; SaveSettings
	// keeps the one in use.
	Theme string `json:"theme"`
}

// ProviderSettings say where one provider is. Empty fields take the
// defaults of model.FromEnv (for OpenAI-compatible with no key and no URL:
// Ollama on 127.0.0.1:11434).
type ProviderSettings struct {
	BaseURL string `json:"base_url"`
	Model   string `json:"model"`
}

// DefaultSettings are used when no settings file exists.
func DefaultSettings() Settings {
	return Settings{Provider: model.ProviderOpenAI, ApprovalMode: string(consent.Ask)}
}

// updateSettingsFile changes one field of the settings saved at file, as
// they are on disk (not the ones in use: this run's flags stay out), and
// returns what it wrote. A settings file that cannot be read is not
// written over: the error names it.
func updateSettingsFile(file string, change func(*Settings)) (Settings, error) {
	s, err := LoadSettings(file)
	if err != nil {
		return Settings{}, err
	}
	change(&s)
	if err := SaveSettings(file, s); err != nil {
		return Settings{}, err
	}
	return s, nil
}

// checkBaseURL refuses a base URL ("" is the provider's default) that is not
// an absolute http(s) URL, or that holds a user or password; label names
// the provider. The URL is quoted with its password hidden.
func checkBaseURL(label, raw string) error {
	if raw == "" {
		return nil
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%s base URL %q is not an absolute http:// or https:// URL", label, model.RedactURL(raw))
	}
	if u.User != nil {
		return fmt.Errorf("%s base URL must not contain a user or password; put the API key in the key field (it is kept in the OS keychain)", label)
	}
	return nil
}

// Validate reports the first field a person must fix, naming it.
func (s Settings) Validate() error {
	switch s.Provider {
	case model.ProviderOpenAI, model.ProviderAnthropic:
	default:
		return fmt.Errorf("provider %q: choose %q or %q", s.Provider, model.ProviderOpenAI, model.ProviderAnthropic)
	}
	for name, p := range map[string]ProviderSettings{"OpenAI-compatible": s.OpenAI, "Anthropic": s.Anthropic} {
		if err := checkBaseURL(name, p.BaseURL); err != nil {
			return err
		}
	}
	switch consent.Mode(s.ApprovalMode) {
	case consent.Ask, consent.Bypass:
	default:
		return fmt.Errorf("approval mode %q: choose %q or %q", s.ApprovalMode, consent.Ask, consent.Bypass)
	}
	if err := checkTheme(s.Theme); err != nil {
		return err
	}
	if s.CoworkersDir != "" && !filepath.IsAbs(s.CoworkersDir) {
		return fmt.Errorf("coworkers folder %q must be an absolute path", s.CoworkersDir)
	}
	if s.ServersPath != "" && !filepath.IsAbs(s.ServersPath) {
		return fmt.Errorf("servers.json path %q must be an absolute path", s.ServersPath)
	}
	return nil
}

// LoadSettings reads path. A missing file gives DefaultSettings. Unknown
// fields and malformed JSON are errors naming the file and line, so a typo
// is not silently dropped.
func LoadSettings(path string) (Settings, error) {
	s := DefaultSettings()
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return s, fmt.Errorf("read settings: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return DefaultSettings(), fmt.Errorf("%s:%d: %v; fix or delete the file (it holds no secrets)", path, lineOf(data, dec.InputOffset(), err), err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return DefaultSettings(), fmt.Errorf("%s: extra data after the settings object; fix or delete the file", path)
	}
	if s.Provider == "" {
		s.Provider = model.ProviderOpenAI
	}
	if s.ApprovalMode == "" {
		s.ApprovalMode = string(consent.Ask)
	}
	if err := s.Validate(); err != nil {
		return DefaultSettings(), fmt.Errorf("%s: %v", path, err)
	}
	return s, nil
}

// lineOf returns the 1-based line of the error's offset in data.
func lineOf(data []byte, off int64, err error) int {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		// The decoder reports no offset for this one: find the key.
		name := strings.TrimPrefix(err.Error(), "json: unknown field ")
		if i := bytes.Index(data, []byte(name+":")); i >= 0 {
			off = int64(i)
		} else if i := bytes.Index(data, []byte(name)); i >= 0 {
			off = int64(i)
		}
	}
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	return 1 + bytes.Count(data[:off], []byte("\n"))
}

// SaveSettings validates s and writes it to path atomically (a temporary
// file renamed over the old one), mode 0600.
func SaveSettings(path string, s Settings) error {
	if err := s.Validate(); err != nil {
		return err
	}
	s.CoworkersDir = strings.TrimSpace(s.CoworkersDir)
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("save settings: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".settings-*.json")
	if err != nil {
		return fmt.Errorf("save settings: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("save settings: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("save settings: %w", err)
	}
	if err := os.Chmod(tmp.Name(), 0o600); err != nil {
		return fmt.Errorf("save settings: %w", err)
	}
	return os.Rename(tmp.Name(), path)
}
