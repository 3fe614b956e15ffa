package platform_test

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/openworker/desktop/platform"
	"github.com/openworker/desktop/platform/darwin"
	"github.com/openworker/desktop/platform/freedesktop"
	"github.com/openworker/desktop/platform/windows"
)

// Every adapter satisfies the interface on every OS.
var (
	_ platform.Adapter = (*darwin.Adapter)(nil)
	_ platform.Adapter = (*windows.Adapter)(nil)
	_ platform.Adapter = (*freedesktop.Adapter)(nil)
	_ platform.Adapter = platform.Unsupported{}
)

func TestDefault(t *testing.T) {
	a := platform.Default()
	var ok bool
	switch runtime.GOOS {
	case "darwin":
		_, ok = a.(*darwin.Adapter)
	case "windows":
		_, ok = a.(*windows.Adapter)
	default:
		_, ok = a.(*freedesktop.Adapter)
	}
	if !ok {
		t.Errorf("Default() on %s = %T", runtime.GOOS, a)
	}
}

func TestValidationBounds(t *testing.T) {
	tenKB := strings.Repeat("é", 5120) // 10 KB of two-byte runes
	ok := platform.AskRequest{Title: strings.Repeat("t", platform.MaxTitleBytes), Message: tenKB, Buttons: []string{"A", "B", "C"}, Default: "B", Cancel: "C", Timeout: platform.MaxTimeout}
	if err := ok.Validate(); err != nil {
		t.Errorf("a request at the bounds failed: %v", err)
	}
	n, err := ok.Normalize()
	if err != nil || n.Icon != platform.IconInfo || n.Default != "B" {
		t.Errorf("Normalize = %+v, %v", n, err)
	}
	over := ok
	over.Title += "t"
	if err := over.Validate(); !errors.Is(err, platform.ErrInvalid) {
		t.Errorf("title one byte over: %v", err)
	}
	over = ok
	over.Timeout = platform.MaxTimeout + time.Second
	if err := over.Validate(); !errors.Is(err, platform.ErrInvalid) {
		t.Errorf("timeout over: %v", err)
	}
	if err := (platform.NotifyRequest{}).Validate(); !errors.Is(err, platform.ErrInvalid) {
		t.Errorf("empty notification: %v", err)
	}
	if err := (platform.NotifyRequest{Title: "x", Body: tenKB}).Validate(); err != nil {
		t.Errorf("10 KB body: %v", err)
	}
}

func TestUnsupported(t *testing.T) {
	u := platform.Unsupported{Why: "no screen"}
	if err := u.Notify(context.Background(), platform.NotifyRequest{Title: "x"}); !errors.Is(err, errors.ErrUnsupported) || !strings.Contains(err.Error(), "no screen") {
		t.Errorf("Notify = %v", err)
	}
}
