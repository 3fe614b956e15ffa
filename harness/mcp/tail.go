package mcp

import (
	"strings"
	"sync"
	"unicode/utf8"
)

// DefaultStderrLimit is how many bytes of a stdio provider's stderr are kept
// when Options.StderrLimit is zero.
const DefaultStderrLimit = 64 << 10

// tailBuffer is an io.Writer that keeps only the last limit bytes written to
// it. It never blocks and never grows past limit, so a provider's stderr can
// be drained continuously however much it writes. Safe for concurrent use.
type tailBuffer struct {
	mu      sync.Mutex
	limit   int
	buf     []byte // ring of at most limit bytes
	start   int    // index of the oldest byte once the ring is full
	total   int64  // bytes ever written
	dropped bool
	waits   []tailWait // see when
}

// tailWait is a wait for text to appear in the tail.
type tailWait struct {
	text string
	done chan struct{}
}

func newTailBuffer(limit int) *tailBuffer {
	if limit <= 0 {
		limit = DefaultStderrLimit
	}
	return &tailBuffer{limit: limit}
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	n, err := b.write(p)
	b.wake()
	return n, err
}

// when returns a channel closed once the kept tail contains text (at once
// if it does now), for a test that waits for what a provider printed.
func (b *tailBuffer) when(text string) <-chan struct{} {
	b.mu.Lock()
	w := tailWait{text: text, done: make(chan struct{})}
	b.waits = append(b.waits, w)
	b.mu.Unlock()
	b.wake()
	return w.done
}

// wake closes the waits whose text the tail now holds.
func (b *tailBuffer) wake() {
	b.mu.Lock()
	waiting := len(b.waits) > 0
	b.mu.Unlock()
	if !waiting {
		return
	}
	tail := b.String()
	b.mu.Lock()
	defer b.mu.Unlock()
	kept := b.waits[:0]
	for _, w := range b.waits {
		if strings.Contains(tail, w.text) {
			close(w.done)
		} else {
			kept = append(kept, w)
		}
	}
	b.waits = kept
}

func (b *tailBuffer) write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := len(p)
	b.total += int64(n)
	b.dropped = b.total > int64(b.limit)
	if n >= b.limit {
		b.buf = append(b.buf[:0], p[n-b.limit:]...)
		b.start = 0
		return n, nil
	}
	if room := b.limit - len(b.buf); room > 0 {
		k := min(room, len(p))
		b.buf = append(b.buf, p[:k]...)
		p = p[k:]
	}
	for len(p) > 0 { // the ring is full: overwrite the oldest bytes
		k := copy(b.buf[b.start:], p)
		p = p[k:]
		b.start = (b.start + k) % b.limit
	}
	return n, nil
}

// String returns the kept tail, starting at a line boundary when earlier
// output was dropped (so the first line is never a fragment), with invalid
// UTF-8 replaced.
func (b *tailBuffer) String() string {
	b.mu.Lock()
	out := make([]byte, 0, len(b.buf))
	out = append(out, b.buf[b.start:]...)
	out = append(out, b.buf[:b.start]...)
	dropped := b.dropped
	b.mu.Unlock()
	s := string(out)
	if dropped {
		if i := strings.IndexByte(s, '\n'); i >= 0 && i < len(s)-1 {
			s = s[i+1:]
		}
		s = "…" + s
	}
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	return s
}

// Total reports how many bytes were written in all.
func (b *tailBuffer) Total() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.total
}
