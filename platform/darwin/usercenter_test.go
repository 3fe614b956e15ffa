package darwin

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/openworker/desktop/platform/internal/core"
)

// recordingCenter is a user notification center in memory: it answers the
// permission question as told and records what was posted. The real one is
// tested on a Mac (usercenter_darwin_test.go).
type recordingCenter struct {
	mu        sync.Mutex
	answer    func(ctx context.Context) error // nil: granted
	addErr    error
	asked     int
	posted    []posted
	clickFunc func(id string)
}

type posted struct{ id, title, body string }

func (c *recordingCenter) Authorize(ctx context.Context) error {
	c.mu.Lock()
	c.asked++
	answer := c.answer
	c.mu.Unlock()
	if answer == nil {
		return nil
	}
	return answer(ctx)
}

func (c *recordingCenter) Add(_ context.Context, id, title, body string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.addErr != nil {
		return c.addErr
	}
	c.posted = append(c.posted, posted{id, title, body})
	return nil
}

func (c *recordingCenter) OnClick(fn func(id string)) { c.clickFunc = fn }

func (c *recordingCenter) last(t *testing.T) posted {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.posted) == 0 {
		t.Fatal("nothing was posted to the user notification center")
	}
	return c.posted[len(c.posted)-1]
}

// beeepCalls records what reached beeep.
type beeepCalls struct {
	mu    sync.Mutex
	calls []string
}

func (b *beeepCalls) notify(title, message string, _ any) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.calls = append(b.calls, title+"|"+message)
	return nil
}

func (b *beeepCalls) count() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.calls)
}

func centerAdapter(t *testing.T, c *recordingCenter) (*Adapter, *beeepCalls) {
	t.Helper()
	b := &beeepCalls{}
	return New(&Options{Program: "/nonexistent/osascript", Beeep: b.notify, Center: c}), b
}

