package app

import (
	"fmt"
	"strings"

	"github.com/openworker/desktop/harness/model"
)

// The first-run setup (docs/app.md#first-run): the window walks a newcomer
// through finding a model (a local Ollama, or an API key), Test
// connection, a starter coworker and a first chat. Its Go side is here:
// whether to show it, the Ollama probe (ollama.go), saving the model
// chosen, and the flag that it was completed or skipped.

// SetupState says whether the window shows the first-run setup at start.
type SetupState struct {
	// Show is true on a first start: no model is configured and the setup
	// was never completed or skipped.
	Show bool `json:"show"`
	// Done says the setup was completed or skipped (settings.json's
	// setup_done); Settings can still open it ("Run setup again").
	Done bool `json:"done"`
	// OllamaURL is where a local Ollama is looked for (OLLAMA_HOST or
	// http://127.0.0.1:11434), without /v1.
	OllamaURL string `json:"ollama_url"`
}

// SetupState returns whether the first-run setup is due.
func (pr *Preferences) SetupState() (SetupState, error) {
	s := pr.settings.get()
	return SetupState{Show: setupDue(s, pr.settings, pr.env), Done: s.SetupDone, OllamaURL: ollamaRoot(pr.cfg.Getenv)}, nil
}

// setupDue reports whether the setup is shown at start: never completed
// or skipped, and no model configured (modelConfigured), s being st's
// settings in use. A settings.json that could not be read (st.broken) is
// no first start: the defaults then in use say nothing, and the notice
// says what to fix.
func setupDue(s Settings, st *settingsStore, e *env) bool {
	return !s.SetupDone && !st.broken() && !modelConfigured(s, e)
}

// modelConfigured reports whether the person chose a model anywhere: in
// settings.json or this run's flags (a provider other than the default, a
// base URL or a model), a key in the keychain, or the environment
// variables the model reads (docs/cli.md). With none of them a chat would
// go to the default Ollama model, which may not exist: the first-run case.
func modelConfigured(s Settings, e *env) bool {
	if s.Provider == model.ProviderAnthropic || s.OpenAI != (ProviderSettings{}) || s.Anthropic != (ProviderSettings{}) {
		return true
	}
	for _, v := range []string{"OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"} {
		if strings.TrimSpace(e.cfg.Getenv(v)) != "" {
			return true
		}
	}
	for _, p := range []string{model.ProviderOpenAI, model.ProviderAnthropic} {
		if k, err := e.keys.Get(p); err == nil && k != "" {
			return true
		}
	}
	return false
}

// FinishSetup records in settings.json that the first-run setup was
// completed or skipped, keeping every other saved field as it is on disk
// (as SetTheme): it is not shown at start again.
func (pr *Preferences) FinishSetup() error {
	if err := pr.settings.update(func(s *Settings) { s.SetupDone = true }); err != nil {
		return fmt.Errorf("the setup could not be marked as done: %w", err)
	}
	return nil
}

// UseModel saves the model the setup chose: provider ("openai" or
// "anthropic") with baseURL and modelName, and key in the OS keychain
// when it is not "" (SetAPIKey; never in settings.json). New chats use
// it at once (SaveSettings).
func (pr *Preferences) UseModel(provider, baseURL, modelName, key string) (SettingsView, error) {
	if err := checkProvider(provider); err != nil {
		return SettingsView{}, err
	}
	baseURL, modelName = strings.TrimSpace(baseURL), strings.TrimSpace(modelName)
	if err := checkBaseURL(providerLabel(provider), baseURL); err != nil {
		return SettingsView{}, err
	}
	if strings.TrimSpace(key) != "" {
		if _, err := pr.SetAPIKey(provider, key); err != nil {
			return SettingsView{}, err
		}
	}
	s := pr.settings.get()
	s.Provider = provider
	p := &s.OpenAI
	if provider == model.ProviderAnthropic {
		p = &s.Anthropic
	}
	p.BaseURL, p.Model = baseURL, modelName
	return pr.SaveSettings(s)
}
