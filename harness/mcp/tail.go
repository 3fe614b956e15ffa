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
}

func newTailBuffer(limit int) *tailBuffer {
	if limit <= 0 {
		limit = DefaultStderrLimit
	}
	return &tailBuffer{limit: limit}
}

func (b *tailBuffer) Write(p []byte) (int, error) {
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
