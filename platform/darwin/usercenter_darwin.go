//go:build darwin

package darwin

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"
	"github.com/ebitengine/purego/objc"
)

// The user notification center through purego's Objective-C runtime, without
// cgo (docs/platform.md#macos-user-notifications). Constants are Apple's
// (UserNotifications/UNNotificationSettings.h, UNUserNotificationCenter.h).
const (
	unAuthorizationSound = 1 << 1
	unAuthorizationAlert = 1 << 2
	unPresentSound       = 1 << 1
	unPresentList        = 1 << 3
	unPresentBanner      = 1 << 4
	unDefaultAction      = "com.apple.UNNotificationDefaultActionIdentifier"
	unErrorDomain        = "UNErrorDomain"

	delegateClassName      = "OpenWorkerUserNotificationDelegate"
	userNotificationsPath  = "/System/Library/Frameworks/UserNotifications.framework/UserNotifications"
	foundationPath         = "/System/Library/Frameworks/Foundation.framework/Foundation"
	autoreleasePoolClass   = "NSAutoreleasePool"
	notificationCenterType = "UNUserNotificationCenter"
)

var (
	selNew                = objc.RegisterName("new")
	selRelease            = objc.RegisterName("release")
	selDrain              = objc.RegisterName("drain")
	selUTF8String         = objc.RegisterName("UTF8String")
	selStringWithUTF8     = objc.RegisterName("stringWithUTF8String:")
	selMainBundle         = objc.RegisterName("mainBundle")
	selBundlePath         = objc.RegisterName("bundlePath")
	selBundleIdentifier   = objc.RegisterName("bundleIdentifier")
	selCurrentCenter      = objc.RegisterName("currentNotificationCenter")
	selSetDelegate        = objc.RegisterName("setDelegate:")
	selRequestAuth        = objc.RegisterName("requestAuthorizationWithOptions:completionHandler:")
	selAddRequest         = objc.RegisterName("addNotificationRequest:withCompletionHandler:")
	selSetTitle           = objc.RegisterName("setTitle:")
	selSetBody            = objc.RegisterName("setBody:")
	selSetSound           = objc.RegisterName("setSound:")
	selDefaultSound       = objc.RegisterName("defaultSound")
	selRequestWithID      = objc.RegisterName("requestWithIdentifier:content:trigger:")
	selLocalizedDesc      = objc.RegisterName("localizedDescription")
	selDomain             = objc.RegisterName("domain")
	selActionIdentifier   = objc.RegisterName("actionIdentifier")
	selNotification       = objc.RegisterName("notification")
	selRequest            = objc.RegisterName("request")
	selIdentifier         = objc.RegisterName("identifier")
	selWillPresent        = objc.RegisterName("userNotificationCenter:willPresentNotification:withCompletionHandler:")
	selDidReceiveResponse = objc.RegisterName("userNotificationCenter:didReceiveNotificationResponse:withCompletionHandler:")
)

// systemCenter is the process's UNUserNotificationCenter with a delegate of
// ours: it shows banners while the app is in front (macOS hides them
// otherwise) and reports clicks.
type systemCenter struct {
	center   objc.ID
	delegate objc.ID // kept for the life of the process: the center holds it weakly

	mu      sync.Mutex
	onClick func(id string)
}

var (
	systemCenterOnce sync.Once
	theSystemCenter  *systemCenter
	systemCenterErr  error
)

// openSystemCenter returns the process's user notification center, made
// once (a delegate class can be registered once per process), or why the
// process cannot have one.
func openSystemCenter() (UserCenter, error) {
	systemCenterOnce.Do(func() { theSystemCenter, systemCenterErr = newSystemCenter() })
	if systemCenterErr != nil {
		return nil, systemCenterErr
	}
	return theSystemCenter, nil
}

func newSystemCenter() (*systemCenter, error) {
	for _, lib := range []string{foundationPath, userNotificationsPath} {
		if _, err := purego.Dlopen(lib, purego.RTLD_GLOBAL|purego.RTLD_NOW); err != nil {
			return nil, fmt.Errorf("loading %s: %w", lib, err)
		}
	}
	c := &systemCenter{}
	var err error
	withPool(func() {
		bundle := objc.ID(objc.GetClass("NSBundle")).Send(selMainBundle)
		if err = bundleEligible(goString(bundle.Send(selBundlePath)), goString(bundle.Send(selBundleIdentifier))); err != nil {
			return
		}
		var protocols []*objc.Protocol
		if p := objc.GetProtocol("UNUserNotificationCenterDelegate"); p != nil {
			protocols = append(protocols, p)
		}
		var cls objc.Class
		cls, err = objc.RegisterClass(delegateClassName, objc.GetClass("NSObject"), protocols, nil, []objc.MethodDef{
			{Cmd: selWillPresent, Fn: c.willPresent},
			{Cmd: selDidReceiveResponse, Fn: c.didReceive},
		})
		if err != nil {
			return
		}
		c.delegate = objc.ID(cls).Send(selNew)
		c.center = objc.ID(objc.GetClass(notificationCenterType)).Send(selCurrentCenter)
		if c.center == 0 {
			err = errors.New("UNUserNotificationCenter is not available")
			return
		}
		c.center.Send(selSetDelegate, c.delegate)
	})
	if err != nil {
		return nil, err
	}
	return c, nil
}

