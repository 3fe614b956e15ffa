package app

import (
	"fmt"
	"sync"

	"github.com/openworker/desktop/harness/model"
)

// modelInUse is the model provider new chats use, as built from the
// settings and the keychain: provider nil when err says why.
type modelInUse struct {
	provider    model.Provider
	err         error
	description string // provider.Describe()
	baseURL     string // the base URL in use, defaults applied
}

// notice is the model banner (key NoticeKeyModel) for m: a warning when
// it is not usable (err) or nothing answers at its local address
// (modelUnreachable), else the keyed notice with no message that removes
// the banner. It may dial the model's local address: call it holding no
// lock.
func (m modelInUse) notice() Notice {
	n := Notice{Level: NoticeWarn, Key: NoticeKeyModel}
	if m.err != nil {
		n.Message = m.err.Error()
	} else {
		n.Message = modelUnreachable(m.baseURL)
	}
	if n.Message == "" {
		n.Level = NoticeInfo
	}
	return n
}

// nameRule is the tool-name rule of the model provider new chats use: the
// provider's own, or when it could not be built, the rule of the provider
// the settings name.
func (m modelInUse) nameRule(provider string) model.NameRule {
	if m.provider != nil {
		return m.provider
	}
	if r, err := model.ToolNames(provider); err == nil {
		return r
	}
	return model.SharedToolNames
}

// modelState holds the model new chats use and the model banner. Building
// the model reads the keychain and its banner may dial the model's
// address: both happen holding no lock, and the result is kept under mu
// unless a later build (a newer ticket) was kept already. The banner is
// decided under mu and sent after (noticeBoard.setIf, which takes mu
// again to check it is still the one decided last). Open chats keep the
// provider they were opened with.
type modelState struct {
	env      *env
	settings *settingsStore
	notices  *noticeBoard

	mu     sync.Mutex
	asked  uint64     // builds begun (each takes the next ticket)
	stored uint64     // the ticket of the build cur is
	cur    modelInUse // what new chats use
	shown  Notice     // the model banner last sent (or kept at start)
}

// current returns the model new chats use.
func (m *modelState) current() modelInUse {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.cur
}

// build builds the model provider from the settings in use now. A
// configuration error leaves no provider: bundles still list, and
// opening a chat says what to fix.
func (m *modelState) build() (uint64, modelInUse) {
	m.mu.Lock()
	m.asked++
	ticket := m.asked
	m.mu.Unlock()
	// Read after the ticket is taken: the newest ticket has read the
	// settings and keys as every change before it left them.
	cfg, warn := m.env.modelConfig(m.settings.get())
	if warn != nil {
		m.env.log.Warn("keychain", "err", warn)
	}
	in := modelInUse{baseURL: cfg.BaseURL}
	prov, err := model.New(cfg)
	if err != nil {
		in.err = fmt.Errorf("the model provider is not usable: %w; fix it in Settings", err)
		return ticket, in
	}
	in.provider, in.description = prov, prov.Describe()
	return ticket, in
}

// start builds the model at start and keeps its banner with the start
// notices when it has a message (a model error is Info's ModelError, not
// a notice): nothing is sent, the window reads them with Info.
func (m *modelState) start() {
	ticket, in := m.build()
	n := in.notice()
	m.mu.Lock()
	m.stored, m.cur, m.shown = ticket, in, n
	m.mu.Unlock()
	if n.Message != "" && in.err == nil {
		m.notices.add(n)
	}
}

// apply builds the model again from the settings in use and the keychain
// and, when the model banner changed (a new problem, or the problem is
// gone), sends the keyed notice that replaces or removes it, and updates
// Info's notices to match.
func (m *modelState) apply() {
	ticket, in := m.build()
	n := in.notice()
	m.mu.Lock()
	if ticket < m.stored {
		m.mu.Unlock()
		return // a build that began later was kept already
	}
	m.stored, m.cur = ticket, in
	changed := n != m.shown
	m.shown = n
	m.mu.Unlock()
	if changed {
		m.notices.setIf(n, m.shows(n))
	}
}

// recheck checks the model banner again, after a probe reached the model
// in use or a turn's model answered, and sends the keyed notice that
// replaces or removes it when it changed: the banner follows the state on
// every screen. With onlyShown, only a banner that is up is checked.
func (m *modelState) recheck(onlyShown bool) {
	m.mu.Lock()
	ticket, in, shown := m.stored, m.cur, m.shown
	m.mu.Unlock()
	if onlyShown && shown.Message == "" {
		return
	}
	n := in.notice()
	m.mu.Lock()
	if ticket != m.stored || n == m.shown {
		m.mu.Unlock()
		return // another build decided meanwhile, or nothing changed
	}
	m.shown = n
	m.mu.Unlock()
	m.notices.setIf(n, m.shows(n))
}

// shows reports whether n is the model banner decided last (checked by
// the notice board before it sends n).
func (m *modelState) shows(n Notice) func() bool {
	return func() bool {
		m.mu.Lock()
		defer m.mu.Unlock()
		return m.shown == n
	}
}
