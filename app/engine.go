package app

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/model"
)

// modelConfig builds the provider configuration from the settings, the
// keychain and the environment (the variables of docs/cli.md fill what is unset).
// A keychain failure is returned as warn: the environment may still supply
// a key.
func (a *App) modelConfig(s Settings) (c model.Config, warn error) {
	p := s.OpenAI
	if s.Provider == model.ProviderAnthropic {
		p = s.Anthropic
	}
	c = model.Config{Provider: s.Provider, BaseURL: p.BaseURL, Model: p.Model}
	key, err := a.keys.Get(s.Provider)
	if err != nil {
		warn = err
	}
	c.APIKey = key
	return model.FromEnv(c, a.cfg.Getenv), warn
}

// reopenLocked opens a harness runtime for the current settings and makes
// it the one new chats use. Open chats keep their runtime until shutdown.
// A model configuration error leaves the runtime without a model: bundles
// still list, and opening a chat says what to fix. a.mu must be held.
func (a *App) reopenLocked() {
	if a.journal == nil {
		return
	}
	a.modelErr, a.modelDescription = nil, ""
	cfg, warn := a.modelConfig(a.settings)
	a.modelBaseURL = cfg.BaseURL
	prov, err := model.New(cfg)
	if err != nil {
		a.modelErr = fmt.Errorf("the model provider is not usable: %w; fix it in Settings", err)
		prov = nil
	} else {
		a.modelDescription = prov.Describe()
	}
	a.keychainErr = warn
	if warn != nil {
		a.log.Warn("keychain", "err", warn)
	}
	timeout := consent.DefaultPromptTimeout
	if d, err := time.ParseDuration(a.cfg.PromptTimeout); err == nil && d > 0 {
		timeout = d
	}
	rt, err := harness.Open(a.base, a.reg, harness.Options{
		Coworkers:     a.coworkersDir(),
		Journal:       a.journal,
		Model:         prov,
		Approve:       consent.Mode(a.settings.ApprovalMode),
		Prompter:      a.prompter,
		PromptTimeout: timeout,
		Workspace:     filepath.Join(a.paths.ConfigDir, "workspace"),
		Logger:        a.log,
	})
	if a.rt != nil {
		a.retired = append(a.retired, a.rt)
	}
	a.resolved.reset() // the list resolves against the new runtime
	a.rt, a.rtErr = rt, nil
	if err != nil {
		a.rt, a.rtErr = nil, fmt.Errorf("the harness could not start: %w", err)
		a.log.Error("harness open", "err", err)
	}
}
