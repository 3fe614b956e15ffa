package darwin

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/openworker/desktop/platform/internal/core"
)

// UserCenter is the part of macOS's user notification center
// (UNUserNotificationCenter) the adapter uses; docs/platform.md#macos-user-notifications.
// The real one (usercenter_darwin.go) exists only in a process started
// from an .app bundle; tests give the adapter their own through Options.
type UserCenter interface {
	// Authorize asks for permission to show alerts with a sound. macOS
	// asks the person the first time only and answers at once after that.
	// An error wrapping ErrNotAllowed is a decision (the person or a
	// policy said no, or the app is not signed so that macOS allows it);
	// any other error (ctx ended while the question was open) is not.
	Authorize(ctx context.Context) error
	// Add posts a notification; id is what OnClick's function gets when
	// the person clicks it.
	Add(ctx context.Context, id, title, body string) error
	// OnClick sets the function run with a notification's id when the
	// person clicks it (the default action).
	OnClick(func(id string))
}

// ErrNotAllowed is the user notification center's refusal: notifications
// then go through beeep (docs/platform.md#macos-user-notifications).
var ErrNotAllowed = errors.New("macOS does not allow this app's notifications")

// authorizeWait bounds the wait for macOS's answer to its first
// notification question, so that the notification still goes out through
// beeep within the caller's time while the person has not answered.
const authorizeWait = 2 * time.Second

// maxPendingClicks bounds the clicks remembered: the oldest notification's
// click is forgotten first (Notification Center keeps few anyway).
const maxPendingClicks = 200

// userNotifier posts through a UserCenter once it is authorized, and
// remembers which function each notification's click runs.
type userNotifier struct {
	center UserCenter
	prefix string // request ids: prefix + sequence number

	mu      sync.Mutex
	decided error // non-nil: refused for the life of the process
	granted bool
	seq     uint64
	pending map[string]func()
	order   []string // ids of pending, oldest first
}

// notifiers holds the one userNotifier of each UserCenter: the process has
// one user notification center (openSystemCenter) and several Adapters
// (the app's notifier, platform.Default() for the notification tools).
// One notifier per center keeps one OnClick function, which knows every
// adapter's clicks, and one sequence of request ids, so that no adapter's
// notification replaces another's.
var (
	notifiersMu sync.Mutex
	notifiers   = map[UserCenter]*userNotifier{}
)

// notifierFor returns c's userNotifier, made at the first call.
func notifierFor(c UserCenter) *userNotifier {
	notifiersMu.Lock()
	defer notifiersMu.Unlock()
	if u := notifiers[c]; u != nil {
		return u
	}
	u := newUserNotifier(c)
	notifiers[c] = u
	return u
}

func newUserNotifier(c UserCenter) *userNotifier {
	u := &userNotifier{
		center:  c,
		prefix:  "openworker-" + strconv.Itoa(os.Getpid()) + "-",
		pending: map[string]func(){},
	}
	c.OnClick(u.clicked)
	return u
}

// notify posts req, with onClick (may be nil) run once on its click. An
// error means nothing was shown and the caller falls back to beeep, but
// for errHandedOver (ctx ended after macOS took the request).
func (u *userNotifier) notify(ctx context.Context, req core.NotifyRequest, onClick func()) error {
	if err := u.authorize(ctx); err != nil {
		return err
	}
	id := u.remember(onClick)
	if err := u.center.Add(ctx, id, req.Title, req.Body); err != nil {
		if ctx.Err() != nil {
			// The request reached macOS; only its answer is late. It may
			// show yet (its click stays remembered): no second copy.
			return fmt.Errorf("%w: %w", errHandedOver, err)
		}
		u.forget(id)
		return fmt.Errorf("UNUserNotificationCenter: %w", err)
	}
	return nil
}

// errHandedOver: ctx ended while the user notification center had the
// request; the caller must not post it again another way.
var errHandedOver = errors.New("UNUserNotificationCenter has the notification, its answer did not come in time")

// refused is the center's lasting refusal, or nil.
func (u *userNotifier) refused() error {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.decided
}

// authorize asks the center once it has answered for good; until then
// (a question the person has not answered yet) each notification asks
// again and falls back meanwhile.
func (u *userNotifier) authorize(ctx context.Context) error {
	u.mu.Lock()
	decided, granted := u.decided, u.granted
	u.mu.Unlock()
	if decided != nil {
		return decided
	}
	if granted {
		return nil
	}
	actx, cancel := context.WithTimeout(ctx, authorizeWait)
	defer cancel()
	err := u.center.Authorize(actx)
	u.mu.Lock()
	defer u.mu.Unlock()
	switch {
	case err == nil:
		u.granted = true
	case errors.Is(err, ErrNotAllowed):
		u.decided = err
	}
	return err
}

func (u *userNotifier) remember(onClick func()) string {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.seq++
	id := u.prefix + strconv.FormatUint(u.seq, 10)
	if onClick == nil {
		return id
	}
	u.pending[id] = onClick
	u.order = append(u.order, id)
	if len(u.order) > maxPendingClicks {
		delete(u.pending, u.order[0])
		u.order = u.order[1:]
	}
	return id
}

func (u *userNotifier) forget(id string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	delete(u.pending, id)
}

// clicked runs the click function of id once, in a goroutine of its own;
// ids of other processes or already clicked ones are ignored.
func (u *userNotifier) clicked(id string) {
	u.mu.Lock()
	fn := u.pending[id]
	delete(u.pending, id)
	u.mu.Unlock()
	if fn != nil {
		go fn()
	}
}

// bundleEligible reports why the process cannot use the user notification
// center: macOS attributes its notifications to the app bundle, and ends
// a process that asks without one (an uncatchable exception). path and id
// are the main bundle's path and CFBundleIdentifier.
func bundleEligible(path, id string) error {
	if !strings.EqualFold(filepath.Ext(strings.TrimSuffix(path, "/")), ".app") {
		return fmt.Errorf("not started from an .app bundle (the main bundle is %q): %w", path, errors.ErrUnsupported)
	}
	if id == "" {
		return fmt.Errorf("%s has no CFBundleIdentifier in its Info.plist: %w", path, errors.ErrUnsupported)
	}
	return nil
}
