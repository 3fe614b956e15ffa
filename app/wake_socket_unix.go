//go:build unix

package app

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"time"
)

// The first instance listens on a unix socket; a second start on the same
// config dir connects, writes its launch (a secondLaunch as one line of JSON,
// the shape of Wails' options.SecondInstanceData) and reads "shown\n" once
// the first instance was handed it and asked to show its window
// (docs/cli.md#the-desktop-app). Unlike Wails' single-instance lock it
// needs no D-Bus session bus, and it is per config dir. The socket is
// <config dir>/openworker.sock, or, when that path is too long for a unix
// socket address, openworker-<hash of the config dir>.sock in
// $XDG_RUNTIME_DIR (else the temp dir). Only the instance holding the lock
// file listens, so a socket file found then is stale and removed.

const (
	wakeSocketName = "openworker.sock"
	maxLaunch      = 1 << 20 // bytes of one launch line
	wakeReply      = "shown\n"
	wakeTimeout    = 5 * time.Second // one wake exchange, either side
	maxSocketPath  = 100             // below sun_path's 104 (macOS) and 108 (Linux) bytes
)

// wakeSocketPath is the socket of the instance using configDir.
func wakeSocketPath(configDir string) string {
	p := filepath.Join(configDir, wakeSocketName)
	if len(p) <= maxSocketPath {
		return p
	}
	sum := sha256.Sum256([]byte(configDir))
	dir := os.Getenv("XDG_RUNTIME_DIR")
	if dir == "" {
		dir = os.TempDir()
	}
	return filepath.Join(dir, "openworker-"+hex.EncodeToString(sum[:8])+".sock")
}

// wakeListener serves wake requests until closed.
type wakeListener struct {
	l    net.Listener
	path string
}

// listenWake listens on the socket of configDir and calls onLaunch with
// each launch a second start sends. The caller must hold the instance
// lock of configDir.
func listenWake(configDir string, onLaunch func(secondLaunch)) (io.Closer, error) {
	path := wakeSocketPath(configDir)
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("remove the stale socket %s: %w", path, err)
	}
	l, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", path, err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		l.Close()
		return nil, fmt.Errorf("restrict %s to this user: %w", path, err)
	}
	w := &wakeListener{l: l, path: path}
	go w.serve(onLaunch)
	return w, nil
}

func (w *wakeListener) serve(onLaunch func(secondLaunch)) {
	for {
		c, err := w.l.Accept()
		if err != nil {
			return // closed
		}
		go func() {
			defer c.Close()
			_ = c.SetDeadline(time.Now().Add(wakeTimeout))
			line, err := bufio.NewReader(io.LimitReader(c, maxLaunch)).ReadBytes('\n')
			var l secondLaunch
			if err != nil || json.Unmarshal(line, &l) != nil {
				return
			}
			onLaunch(l)
			_, _ = io.WriteString(c, wakeReply)
		}()
	}
}

// Close stops listening and removes the socket file.
func (w *wakeListener) Close() error {
	err := w.l.Close() // net's unix listener unlinks the file it created
	_ = os.Remove(w.path)
	return err
}

// wakeBySocket hands l to the instance using configDir, which shows its
// window; nil once it said it did.
func wakeBySocket(configDir string, l secondLaunch) error {
	path := wakeSocketPath(configDir)
	c, err := net.DialTimeout("unix", path, wakeTimeout)
	if err != nil {
		return err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(wakeTimeout))
	msg, err := json.Marshal(l)
	if err != nil {
		return err
	}
	if _, err := c.Write(append(msg, '\n')); err != nil {
		return err
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		return fmt.Errorf("no answer on %s: %w", path, err)
	}
	if line != wakeReply {
		return fmt.Errorf("unexpected answer %q on %s", line, path)
	}
	return nil
}
