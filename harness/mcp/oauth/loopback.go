package oauth

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

// loopback is the redirect target of one sign-in (RFC 8252 §7.3): a
// listener on 127.0.0.1 only, on a port the system picks, serving
// /callback once; closed after the redirect came, or the wait ended.
type loopback struct {
	ln          net.Listener
	srv         *http.Server
	redirectURL string
	once        sync.Once
	got         chan callback
}

type callback struct {
	res *auth.AuthorizationResult
	err error
}

func listenLoopback() (*loopback, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("could not listen on 127.0.0.1 for the sign-in's redirect: %w", err)
	}
	lb := &loopback{ln: ln, got: make(chan callback, 1),
		redirectURL: fmt.Sprintf("http://127.0.0.1:%d/callback", ln.Addr().(*net.TCPAddr).Port)}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /callback", lb.serve)
	lb.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go lb.srv.Serve(ln)
	return lb, nil
}

// serve takes the first redirect; later ones are told the sign-in is over.
func (lb *loopback) serve(w http.ResponseWriter, r *http.Request) {
	first := false
	lb.once.Do(func() { first = true })
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if !first {
		w.WriteHeader(http.StatusGone)
		fmt.Fprint(w, page("This sign-in is over. Return to OpenWorker."))
		return
	}
	q := r.URL.Query()
	var cb callback
	if e := q.Get("error"); e != "" {
		msg := "the sign-in page answered " + e
		if d := q.Get("error_description"); d != "" {
			msg += ": " + d
		}
		cb.err = errors.New(msg)
		fmt.Fprint(w, page("The sign-in did not complete. Return to OpenWorker."))
	} else if q.Get("code") == "" {
		cb.err = errors.New("the redirect back from the sign-in page holds no code")
		fmt.Fprint(w, page("The sign-in did not complete. Return to OpenWorker."))
	} else {
		cb.res = &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}
		fmt.Fprint(w, page("Signed in. You can close this tab and return to OpenWorker."))
	}
	lb.got <- cb
}

func page(msg string) string {
	return "<!doctype html><meta charset=utf-8><title>OpenWorker</title><p>" + msg + "</p>"
}

// wait returns the redirect's code, state and iss, or an error when ctx
// ends or d passes first.
func (lb *loopback) wait(ctx context.Context, d time.Duration) (*auth.AuthorizationResult, error) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case cb := <-lb.got:
		return cb.res, cb.err
	case <-t.C:
		return nil, fmt.Errorf("the browser did not come back from the sign-in page within %v; sign in again", d)
	case <-ctx.Done():
		return nil, fmt.Errorf("the sign-in was cut short: %w", context.Cause(ctx))
	}
}

func (lb *loopback) close() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = lb.srv.Shutdown(ctx)
}