// Authorize implements UserCenter.
func (c *systemCenter) Authorize(ctx context.Context) error {
	done := make(chan error, 1)
	block := objc.NewBlock(func(_ objc.Block, granted bool, nserr objc.ID) {
		switch {
		case nserr != 0:
			done <- fmt.Errorf("%w: %s", ErrNotAllowed, describe(nserr))
		case !granted:
			done <- fmt.Errorf("%w: notifications are off for OpenWorker in System Settings → Notifications", ErrNotAllowed)
		default:
			done <- nil
		}
	})
	// Our reference only: the center keeps its own copy until it answers.
	defer block.Release()
	withPool(func() { c.center.Send(selRequestAuth, uint(unAuthorizationAlert|unAuthorizationSound), block) })
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return fmt.Errorf("waiting for the answer to macOS's notification question: %w", ctx.Err())
	}
}

// Add implements UserCenter.
func (c *systemCenter) Add(ctx context.Context, id, title, body string) error {
	done := make(chan error, 1)
	block := objc.NewBlock(func(_ objc.Block, nserr objc.ID) {
		if nserr != 0 {
			done <- errors.New(describe(nserr))
			return
		}
		done <- nil
	})
	defer block.Release()
	withPool(func() {
		content := objc.ID(objc.GetClass("UNMutableNotificationContent")).Send(selNew)
		defer content.Send(selRelease)
		content.Send(selSetTitle, nsString(title))
		content.Send(selSetBody, nsString(body))
		content.Send(selSetSound, objc.ID(objc.GetClass("UNNotificationSound")).Send(selDefaultSound))
		req := objc.ID(objc.GetClass("UNNotificationRequest")).Send(selRequestWithID, nsString(id), content, objc.ID(0))
		c.center.Send(selAddRequest, req, block)
	})
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// OnClick implements UserCenter.
func (c *systemCenter) OnClick(fn func(id string)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.onClick = fn
}

// willPresent is the delegate's
// userNotificationCenter:willPresentNotification:withCompletionHandler::
// show the banner, list it and play the sound while the app is in front.
func (c *systemCenter) willPresent(_ objc.ID, _ objc.SEL, _, _ objc.ID, handler objc.Block) {
	callBlock(handler, unPresentBanner|unPresentList|unPresentSound)
}

// didReceive is the delegate's
// userNotificationCenter:didReceiveNotificationResponse:withCompletionHandler::
// a click on the notification itself runs the OnClick function with its id.
func (c *systemCenter) didReceive(_ objc.ID, _ objc.SEL, _, response objc.ID, handler objc.Block) {
	action := goString(response.Send(selActionIdentifier))
	id := goString(response.Send(selNotification).Send(selRequest).Send(selIdentifier))
	c.mu.Lock()
	fn := c.onClick
	c.mu.Unlock()
	if action == unDefaultAction && fn != nil {
		fn(id)
	}
	callBlock(handler)
}

// blockLiteral is the start of every Objective-C block (Apple's Block ABI,
// "Block_literal_1"): the function to call is its fourth field.
type blockLiteral struct {
	isa      uintptr
	flags    int32
	reserved int32
	invoke   uintptr
}

// callBlock calls a block the system handed us (purego's Block.Invoke
// knows only blocks made in Go) with uintptr-sized arguments.
func callBlock(b objc.Block, args ...uintptr) {
	if b == 0 {
		return
	}
	lit := *(**blockLiteral)(unsafe.Pointer(&b))
	purego.SyscallN(lit.invoke, append([]uintptr{uintptr(b)}, args...)...)
}

// withPool runs fn on one OS thread inside an autorelease pool.
func withPool(fn func()) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	pool := objc.ID(objc.GetClass(autoreleasePoolClass)).Send(selNew)
	defer pool.Send(selDrain)
	fn()
}

func nsString(s string) objc.ID {
	return objc.ID(objc.GetClass("NSString")).Send(selStringWithUTF8, s)
}

func goString(s objc.ID) string {
	if s == 0 {
		return ""
	}
	return objc.Send[string](s, selUTF8String)
}

// describe is an NSError's domain and localized description.
func describe(nserr objc.ID) string {
	domain := goString(nserr.Send(selDomain))
	msg := goString(nserr.Send(selLocalizedDesc))
	if domain == unErrorDomain {
		return msg
	}
	return domain + ": " + msg
}
