//go:build e2e

package app

import (
	"net/http"
	"os"
	"strings"
	"sync"
	"time"
)

// e2ePaint is the newest paint timing the window reported (Painted).
var e2ePaint struct {
	mu sync.Mutex
	p  *WindowPaint
}

func notePainted(p WindowPaint) {
	e2ePaint.mu.Lock()
	e2ePaint.p = &p
	e2ePaint.mu.Unlock()
}

func paintRecord() *WindowPaint {
	e2ePaint.mu.Lock()
	defer e2ePaint.mu.Unlock()
	return e2ePaint.p
}

// e2eSlowAssets delays the window's script bundle (/assets/*.js) by
// OPENWORKER_E2E_SLOW_START (a duration) so the e2e can see the splash
// of index.html as a slow machine shows it (scripts/e2e/20-settings-sections.sh).
func e2eSlowAssets(next http.Handler) http.Handler {
	d, err := time.ParseDuration(os.Getenv("OPENWORKER_E2E_SLOW_START"))
	if err != nil || d <= 0 {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/assets/") && strings.HasSuffix(r.URL.Path, ".js") {
			time.Sleep(d)
		}
		next.ServeHTTP(w, r)
	})
}
