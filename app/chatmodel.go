package app

import (
	"errors"
	"fmt"
	"strings"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/model"
)

// ChatModelList is the chat's model picker's list (docs/app.md#model-in-a-chat).
type ChatModelList struct {
	Current string   `json:"current"` // the model the chat's next turn uses
	Models  []string `json:"models"`  // the server's models, Current first when it does not list it
	// Error says why the server's list could not be read ("" when it
	// could); Models then holds Current alone.
	Error string `json:"error,omitempty"`
}

// ChatModels lists the models the chat can switch to: the models of the
// provider Settings use now, asked as Settings asks them
// (Preferences.ListModels). A server that does not answer is not an
// error: the list holds the chat's model and Error says why. Errors are
// for an unknown chat.
func (c *Chats) ChatModels(sessionID string) (ChatModelList, error) {
	s, err := c.engine.chat(sessionID)
	if err != nil {
		return ChatModelList{}, err
	}
	cur := model.NameOf(s.Options().Model)
	out := ChatModelList{Current: cur, Models: []string{cur}}
	cfg, _ := c.modelConfig(c.settings.get()) // a keychain error: the environment may still have a key
	if cfg.Provider != s.Options().Model.Name() {
		out.Error = fmt.Sprintf("Settings now name another provider (%s); this chat can only switch between %s models", cfg.Provider, s.Options().Model.Name())
		return out, nil
	}
	ctx, cancel := model.WithProbeTimeout(c.base, probeTimeout)
	defer cancel()
	l, err := model.ListModels(ctx, cfg)
	if err != nil {
		out.Error = "could not list the models: " + err.Error()
		return out, nil
	}
	ids := modelIDs(l)
	if !l.Has(cur) {
		ids = append([]string{cur}, ids...)
	}
	out.Models = ids
	return out, nil
}

// SetChatModel makes name the model of the chat's next turns (the picker
// by the composer, docs/app.md#model-in-a-chat): the provider Settings
// use now, asked for that model. The change is journaled as a session
// setting change and kept when the chat is continued after a restart.
// Errors: an unknown chat, an empty name, a turn running
// (ErrTurnRunning), a provider of another kind than the chat's.
func (c *Chats) SetChatModel(sessionID, name string) (ChatInfo, error) {
	s, err := c.engine.chat(sessionID)
	if err != nil {
		return ChatInfo{}, err
	}
	if name = strings.TrimSpace(name); name == "" {
		return ChatInfo{}, errors.New("choose a model: the name is empty")
	}
	p, err := c.providerWith(name)
	if err != nil {
		return ChatInfo{}, err
	}
	if err := s.SetModel(c.base, p); err != nil {
		return ChatInfo{}, err
	}
	c.log.Info("chat model changed", "session", sessionID, "model", name)
	return c.info(s), nil
}

// providerWith is the provider Settings use now, asked for the model name.
// It reads the keychain: call it holding no lock.
func (c *Chats) providerWith(name string) (model.Provider, error) {
	cfg, _ := c.modelConfig(c.settings.get())
	cfg.Model = name
	p, err := model.New(cfg)
	if err != nil {
		return nil, fmt.Errorf("the model %q cannot be used: %w; fix the provider in Settings", name, err)
	}
	return p, nil
}

// lastChosenModel is the provider of a journaled chat's last chosen model
// (the picker's, harness.LastModel), or def when it was never switched
// or the journal cannot say.
func (c *Chats) lastChosenModel(sessionID string, def model.Provider) model.Provider {
	j, err := c.engine.openJournal()
	if err != nil {
		return def
	}
	name, err := harness.LastModel(c.base, j, sessionID)
	if err != nil || name == "" || (def != nil && model.NameOf(def) == name) {
		return def
	}
	p, err := c.providerWith(name)
	if err != nil || (def != nil && p.Name() != def.Name()) {
		c.log.Warn("chat model", "session", sessionID, "model", name, "err", err)
		return def
	}
	return p
}
