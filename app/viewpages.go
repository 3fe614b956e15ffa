package app

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"strings"
	"sync"
)

// The documents of the app views the window shows, served from the app's
// own asset server (docs/mcp-apps.md#sandbox).
//
// A view cannot be a srcdoc (or data:) frame: WebKit gives such a frame the
// policy of the page that made it, and the window's own policy (no inline
// scripts) then stops every script of the view. A document that comes from
// a response has its own policy: the one in the document and in the
// response's header, built from what the view declared.
const (
	viewPagePath = "/openworker-view/"
	// maxViewPage bounds one document: the 2 MiB page (mcp.MaxUIResourceBytes)
	// and the host's policy and preamble.
	maxViewPage = 2<<20 + 64<<10
	// maxViewPages bounds what is kept for the window: the oldest
	// documents go first (a view shown again asks for a new address).
	maxViewPages = 32 << 20
	// viewPageSandbox is the sandbox every view document gets from its
	// response, whatever frame loads it: the frame's own sandbox attribute
	// (scripts only) is the first wall, this is the second, so the
	// document has an opaque origin even if something loaded it outside
	// that frame (a policy in a <meta> cannot say sandbox; a header can).
	viewPageSandbox = "sandbox allow-scripts"
)

type viewPage struct {
	doc []byte
	csp string
}

// viewPages holds the documents by random id, oldest first.
type viewPages struct {
	mu    sync.Mutex
	pages map[string]viewPage
	order []string
	bytes int
}

// add keeps doc (served with the policy csp) and returns its address.
func (v *viewPages) add(doc, csp string) (string, error) {
	if len(doc) > maxViewPage {
		return "", fmt.Errorf("the app view's document is %d bytes, over the %d-byte bound", len(doc), maxViewPage)
	}
	if strings.ContainsAny(csp, "\r\n") {
		return "", fmt.Errorf("the app view's policy has a line break")
	}
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	id := hex.EncodeToString(b[:])
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.pages == nil {
		v.pages = map[string]viewPage{}
	}
	for len(v.order) > 0 && v.bytes+len(doc) > maxViewPages {
		old := v.order[0]
		v.order = v.order[1:]
		v.bytes -= len(v.pages[old].doc)
		delete(v.pages, old)
	}
	v.pages[id] = viewPage{doc: []byte(doc), csp: csp}
	v.order = append(v.order, id)
	v.bytes += len(doc)
	return viewPagePath + id, nil
}

// middleware serves the documents under viewPagePath; every other request
// goes on to the window's assets.
func (v *viewPages) middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, ok := strings.CutPrefix(r.URL.Path, viewPagePath)
		if !ok {
			next.ServeHTTP(w, r)
			return
		}
		v.mu.Lock()
		p, found := v.pages[id]
		v.mu.Unlock()
		if !found {
			http.Error(w, "no such app view", http.StatusNotFound)
			return
		}
		h := w.Header()
		h.Set("Content-Type", "text/html; charset=utf-8")
		h.Set("Content-Security-Policy", p.csp+"; "+viewPageSandbox)
		h.Set("Cache-Control", "no-store")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		_, _ = w.Write(p.doc)
	})
}

// ServeViewPage keeps the document of an app view (lib/appview.ts srcdoc:
// the page with the host's policy first) and returns the address the
// view's frame loads, under the app's own origin ("/openworker-view/<id>";
// the frame's sandbox still gives it an opaque origin). csp is sent as the
// response's Content-Security-Policy too, with "sandbox allow-scripts"
// added. Errors: a document over 2 MiB and 64 KiB; a policy with a line
// break.
func (vw *Views) ServeViewPage(doc, csp string) (string, error) {
	return vw.pages.add(doc, csp)
}
