package app

import (
	"fmt"
	"strings"
	"sync"

	"github.com/openworker/desktop/harness/model"
)

// Preferences is the Settings screen's own part: the saved settings, the
// API keys, the model picker (models_api.go), the theme (theme.go) and
// the saved answers (policies.go). The servers file's import, inputs and
// sign-ins are Servers'; extensions are Extensions'. It has no state of
// its own: the settings are settingsStore's, the model modelState's.
type Preferences struct {
	*env
	engine    *engine // the journal of the saved answers
	settings  *settingsStore
	model     *modelState
	servers   *serversFile
	reloads   *reloads
	coworkers *Coworkers // listed anew when the folder or servers file changes
	updates   *updater   // nil in tests that do not start one (updates.go)

	autostartMu sync.Mutex // held while the login entry and its switch change (background.go)
}

// SettingsView is the Settings screen: the saved choices, which API keys
// the keychain holds (never the keys), and where things are.
type SettingsView struct {
	Settings  Settings        `json:"settings"`
	KeyStored map[string]bool `json:"key_stored"` // provider → a key is in the keychain
	// KeychainErrors maps a provider ("openai", "anthropic") to why its key
	// could not be read from the keychain; each message names that
	// provider's environment variable. Absent when the read worked.
	KeychainErrors map[string]string `json:"keychain_errors"`
	// KeyFromEnv maps a provider to whether its environment
	// variable (OPENAI_API_KEY, ANTHROPIC_API_KEY, docs/cli.md) is set for this run.
	KeyFromEnv map[string]bool `json:"key_from_env"`
	Model      string          `json:"model"`
	// Effective maps a provider to its saved base URL and model with the
	// defaults applied (model.FromEnv: environment, Ollama, public
	// endpoints), what ListModels and TestConnection use for empty fields.
	Effective  map[string]ProviderSettings `json:"effective"`
	ModelError string                      `json:"model_error"`
	// ModelWarning says that nothing listens at a local model server's
	// address (see modelUnreachable); "" otherwise.
	ModelWarning  string `json:"model_warning"`
	SettingsFile  string `json:"settings_file"`
	ServersLoaded string `json:"servers_loaded"` // the servers.json whose providers are in use
	// ServersError is the last problem reading servers.json (file, line,
	// column and fix), or "": the providers in use stay until it is fixed.
	// A problem of one entry disables only that provider.
	ServersError string `json:"servers_error"`
	// ServersUnreadable says ServersError is about the whole file (it
	// could not be read, so the providers in use stay as they were);
	// otherwise it is about entries, each of which disables only its
	// provider.
	ServersUnreadable bool `json:"servers_unreadable"`
	// ServersNotices are what the servers file as read ignored or
	// changed, each "PATH:LINE: ..." (docs/servers.md).
	ServersNotices []string `json:"servers_notices"`
	// ServerInputs are the inputs (${input:ID}) of the servers file in
	// use; SetServerInput answers one.
	ServerInputs []ServerInput `json:"server_inputs"`
	// RunFlags are this run's command-line flags that set a setting
	// ("--coworkers DIR", ...): in use now, kept out of settings.json
	// unless the person changes that field (docs/cli.md#the-desktop-app).
	RunFlags []string `json:"run_flags"`
}

// GetSettings returns the settings in use.
func (pr *Preferences) GetSettings() (SettingsView, error) {
	return pr.view(), nil
}

// view is the Settings screen as it is now. It reads the keychain and
// may dial the model's local address (modelUnreachable): it copies what
// it needs from each part first and holds no lock while it does.
func (pr *Preferences) view() SettingsView {
	s, m, f := pr.settings.get(), pr.model.current(), pr.servers.state()
	v := SettingsView{Settings: s, KeyStored: map[string]bool{}, KeychainErrors: map[string]string{},
		KeyFromEnv: map[string]bool{}, Model: m.description, SettingsFile: pr.paths.Settings, ServersLoaded: f.loaded}
	for _, p := range []string{model.ProviderOpenAI, model.ProviderAnthropic} {
		v.KeyFromEnv[p] = pr.cfg.Getenv(envKeyName(p)) != ""
		k, err := pr.keys.Get(p)
		if err != nil {
			v.KeychainErrors[p] = err.Error()
			continue
		}
		v.KeyStored[p] = k != ""
	}
	v.Effective = map[string]ProviderSettings{}
	for p, ps := range map[string]ProviderSettings{model.ProviderOpenAI: s.OpenAI, model.ProviderAnthropic: s.Anthropic} {
		k, _ := pr.keys.Get(p)
		c := model.FromEnv(model.Config{Provider: p, BaseURL: ps.BaseURL, Model: ps.Model, APIKey: k}, pr.cfg.Getenv)
		v.Effective[p] = ProviderSettings{BaseURL: c.BaseURL, Model: c.Model}
	}
	if m.err != nil {
		v.ModelError = m.err.Error()
	} else {
		v.ModelWarning = modelUnreachable(m.baseURL)
	}
	if f.err != nil {
		v.ServersError, v.ServersUnreadable = f.err.Error(), f.whole
	}
	if f.cfg != nil {
		v.ServersNotices = f.cfg.AllNotices()
	}
	v.ServerInputs = f.inputs()
	v.RunFlags = pr.cfg.runFlags()
	return v
}

