// Package settings is what the desktop app keeps on disk and in the OS
// keychain, and the rules to read and change it: settings.json (the
// person's non-secret choices), the config folder and the paths under it,
// the API keys in the keychain, and which servers file the app uses. The
// app and the CLI (`openworker doctor`, `openworker servers import`, and
// the default limits of the commands that run coworkers) use it alike, so the CLI needs nothing of the app
// (docs/cli.md#the-desktop-app). It knows nothing of the window: no Wails,
// no platform adapters.
package settings

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
	"time"

	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/model"
)

// Settings are the person's non-secret choices, kept as JSON in
// <config dir>/settings.json (Paths.Settings). API keys are never here:
// they live in the OS keychain (Keychain).
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
	// "light" or "dark" (docs/app.md#theme). In the app only SetTheme
	// changes it; saving the other settings keeps the one in use.
	Theme string `json:"theme"`
	// UpdatesOff stops the app's update check at start and once a day
	// (docs/update.md); the default, false, checks.
	UpdatesOff bool `json:"updates_off,omitempty"`
	// Limits are the default budgets of coworkers whose manifest sets
	// none (Limits; docs/limits.md#budgets). In the app only
	// SetDefaultLimits changes them.
	Limits Limits `json:"limits,omitzero"`
	// SetupDone records that the first-run setup was completed or skipped
	// (docs/app.md#first-run): it is not shown at start again. In the app
	// only FinishSetup changes it; saving the other settings keeps it.
	SetupDone bool `json:"setup_done,omitempty"`
	// KeepRunning keeps the app running with its window closed: closing
	// the window hides it, and schedules keep running
	// (docs/app.md#running-in-the-background).
	KeepRunning bool `json:"keep_running,omitempty"`
	// StartAtLogin starts the app, hidden, when the person logs in: an
	// autostart entry of the OS runs `openworker --background`
	// (docs/app.md#running-in-the-background).
	StartAtLogin bool `json:"start_at_login,omitempty"`
	// QuestionWaitSeconds is how long a server's question in an
	// unattended run of the app (a schedule, a chat that runs on its own)
	// waits in the inbox before it is declined, in seconds,
	// MinQuestionWait to MaxQuestionWait; 0 means 60
	// (docs/inbox.md#missed-questions).
	QuestionWaitSeconds int `json:"question_wait_seconds,omitempty"`
}

// Bounds of Settings.QuestionWaitSeconds, in seconds.
const (
	MinQuestionWait     = 10
	MaxQuestionWait     = 3600
	DefaultQuestionWait = 60
)

// QuestionWait is QuestionWaitSeconds as a duration, DefaultQuestionWait
// seconds when unset.
func (s Settings) QuestionWait() time.Duration {
	if s.QuestionWaitSeconds == 0 {
		return DefaultQuestionWait * time.Second
	}
	return time.Duration(s.QuestionWaitSeconds) * time.Second
}

// ProviderSettings say where one provider is. Empty fields take the
// defaults of model.FromEnv (for OpenAI-compatible with no key and no URL:
// Ollama on 127.0.0.1:11434).
type ProviderSettings struct {
	BaseURL string `json:"base_url"`
	Model   string `json:"model"`
}

// Default are the settings used when no settings file exists.
func Default() Settings {
	return Settings{Provider: model.ProviderOpenAI, ApprovalMode: string(consent.Ask)}
}

// Update changes one field of the settings saved at file, as they are on
// disk (not the ones a run uses: its flags stay out), and returns what it
// wrote. A settings file that cannot be read is not written over: the
// error names it.
func Update(file string, change func(*Settings)) (Settings, error) {
	s, err := Load(file)
	if err != nil {
		return Settings{}, err
	}
	change(&s)
	if err := Save(file, s); err != nil {
		return Settings{}, err
	}
	return s, nil
}

// CheckBaseURL refuses a base URL ("" is the provider's default) that is
// not an absolute http(s) URL, or that holds a user or password; label
// names the provider (ProviderLabel). The URL is quoted with its password
// hidden.
func CheckBaseURL(label, raw string) error {
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

// The themes a person can choose (docs/app.md#theme).
const (
	ThemeSystem = "system" // follow the OS (prefers-color-scheme)
	ThemeLight  = "light"
	ThemeDark   = "dark"
)

// CheckTheme refuses a theme that is none of ThemeSystem, ThemeLight,
// ThemeDark and "" (the same as ThemeSystem).
func CheckTheme(t string) error {
	switch t {
	case "", ThemeSystem, ThemeLight, ThemeDark:
		return nil
	}
	return fmt.Errorf("theme %q: choose %q, %q or %q", t, ThemeSystem, ThemeLight, ThemeDark)
}

// Validate reports the first field a person must fix, naming it.
func (s Settings) Validate() error {
	switch s.Provider {
	case model.ProviderOpenAI, model.ProviderAnthropic:
	default:
		return fmt.Errorf("provider %q: choose %q or %q", s.Provider, model.ProviderOpenAI, model.ProviderAnthropic)
	}
	for name, p := range map[string]ProviderSettings{"OpenAI-compatible": s.OpenAI, "Anthropic": s.Anthropic} {
		if err := CheckBaseURL(name, p.BaseURL); err != nil {
			return err
		}
	}
	switch consent.Mode(s.ApprovalMode) {
	case consent.Ask, consent.Bypass:
	default:
		return fmt.Errorf("approval mode %q: choose %q or %q", s.ApprovalMode, consent.Ask, consent.Bypass)
	}
	if err := CheckTheme(s.Theme); err != nil {
		return err
	}
	if w := s.QuestionWaitSeconds; w != 0 && (w < MinQuestionWait || w > MaxQuestionWait) {
		return fmt.Errorf("question_wait_seconds %d: choose %d to %d seconds (or leave it out for %d)", w, MinQuestionWait, MaxQuestionWait, DefaultQuestionWait)
	}
	if err := s.Limits.Check(); err != nil {
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

// Load reads path. A missing file gives Default. Unknown fields and
// malformed JSON are errors naming the file and line, so a typo is not
// silently dropped.
func Load(path string) (Settings, error) {
	s := Default()
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
		return Default(), fmt.Errorf("%s:%d: %v; fix or delete the file (it holds no secrets)", path, lineOf(data, dec.InputOffset(), err), err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return Default(), fmt.Errorf("%s: extra data after the settings object; fix or delete the file", path)
	}
	if s.Provider == "" {
		s.Provider = model.ProviderOpenAI
	}
	if s.ApprovalMode == "" {
		s.ApprovalMode = string(consent.Ask)
	}
	if err := s.Validate(); err != nil {
		return Default(), fmt.Errorf("%s: %v", path, err)
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

// Save validates s and writes it to path atomically (a temporary file
// renamed over the old one), mode 0600.
func Save(path string, s Settings) error {
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
