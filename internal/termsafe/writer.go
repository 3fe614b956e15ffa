package termsafe

import (
	"io"
	"sync"
	"unicode/utf8"
)

// Writer passes everything written through Text before it reaches w, so
// a stream printed in pieces (a model's reply as it arrives) cannot
// split an escape sequence or a multi-byte control character across two
// writes to get it through: an incomplete UTF-8 sequence at the end of a
// write waits for the next one. Safe for concurrent use.
type Writer struct {
	mu      sync.Mutex
	w       io.Writer
	pending []byte
}

// NewWriter returns a Writer onto w (w itself when it already is one).
func NewWriter(w io.Writer) io.Writer {
	if _, ok := w.(*Writer); ok || w == nil {
		return w
	}
	return &Writer{w: w}
}

// Unwrap returns the writer underneath.
func (t *Writer) Unwrap() io.Writer { return t.w }

// Write escapes p and writes it; it reports len(p) when the escaped text
// was written whole.
func (t *Writer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	buf := append(t.pending, p...)
	t.pending = nil
	cut := incompleteTail(buf)
	if cut < len(buf) {
		t.pending = append([]byte(nil), buf[cut:]...)
		buf = buf[:cut]
	}
	if _, err := io.WriteString(t.w, Text(string(buf))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes a held incomplete sequence (as \xNN escapes).
func (t *Writer) Flush() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.pending) == 0 {
		return nil
	}
	s := Text(string(t.pending))
	t.pending = nil
	_, err := io.WriteString(t.w, s)
	return err
}

// incompleteTail returns where a UTF-8 sequence that may still complete
// starts at the end of b (len(b) when none does).
func incompleteTail(b []byte) int {
	for back := 1; back <= 3 && back <= len(b); back++ {
		i := len(b) - back
		c := b[i]
		if c < 0x80 {
			return len(b)
		}
		if utf8.RuneStart(c) {
			need := 0
			switch {
			case c&0xe0 == 0xc0:
				need = 2
			case c&0xf0 == 0xe0:
				need = 3
			case c&0xf8 == 0xf0:
				need = 4
			}
			if need > back && !utf8.FullRune(b[i:]) {
				return i
			}
			return len(b)
		}
	}
	return len(b)
}
