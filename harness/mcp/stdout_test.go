package mcp

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
)

// repeatReader yields n copies of b, then EOF.
type repeatReader struct {
	b    byte
	left int64
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.left == 0 {
		return 0, io.EOF
	}
	n := int64(len(p))
	if n > r.left {
		n = r.left
	}
	for i := range p[:n] {
		p[i] = r.b
	}
	r.left -= n
	return int(n), nil
}

// A noise line of 256 MiB without a newline is read in chunks and dropped:
// the reader keeps its first noiseKeep bytes, never the line.
func TestLineReaderNoiseIsNotBuffered(t *testing.T) {
	const size = 256 << 20
	msg := `{"jsonrpc":"2.0","id":1,"result":{}}`
	r := io.MultiReader(&repeatReader{b: 'x', left: size}, strings.NewReader("\n\n  \r\n"+msg+"\r\n"+`[{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"2.0","method":"b"}]`))
	lr := newLineReader(r, maxMessageLine)
	partials := 0
	lr.partial = func(prefix []byte) {
		partials++
		if len(prefix) != noiseKeep {
			t.Errorf("partial prefix of %d bytes, want %d", len(prefix), noiseKeep)
		}
	}
	line, isJSON, n, err := lr.next()
	if err != nil || isJSON || n != size+1 || len(line) != noiseKeep || !lr.cut || partials != 1 {
		t.Fatalf("next = %d bytes kept, json %v, size %d, cut %v, partials %d, %v", len(line), isJSON, n, lr.cut, partials, err)
	}
	if c := cap(lr.buf); c > 2*noiseKeep {
		t.Errorf("the reader's buffer grew to %d bytes for a noise line", c)
	}
	line, isJSON, _, err = lr.next() // blank lines are skipped
	if err != nil || !isJSON || string(line) != msg {
		t.Fatalf("next = %q, json %v, %v; want the message without its CRLF", line, isJSON, err)
	}
	msgs, err := decodeLine(line)
	if err != nil || len(msgs) != 1 {
		t.Fatalf("decodeLine = %v, %v", msgs, err)
	}
	line, _, _, err = lr.next() // the last line has no newline
	if msgs, derr := decodeLine(line); err != nil || derr != nil || len(msgs) != 2 {
		t.Fatalf("batch = %q: %v, %v", line, err, derr)
	}
	if _, _, _, err := lr.next(); !errors.Is(err, io.EOF) {
		t.Errorf("after the last line: %v, want EOF", err)
	}
}

func TestLineReaderMessageBound(t *testing.T) {
	r := io.MultiReader(strings.NewReader(`{"jsonrpc":"2.0","params":"`), &repeatReader{b: 'z', left: 1 << 20})
	lr := newLineReader(r, 64<<10)
	if _, _, _, err := lr.next(); !errors.Is(err, errLineTooLong) {
		t.Fatalf("next = %v, want errLineTooLong", err)
	}
	if c := cap(lr.buf); c > 2*(64<<10)+readBuffer {
		t.Errorf("buffer grew to %d bytes past the 64 KB bound", c)
	}
}

// decodeLine takes JSON-RPC messages and batches only.
func TestDecodeLine(t *testing.T) {
	for _, bad := range []string{`{"level":"info","msg":"x"}`, `[INFO] ready`, `[]`, `[1,2]`, `{"jsonrpc":"1.0","id":1,"result":{}}`, `{"jsonrpc":"2.0"}`, `{"jsonrpc":"2.0","id":1,"result":{}} trailing`} {
		if msgs, err := decodeLine([]byte(bad)); err == nil {
			t.Errorf("decodeLine(%s) = %v, want an error (noise)", bad, msgs)
		}
	}
	if msgs, err := decodeLine(bytes.TrimSpace([]byte(`{"jsonrpc":"2.0","id":"a","method":"ping"}`))); err != nil || len(msgs) != 1 {
		t.Errorf("a request: %v, %v", msgs, err)
	}
}

// The start error's stdout part: the last lines, a banner still without
// its newline, what ended reading, secrets redacted.
func TestNoiseLogSuffix(t *testing.T) {
	n := newNoiseLog(slog.New(slog.DiscardHandler), "acer", newRedactor([]string{"hunter22"}).text)
	if got := n.suffix(); got != "" {
		t.Errorf("suffix of no noise = %q", got)
	}
	for i := range 10 {
		n.skip([]byte(fmt.Sprintf("line %d", i)), false, 7, errNotJSON)
	}
	n.partial([]byte("password=hunter22 and then"))
	n.fail(errLineTooLong)
	want := "; " + errLineTooLong.Error() + "; stdout had 11 lines, the last 9 that are not JSON-RPC: line 2 | line 3 | line 4 | line 5 | line 6 | line 7 | line 8 | line 9 | password=[redacted] and then… (no newline yet)"
	if got := n.suffix(); got != want {
		t.Errorf("suffix =\n%q, want\n%q", got, want)
	}
}