// SaveSettings validates and saves s, then applies it: new chats use the
// new model, folder, approval mode and servers.json at once; chats already
// open keep theirs. The theme, the update switch, the default limits and the background section stay as they are (SetTheme, SetUpdateChecks, SetDefaultLimits, SetBackground change them). A servers.json with an error is reported in the view
// (ServersError) and changes no provider.
func (pr *Preferences) SaveSettings(s Settings) (SettingsView, error) {
	s.OpenAI.BaseURL = strings.TrimSpace(s.OpenAI.BaseURL)
	s.Anthropic.BaseURL = strings.TrimSpace(s.Anthropic.BaseURL)
	if err := s.Validate(); err != nil {
		return SettingsView{}, err
	}
	before, after, err := pr.settings.save(func(cur Settings) (Settings, error) {
		s.Theme = cur.Theme                                                                                               // SetTheme's alone
		s.UpdatesOff = cur.UpdatesOff                                                                                     // SetUpdateChecks' alone
		s.Limits = cur.Limits                                                                                             // SetDefaultLimits' alone
		s.SetupDone = cur.SetupDone                                                                                       // FinishSetup's alone
		s.KeepRunning, s.StartAtLogin, s.QuestionWaitSeconds = cur.KeepRunning, cur.StartAtLogin, cur.QuestionWaitSeconds // SetBackground's alone
		return s, nil
	})
	if err != nil {
		return SettingsView{}, err
	}
	pr.applySaved(before, after)
	return pr.view(), nil
}

// applySaved applies the settings saved (after; before them, before):
// the model, and the servers file and coworkers folder when they changed.
func (pr *Preferences) applySaved(before, after Settings) {
	dirChanged := coworkersDirOf(before, pr.paths.DefaultCoworkers) != after.CoworkersDir && after.CoworkersDir != ""
	pr.model.apply()
	if after.ServersPath != before.ServersPath {
		pr.servers.apply(false)
		pr.reloads.rewatchServers()
		dirChanged = true // the coworkers resolve anew
	}
	if dirChanged {
		pr.reloads.rewatchCoworkers()
		pr.coworkers.relist(pr.settings.coworkersDir())
	}
}

// SetAPIKey stores the API key of provider ("openai" or "anthropic") in the
// OS keychain and applies it to new chats. The key is never written to a
// file, the journal or the log.
func (pr *Preferences) SetAPIKey(provider, key string) (SettingsView, error) {
	if err := checkProvider(provider); err != nil {
		return SettingsView{}, err
	}
	key = strings.TrimSpace(key)
	if key == "" {
		return SettingsView{}, fmt.Errorf("the key is empty; use Remove to delete a stored key")
	}
	if err := pr.keys.Set(provider, key); err != nil {
		return SettingsView{}, err
	}
	pr.model.apply()
	return pr.view(), nil
}

// DeleteAPIKey removes the stored key of provider.
func (pr *Preferences) DeleteAPIKey(provider string) (SettingsView, error) {
	if err := checkProvider(provider); err != nil {
		return SettingsView{}, err
	}
	if err := pr.keys.Delete(provider); err != nil {
		return SettingsView{}, err
	}
	pr.model.apply()
	return pr.view(), nil
}

func checkProvider(p string) error {
	if p != model.ProviderOpenAI && p != model.ProviderAnthropic {
		return fmt.Errorf("provider %q: want %q or %q", p, model.ProviderOpenAI, model.ProviderAnthropic)
	}
	return nil
}

// ChooseServersFile asks for a servers.json with the native picker and
// returns its path ("" when the person cancels). It does not save it.
func (pr *Preferences) ChooseServersFile() (string, error) {
	if pr.dialogs == nil {
		return "", fmt.Errorf("no file picker is available")
	}
	return pr.dialogs.ChooseFile("Choose servers.json", pr.paths.ConfigDir)
}
