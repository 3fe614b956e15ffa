package app

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/model"
)

// checkTimeout bounds resolving one bundle for the Coworkers list: the MCP
// providers it names must start and list their tools within it. A bundle
// that takes longer is listed as broken with the timeout, and is tried
// again at the next listing (timeouts are not cached).
var checkTimeout = 8 * time.Second

// modelConfig builds the provider configuration from the settings, the
// keychain and the environment (the documented variables fill what is
// unset, docs/cli.md). A keychain failure is returned as warn: the
// environment may still supply a key.
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

// openRuntime opens the one harness runtime of the process over the
// journal. a.mu must be held (or a not yet shared).
func (a *App) openRuntime() {
	ws := filepath.Join(a.paths.ConfigDir, "workspace") // every chat's workspace: the MCP providers' root (docs/mcp.md#roots)
	if err := os.MkdirAll(ws, 0o700); err != nil {
		a.log.Warn("workspace folder", "path", ws, "err", err)
	}
	rt, err := harness.Open(a.base, a.reg, harness.Options{
		Coworkers:    a.coworkersDir(),
		Journal:      a.journal,
		Logger:       a.log,
		CheckTimeout: checkTimeout,
		SearchPath:   a.searchPath,
		Workspace:    ws, // as sessionOptionsLocked: one provider process for check and chats
		SignIn:       a.signInOptions(),
	})
	if err != nil {
		a.rtErr = fmt.Errorf("the harness could not start: %w", err)
		a.log.Error("harness open", "err", err)
		return
	}
	a.rt = rt
}

// applyModelLocked builds the model provider new chats use from the
// current settings. Open chats keep the provider they were opened with. A
// configuration error leaves no provider: bundles still list, and opening
// a chat says what to fix. a.mu must be held.
func (a *App) applyModelLocked() {
	a.model, a.modelErr, a.modelDescription = nil, nil, ""
	cfg, warn := a.modelConfig(a.settings)
	a.modelBaseURL = cfg.BaseURL
	a.keychainErr = warn
	if warn != nil {
		a.log.Warn("keychain", "err", warn)
	}
	prov, err := model.New(cfg)
	if err != nil {
		a.modelErr = fmt.Errorf("the model provider is not usable: %w; fix it in Settings", err)
		return
	}
	a.model, a.modelDescription = prov, prov.Describe()
}

// sessionOptionsLocked are the settings a new or continued chat is opened
// with and keeps until it closes. a.mu must be held.
func (a *App) sessionOptionsLocked() harness.SessionOptions {
	timeout := consent.DefaultPromptTimeout
	if d, err := time.ParseDuration(a.cfg.PromptTimeout); err == nil && d > 0 {
		timeout = d
	}
	return harness.SessionOptions{
		Model:         a.model,
		Approve:       consent.Mode(a.settings.ApprovalMode),
		Prompter:      a.prompter,
		Elicitor:      a.elicitor,
		PromptTimeout: timeout,
		Workspace:     filepath.Join(a.paths.ConfigDir, "workspace"),
		Coworkers:     a.coworkersDir(),
	}
}
