package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// A stdio provider's stdout (docs/mcp.md#noise-on-stdout). MCP servers send
// one JSON-RPC message per line; many also print a banner or a stray log
// line there. A line that does not decode as a JSON-RPC message (or a batch
// of them) is skipped and logged; only a line that looks like JSON ('{' or
// '[' first) is buffered, up to maxMessageLine. Any other line is read in
// bounded chunks and dropped as it arrives, whatever its length.

// maxMessageLine bounds a line of stdout that may be a JSON-RPC message:
// the SDK's own bound (sdk.DefaultMaxLineLength, 16 MiB). A longer one ends
// the connection.
const maxMessageLine = sdk.DefaultMaxLineLength

// noiseKeep is how many bytes of a skipped line are kept for the log and
// the start error; the rest of the line is dropped unread into memory.
const noiseKeep = 256

// noiseTail is how many skipped lines a start error quotes (the latest).
const noiseTail = 8

// noiseLogEach: the first noiseLogEach skipped lines are logged one by one,
// later ones once per noiseLogEvery, with the count, so a server that logs
// to stdout cannot flood the host's log.
const (
	noiseLogEach  = 10
	noiseLogEvery = 100
)

// readBuffer is the read size of the stdout reader; a line longer than this
// is read in chunks of it.
const readBuffer = 64 << 10

// errLineTooLong ends a connection whose server sent a line that looks like
// a JSON-RPC message and is longer than maxMessageLine.
var errLineTooLong = fmt.Errorf("a line on stdout that looks like JSON-RPC is longer than %d MiB", maxMessageLine>>20)

// lineReader splits a provider's stdout into lines. It holds at most
// maxMessageLine bytes of one line, and noiseKeep bytes of a line that
// cannot be JSON.
type lineReader struct {
	r       *bufio.Reader
	max     int
	partial func(prefix []byte) // told once per noise line that runs past one read buffer
	buf     []byte
	cut     bool  // the last noise line was longer than what buf kept
	eof     error // returned after the last line
}

func newLineReader(r io.Reader, max int) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, readBuffer), max: max}
}

// next returns the next non-blank line without its line ending. json
// reports whether it starts like JSON ('{' or '['), in which case line is
// all of it; otherwise line is its first noiseKeep bytes and size its full
// length. The slice is valid until the next call. At the end of the stream
// it returns io.EOF (or the read error); a line longer than the bound that
// starts like JSON returns errLineTooLong.
func (lr *lineReader) next() (line []byte, json bool, size int64, err error) {
	if lr.eof != nil {
		return nil, false, 0, lr.eof
	}
	lr.buf, lr.cut = lr.buf[:0], false
	decided, reported := false, false
	for {
		chunk, rerr := lr.r.ReadSlice('\n')
		size += int64(len(chunk))
		if !decided {
			chunk, decided, json = lineStart(chunk)
		}
		if decided {
			if err := lr.take(chunk, json); err != nil {
				return nil, false, 0, err
			}
		}
		switch {
		case rerr == nil:
			if !decided { // a blank line
				size = 0
				continue
			}
			return bytes.TrimRight(lr.buf, "\r\n"), json, size, nil
		case errors.Is(rerr, bufio.ErrBufferFull):
			if decided && !json && !reported && lr.partial != nil {
				reported = true
				lr.partial(lr.buf)
			}
			continue
		}
		// The stream ended: a last line without a newline still counts.
		lr.eof = rerr
		if decided {
			return bytes.TrimRight(lr.buf, "\r\n"), json, size, nil
		}
		return nil, false, 0, rerr
	}
}

// lineStart is chunk without the blanks (and byte order mark) before a
// line's first character; decided is false while the line is blank so
// far, and json says whether it starts like JSON ('{' or '[').
func lineStart(chunk []byte) (rest []byte, decided, json bool) {
	rest = bytes.TrimLeft(chunk, " \t\r\n\ufeff")
	if len(rest) == 0 {
		return rest, false, false
	}
	return rest, true, rest[0] == '{' || rest[0] == '['
}

// take keeps chunk of the current line: all of a line that starts like
// JSON, up to the bound (errLineTooLong past it, which ends the stream),
// and the first noiseKeep bytes of noise (cut when more followed).
func (lr *lineReader) take(chunk []byte, json bool) error {
	if json {
		if len(lr.buf)+len(chunk) > lr.max {
			lr.eof = errLineTooLong
			return errLineTooLong
		}
		lr.buf = append(lr.buf, chunk...)
		return nil
	}
	keep := min(len(chunk), noiseKeep-len(lr.buf))
	lr.buf = append(lr.buf, chunk[:keep]...)
	if len(bytes.TrimRight(chunk[keep:], "\r\n")) > 0 {
		lr.cut = true
	}
	return nil
}