func TestUserCenterCarriesNotifications(t *testing.T) {
	c := &recordingCenter{}
	a, b := centerAdapter(t, c)
	// Text beeep could not quote exactly goes through the center as is.
	req := core.NotifyRequest{Title: "Approve?", Body: "run \u202eevil \"x\" \\ y"}
	if err := a.Notify(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	got := c.last(t)
	if got.title != req.Title || got.body != req.Body {
		t.Fatalf("posted %q / %q, want %q / %q", got.title, got.body, req.Title, req.Body)
	}
	if !strings.HasPrefix(got.id, "openworker-") {
		t.Errorf("request id %q lacks the openworker- prefix", got.id)
	}
	if b.count() != 0 {
		t.Errorf("beeep was called too: %v", b.calls)
	}
	if err := a.Notify(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if c.asked != 1 {
		t.Errorf("asked for permission %d times, want once", c.asked)
	}
	if got := a.NotificationBackend(); got != "UNUserNotificationCenter" {
		t.Errorf("NotificationBackend = %q", got)
	}
	if err := a.Notify(context.Background(), core.NotifyRequest{Title: "bad\x00"}); err == nil {
		t.Error("a NUL in the title reached the center")
	}
}

func TestUserCenterRefusalFallsBackToBeeep(t *testing.T) {
	c := &recordingCenter{answer: func(context.Context) error {
		return fmt.Errorf("%w: Notifications are not allowed for this application", ErrNotAllowed)
	}}
	a, b := centerAdapter(t, c)
	for i := range 3 {
		if err := a.Notify(context.Background(), core.NotifyRequest{Title: "T", Body: fmt.Sprint(i)}); err != nil {
			t.Fatal(err)
		}
	}
	if b.count() != 3 || len(c.posted) != 0 {
		t.Fatalf("beeep got %d, the center %d; want 3 and 0", b.count(), len(c.posted))
	}
	if c.asked != 1 {
		t.Errorf("asked %d times after a refusal, want once", c.asked)
	}
	if got := a.NotificationBackend(); !strings.Contains(got, "beeep") || !strings.Contains(got, "not allowed") {
		t.Errorf("NotificationBackend = %q, want beeep and the reason", got)
	}
}

// TestUserCenterQuestionOpen: while the person has not answered macOS's
// question, each notification goes through beeep within authorizeWait and
// asks again; once allowed, the center carries them.
func TestUserCenterQuestionOpen(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		answered := make(chan struct{})
		c := &recordingCenter{answer: func(ctx context.Context) error {
			select {
			case <-answered:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		}}
		a, b := centerAdapter(t, c)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		start := time.Now()
		if err := a.Notify(ctx, core.NotifyRequest{Title: "T", Body: "1"}); err != nil {
			t.Fatal(err)
		}
		if waited := time.Since(start); waited != authorizeWait {
			t.Errorf("waited %v for the answer, want %v", waited, authorizeWait)
		}
		if b.count() != 1 {
			t.Fatalf("beeep got %d notifications, want 1", b.count())
		}
		close(answered)
		if err := a.Notify(context.Background(), core.NotifyRequest{Title: "T", Body: "2"}); err != nil {
			t.Fatal(err)
		}
		if c.asked != 2 || c.last(t).body != "2" || b.count() != 1 {
			t.Errorf("asked %d, beeep %d; want the second one asked again and posted to the center", c.asked, b.count())
		}
	})
}

func TestUserCenterAddFailureFallsBack(t *testing.T) {
	c := &recordingCenter{addErr: errors.New("UNErrorDomain: boom")}
	a, b := centerAdapter(t, c)
	clicked := false
	if err := a.NotifyClick(context.Background(), core.NotifyRequest{Title: "T", Body: "B"}, func() { clicked = true }); err != nil {
		t.Fatal(err)
	}
	if b.count() != 1 {
		t.Fatalf("beeep got %d, want the failed post there", b.count())
	}
	u := a.userCenter()
	if len(u.pending) != 0 {
		t.Errorf("the failed post's click is still remembered: %v", u.pending)
	}
	if clicked {
		t.Error("clicked without a click")
	}
}

func TestUserCenterClickRunsOnce(t *testing.T) {
	c := &recordingCenter{}
	a, _ := centerAdapter(t, c)
	clicks := make(chan string, 4)
	for _, name := range []string{"first", "second"} {
		err := a.NotifyClick(context.Background(), core.NotifyRequest{Title: name, Body: "b"}, func() { clicks <- name })
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := a.Notify(context.Background(), core.NotifyRequest{Title: "no click", Body: "b"}); err != nil {
		t.Fatal(err)
	}
	first, second, plain := c.posted[0].id, c.posted[1].id, c.posted[2].id
	c.clickFunc(second)
	c.clickFunc(second)
	c.clickFunc(plain)
	c.clickFunc("openworker-1-1") // another process's
	c.clickFunc(first)
	// Each click runs in a goroutine of its own: in any order.
	var got []string
	for range 2 {
		select {
		case name := <-clicks:
			got = append(got, name)
		case <-time.After(time.Minute):
			t.Fatalf("only %v of the two clicks ran", got)
		}
	}
	if slices.Sort(got); !slices.Equal(got, []string{"first", "second"}) {
		t.Fatalf("clicks ran %v, want first and second once each", got)
	}
	u := a.userCenter()
	if len(u.pending) != 0 {
		t.Errorf("clicked notifications are still remembered: %v", u.pending)
	}
	select {
	case got := <-clicks:
		t.Errorf("a click ran twice or for another notification: %q", got)
	default:
	}
}

func TestUserCenterForgetsOldestClicks(t *testing.T) {
	c := &recordingCenter{}
	a, _ := centerAdapter(t, c)
	ran := make(chan int, maxPendingClicks+1)
	for i := range maxPendingClicks + 1 {
		if err := a.NotifyClick(context.Background(), core.NotifyRequest{Title: "T", Body: "B"}, func() { ran <- i }); err != nil {
			t.Fatal(err)
		}
	}
	u := a.userCenter()
	if len(u.pending) != maxPendingClicks || len(u.order) != maxPendingClicks {
		t.Fatalf("%d clicks remembered (%d in order), want %d", len(u.pending), len(u.order), maxPendingClicks)
	}
	c.clickFunc(c.posted[0].id)
	c.clickFunc(c.posted[maxPendingClicks].id)
	if got := <-ran; got != maxPendingClicks {
		t.Errorf("ran the click of notification %d, want the newest (%d); the oldest is forgotten", got, maxPendingClicks)
	}
}

func TestBundleEligible(t *testing.T) {
	for _, tc := range []struct {
		path, id string
		want     string
	}{
		{"/Applications/OpenWorker.app", "dev.openworker.desktop", ""},
		{"/Applications/OpenWorker.APP/", "dev.openworker.desktop", ""},
		{"/usr/local/bin", "", "not started from an .app bundle"},
		{"/private/var/folders/x/T/go-build1/b001", "", "not started from an .app bundle"},
		{"/Applications/OpenWorker.app", "", "no CFBundleIdentifier"},
		{"", "", "not started from an .app bundle"},
	} {
		err := bundleEligible(tc.path, tc.id)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("bundleEligible(%q, %q) = %v, want nil", tc.path, tc.id, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, errors.ErrUnsupported)):
			t.Errorf("bundleEligible(%q, %q) = %v, want an ErrUnsupported saying %q", tc.path, tc.id, err, tc.want)
		}
	}
}

func TestNoUserCenterOffMac(t *testing.T) {
	if supported {
		t.Skip("macOS has the center: usercenter_darwin_test.go")
	}
	a := New(nil)
	if got := a.NotificationBackend(); got != "none (not macOS)" {
		t.Errorf("NotificationBackend = %q", got)
	}
	if _, err := openSystemCenter(); !errors.Is(err, errors.ErrUnsupported) {
		t.Errorf("openSystemCenter off macOS = %v, want ErrUnsupported", err)
	}
}

// probeEnv makes the test binary run userCenterProbe instead of its tests
// (TestMain; TestSystemCenterInBundle runs it inside an .app).
const probeEnv = "OPENWORKER_USERCENTER_PROBE"

// userCenterProbe opens the process's user notification center, asks for
// permission (bounded) and, when allowed, posts one notification,
// printing each step's outcome.
func userCenterProbe() int {
	c, err := openSystemCenter()
	if err != nil {
		fmt.Println("open:", err)
		return 0
	}
	fmt.Println("open: ok")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := c.Authorize(ctx); err != nil {
		fmt.Println("authorize:", err)
		return 0
	}
	fmt.Println("authorize: ok")
	if err := c.Add(ctx, "openworker-probe-1", "OpenWorker test", "From platform/darwin's tests"); err != nil {
		fmt.Println("add:", err)
		return 0
	}
	fmt.Println("add: ok")
	return 0
}
