package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/openworker/desktop/internal/update"
)

// UpdateStatus is what the Settings screen shows of updates
// (docs/update.md): the switch, and where the background check is.
type UpdateStatus struct {
	On bool `json:"on"`
	// State is "idle", "checking", "up_to_date", "downloading", "ready"
	// (restart to update), "not_updatable" (a development build, or no
	// file for this system) or "error".
	State   string `json:"state"`
	Current string `json:"current"`
	Latest  string `json:"latest,omitempty"`
	Notes   string `json:"notes,omitempty"`
	// Done and Total are the bytes of the download so far.
	Done  int64  `json:"done"`
	Total int64  `json:"total"`
	Error string `json:"error,omitempty"`
	// Checked is when the last check ended (RFC 3339), "" before one.
	Checked string `json:"checked,omitempty"`
}

// updateInterval is how often a running app checks again.
const updateInterval = 24 * time.Hour

// updater checks the feed at start and daily, downloads a newer release
// into dir and keeps the status for the Settings screen.
type updater struct {
	feed, dir, current string
	client             *http.Client
	on                 func() bool // the Settings switch
	logger             *slog.Logger

	mu sync.Mutex
	st UpdateStatus
}

func newUpdater(feed, dir, current string, on func() bool, logger *slog.Logger) *updater {
	if feed == "" {
		feed = update.DefaultFeedURL
	}
	return &updater{feed: feed, dir: dir, current: current, on: on, logger: logger,
		client: &http.Client{Timeout: 30 * time.Minute}, st: UpdateStatus{State: "idle", Current: current}}
}

// status is the status with the switch as saved now.
func (u *updater) status() UpdateStatus {
	u.mu.Lock()
	defer u.mu.Unlock()
	st := u.st
	st.On = u.on()
	return st
}

func (u *updater) set(change func(*UpdateStatus)) {
	u.mu.Lock()
	change(&u.st)
	u.mu.Unlock()
}

// run checks now and every updateInterval until ctx ends, skipping while
// the switch is off.
func (u *updater) run(ctx context.Context) {
	t := time.NewTicker(updateInterval)
	defer t.Stop()
	for {
		if u.on() {
			u.check(ctx)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// check runs one check and, when a newer release exists, downloads and
// stages it. A release already staged is not downloaded again.
func (u *updater) check(ctx context.Context) {
	if u.status().State == "ready" {
		return
	}
	if !update.IsRelease(u.current) {
		// Not even asked: a development build is never updated, and its
		// tests must not reach the network.
		u.set(func(s *UpdateStatus) {
			s.State, s.Error = "not_updatable", fmt.Sprintf("this build's version %q is not a release version, so it is not updated", u.current)
		})
		return
	}
	u.set(func(s *UpdateStatus) { s.State, s.Error = "checking", "" })
	res, err := update.Check(ctx, u.client, u.feed, u.current, update.Platform())
	now := time.Now().UTC().Format(time.RFC3339)
	if err != nil {
		u.logger.Warn("update check", "feed", u.feed, "err", err)
		u.set(func(s *UpdateStatus) { s.State, s.Error, s.Checked = "error", err.Error(), now })
		return
	}
	u.set(func(s *UpdateStatus) { s.Latest, s.Notes, s.Checked = res.Latest, res.Notes, now })
	switch {
	case res.Newer:
	case res.Why != "":
		u.set(func(s *UpdateStatus) { s.State, s.Error = "not_updatable", res.Why })
		return
	default:
		u.set(func(s *UpdateStatus) { s.State = "up_to_date" })
		return
	}
	u.set(func(s *UpdateStatus) { s.State, s.Done, s.Total = "downloading", 0, res.Asset.Size })
	st, err := update.Download(ctx, u.client, res, u.dir, func(done, total int64) {
		u.set(func(s *UpdateStatus) { s.Done, s.Total = done, total })
	})
	if err != nil {
		u.logger.Warn("update download", "version", res.Latest, "err", err)
		u.set(func(s *UpdateStatus) { s.State, s.Error = "error", err.Error() })
		return
	}
	u.logger.Info("update staged", "version", st.Version, "file", st.File)
	u.set(func(s *UpdateStatus) { s.State = "ready" })
}

// UpdateStatus is the update switch and the background check's progress
// for the Settings screen (docs/update.md).
func (pr *Preferences) UpdateStatus() UpdateStatus {
	if pr.updates == nil {
		return UpdateStatus{State: "idle"}
	}
	return pr.updates.status()
}

// SetUpdateChecks saves the update switch in settings.json at once (other
// saved fields are kept as on disk) and, turned on, checks now in the
// background.
func (pr *Preferences) SetUpdateChecks(on bool) (UpdateStatus, error) {
	if err := pr.settings.update(func(s *Settings) { s.UpdatesOff = !on }); err != nil {
		return pr.UpdateStatus(), fmt.Errorf("the update setting was not saved: %w", err)
	}
	if on && pr.updates != nil {
		go pr.updates.check(pr.base)
	}
	return pr.UpdateStatus(), nil
}

// applyStagedUpdate installs an update staged by an earlier run, before
// the app opens anything (docs/update.md#apply). It reports whether the
// app must exit at once: the Windows installer was started, or the new
// program was started in its place.
func applyStagedUpdate(configDir string, logger *slog.Logger) bool {
	exe, err := os.Executable()
	if err == nil {
		exe, err = filepath.EvalSymlinks(exe)
	}
	if err != nil {
		logger.Warn("update: cannot find this program", "err", err)
		return false
	}
	a, ok, err := update.ApplyStaged(filepath.Join(configDir, "updates"), update.Target{Exe: exe, Platform: update.Platform(), Restart: true})
	if !ok {
		return false
	}
	if err != nil {
		level := slog.LevelError
		if errors.Is(err, update.ErrRefused) {
			level = slog.LevelWarn
		}
		logger.Log(context.Background(), level, "update not applied", "version", a.Version, "err", err)
		return false
	}
	logger.Info("update applied", "version", a.Version, "installer", a.Installer)
	if a.Installer {
		return true
	}
	if err := update.Restart(exe, os.Args); err != nil {
		logger.Warn("update: start the new version", "err", err)
	}
	return false
}