// decodeLine decodes one line of stdout: a JSON-RPC message or a non-empty
// batch (array) of them. Anything else is an error: the line is noise.
func decodeLine(line []byte) ([]jsonrpc.Message, error) {
	if len(line) > 0 && line[0] == '[' {
		var raw []json.RawMessage
		if err := json.Unmarshal(line, &raw); err != nil {
			return nil, err
		}
		if len(raw) == 0 {
			return nil, errors.New("an empty batch")
		}
		msgs := make([]jsonrpc.Message, 0, len(raw))
		for _, r := range raw {
			m, err := jsonrpc.DecodeMessage(r)
			if err != nil {
				return nil, err
			}
			msgs = append(msgs, m)
		}
		return msgs, nil
	}
	if !json.Valid(line) { // the SDK's decoder accepts trailing text
		return nil, errors.New("not one JSON value")
	}
	m, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		return nil, err
	}
	return []jsonrpc.Message{m}, nil
}

// noiseLog records the lines a provider printed on stdout that were not
// JSON-RPC: it logs them (bounded, see noiseLogEach) with the provider's
// namespace, and keeps the last noiseTail of them for a start error.
// Secrets are redacted before either. Safe for concurrent use.
type noiseLog struct {
	logger *slog.Logger
	ns     string
	redact func(string) string

	mu      sync.Mutex
	count   int64
	last    []string // ring of the latest noiseTail lines, oldest first
	pending string   // the start of a long line still being read, if any
	err     error    // what ended reading stdout, when it was not its end
}

// fail records (and logs) what ended reading stdout early: a line too long.
func (n *noiseLog) fail(err error) {
	n.mu.Lock()
	n.err = err
	n.mu.Unlock()
	n.logger.Error("mcp provider connection ended", "namespace", n.ns, "err", err)
}

func newNoiseLog(logger *slog.Logger, ns string, redact func(string) string) *noiseLog {
	return &noiseLog{logger: logger, ns: ns, redact: redact}
}

// skip records one skipped line: its first bytes (line), whether more of
// it was dropped (cut), its full length and why it is not JSON-RPC.
func (n *noiseLog) skip(line []byte, cut bool, size int64, why error) {
	if len(line) > noiseKeep {
		line, cut = line[:noiseKeep], true
	}
	text := n.text(line, cut)
	n.mu.Lock()
	n.pending = ""
	n.count++
	count := n.count
	if len(n.last) == noiseTail {
		n.last = append(n.last[:0], n.last[1:]...)
	}
	n.last = append(n.last, text)
	n.mu.Unlock()
	if count <= noiseLogEach || count%noiseLogEvery == 0 {
		n.logger.Warn("mcp provider printed a line on stdout that is not JSON-RPC; skipped it",
			"namespace", n.ns, "line", text, "bytes", size, "reason", why.Error(), "skipped_lines", count)
	}
}

// partial notes the start of a noise line that has not ended yet (a long
// banner without a newline), so a start that times out can quote it.
func (n *noiseLog) partial(prefix []byte) {
	text := n.text(prefix, true)
	n.mu.Lock()
	n.pending = text
	n.mu.Unlock()
}

// text is the loggable form of a line's kept start: valid UTF-8, "…" when
// cut, secrets redacted.
func (n *noiseLog) text(line []byte, cut bool) string {
	s := string(line)
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	if cut {
		s += "…"
	}
	return n.redact(s)
}

// suffix formats the latest skipped lines for an error message, or ""
// when there were none.
func (n *noiseLog) suffix() string {
	if n == nil {
		return ""
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	var fail string
	if n.err != nil {
		fail = "; " + n.err.Error()
	}
	lines := n.last
	if n.pending != "" {
		lines = append(lines[:len(lines):len(lines)], n.pending+" (no newline yet)")
	}
	if len(lines) == 0 {
		return fail
	}
	what := fmt.Sprintf("%d line(s)", len(lines))
	if total := n.count + int64(len(lines)-len(n.last)); total > int64(len(lines)) {
		what = fmt.Sprintf("%d lines, the last %d", total, len(lines))
	}
	return fmt.Sprintf("%s; stdout had %s that are not JSON-RPC: %s", fail, what, strings.Join(lines, " | "))
}
