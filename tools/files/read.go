package files

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// ReadInput is the argument of file_read.
type ReadInput struct {
	Path      string `json:"path" jsonschema:"the file, relative to the working folder or absolute inside a root"`
	StartLine int    `json:"start_line,omitempty" jsonschema:"first line to return, counting from 1; default 1"`
	EndLine   int    `json:"end_line,omitempty" jsonschema:"last line to return; default: as many whole lines as fit in 240 KiB"`
}

// ReadResult is the structured content of file_read: what was read. The
// text itself is the result's second text block (the first is a header
// line for the model); an image is its image block.
type ReadResult struct {
	Path          string `json:"path"`
	Size          int64  `json:"size"`
	MIMEType      string `json:"mime_type"`
	Kind          string `json:"kind"` // "text" or "image"
	StartLine     int    `json:"start_line,omitempty"`
	EndLine       int    `json:"end_line,omitempty"`        // 0 when no line was returned
	TotalLines    int    `json:"total_lines,omitempty"`     // when the read reached the end
	NextStartLine int    `json:"next_start_line,omitempty"` // when more text follows
	Truncated     bool   `json:"truncated,omitempty"`       // the bound cut the read
	NotUTF8       bool   `json:"not_utf8,omitempty"`        // bytes that are not UTF-8 were shown as U+FFFD
}

func (s *server) addReadTool(srv *sdk.Server) {
	sdk.AddTool(srv, &sdk.Tool{
		Name:  "file_read",
		Title: "Read a file",
		Description: "Reads a text file, whole or a range of lines (start_line, end_line), up to 240 KiB of whole lines per call; " +
			"the header line says which lines came back and where to go on. A PNG or JPEG image (up to 5 MiB) comes back as an image. " +
			"Other binary files are refused with their type and size.",
		Annotations: readOnly(),
	}, func(ctx context.Context, req *sdk.CallToolRequest, in ReadInput) (*sdk.CallToolResult, any, error) {
		roots, ask, err := s.folders(req)
		if ask != nil || err != nil {
			return ask, nil, err
		}
		p, err := locate(roots, "path", in.Path)
		if err != nil {
			return nil, nil, err
		}
		res, err := read(ctx, p, in)
		return res, nil, err
	})
}

// openRegular opens the regular file p for reading: a folder, a device, a
// socket or a pipe is refused, checked again on the open file (so a name
// swapped for a pipe in between does not block the read).
func openRegular(r *os.Root, p place) (*os.File, error) {
	st, err := r.Stat(p.native())
	if err != nil {
		return nil, failure(p, err)
	}
	if st.IsDir() {
		return nil, fmt.Errorf("%q is a folder, not a file: list it with files_list", p.shown())
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%q is not a regular file (%s): this server reads only files", p.shown(), typeName(st.Mode().Type()))
	}
	f, err := r.OpenFile(p.native(), os.O_RDONLY|openNonblock, 0)
	if err != nil {
		return nil, failure(p, err)
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%q changed into something that is not a regular file while it was opened: try again", p.shown())
	}
	return f, nil
}

func read(ctx context.Context, p place, in ReadInput) (*sdk.CallToolResult, error) {
	if err := checkLineRange(in); err != nil {
		return nil, err
	}
	r, err := p.open()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	f, err := openRegular(r, p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, failure(p, err)
	}
	br := bufio.NewReaderSize(f, 64<<10)
	head, _ := br.Peek(sniffBytes)
	kind, mime := kindOf(head)
	meta := ReadResult{Path: p.shown(), Size: st.Size(), MIMEType: mime, Kind: kind}
	if kind == "image" {
		return readImage(p, br, meta)
	}
	if err := checkText(p, meta); err != nil {
		return nil, err
	}
	text, err := readLines(ctx, br, in, &meta)
	if err != nil {
		return nil, fmt.Errorf("%q: %w", p.shown(), err)
	}
	if !utf8.ValidString(text) {
		text = strings.ToValidUTF8(text, "\uFFFD")
		meta.NotUTF8 = true
	}
	return &sdk.CallToolResult{
		Content:           []sdk.Content{&sdk.TextContent{Text: header(meta)}, &sdk.TextContent{Text: text}},
		StructuredContent: meta,
	}, nil
}

// checkLineRange fails for a line range that counts from 0 or ends
// before it starts.
func checkLineRange(in ReadInput) error {
	if in.StartLine < 0 || in.EndLine < 0 {
		return fmt.Errorf("start_line and end_line count from 1: give 1 or more, or leave them out")
	}
	if in.EndLine > 0 && in.StartLine > in.EndLine {
		return fmt.Errorf("start_line %d is after end_line %d: give a range such as start_line %d, end_line %d", in.StartLine, in.EndLine, in.EndLine, in.StartLine)
	}
	return nil
}

// readImage returns the PNG or JPEG image p, of at most MaxImageBytes,
// as an image block.
func readImage(p place, br *bufio.Reader, meta ReadResult) (*sdk.CallToolResult, error) {
	if meta.Size > MaxImageBytes {
		return nil, fmt.Errorf("%q is an image (%s) of %s, over the %s that can be shown: ask the person for a smaller copy", p.shown(), meta.MIMEType, sizeText(meta.Size), sizeText(MaxImageBytes))
	}
	data, err := io.ReadAll(io.LimitReader(br, MaxImageBytes+1))
	if err != nil {
		return nil, failure(p, err)
	}
	if len(data) > MaxImageBytes {
		return nil, fmt.Errorf("%q grew over %s while it was read: try again", p.shown(), sizeText(MaxImageBytes))
	}
	meta.Size = int64(len(data))
	return &sdk.CallToolResult{
		Content: []sdk.Content{
			&sdk.TextContent{Text: fmt.Sprintf("%s: %s image, %s", p.shown(), meta.MIMEType, sizeText(int64(len(data))))},
			&sdk.ImageContent{MIMEType: meta.MIMEType, Data: data},
		},
		StructuredContent: meta,
	}, nil
}

// checkText fails unless the file described by meta is text: other
// images and binary files are not read.
func checkText(p place, meta ReadResult) error {
	switch {
	case strings.HasPrefix(meta.MIMEType, "image/"):
		return fmt.Errorf("%q is an image of type %s (%s), which cannot be shown: file_read shows PNG and JPEG images only", p.shown(), meta.MIMEType, sizeText(meta.Size))
	case meta.Kind != "text":
		return fmt.Errorf("%q is a binary file (%s, %s): file_read reads UTF-8 text and PNG or JPEG images only", p.shown(), meta.MIMEType, sizeText(meta.Size))
	}
	return nil
}

// readLines returns the lines of in's range from br, whole lines up to
// MaxTextBytes (a first line longer than that is cut at a character),
// and fills meta's line fields.
func readLines(ctx context.Context, br *bufio.Reader, in ReadInput, meta *ReadResult) (string, error) {
	start := max(in.StartLine, 1)
	if err := skipLines(ctx, br, in.StartLine, start); err != nil {
		return "", err
	}
	meta.StartLine = start
	return takeLines(br, start, in.EndLine, meta)
}

// skipLines reads past the lines before line start, failing when the
// file ends first; startLine is the line asked for, for the error.
func skipLines(ctx context.Context, br *bufio.Reader, startLine, start int) error {
	line := 1
	pastEnd := func() error {
		return fmt.Errorf("start_line %d is past the end: the file has %d lines; give a smaller start_line", startLine, line-1)
	}
	for scanned := 0; line < start; line++ {
		_, n, err := nextLine(br, 0)
		if err != nil && err != io.EOF {
			return err
		}
		if n == 0 {
			return pastEnd()
		}
		if scanned += n; scanned > 1<<20 { // a long skip stops when the call is cancelled
			scanned = 0
			if err := ctx.Err(); err != nil {
				return err
			}
		}
	}
	if _, err := br.Peek(1); err == io.EOF && start > 1 {
		return pastEnd()
	}
	return nil
}

// takeLines returns the lines from line to endLine (0: to the end) of
// br within MaxTextBytes and fills meta's end, total and next fields.
func takeLines(br *bufio.Reader, line, endLine int, meta *ReadResult) (string, error) {
	var b strings.Builder
	for endLine == 0 || line <= endLine {
		room := MaxTextBytes - b.Len()
		if _, err := br.Peek(1); err == io.EOF {
			meta.TotalLines = line - 1
			break
		}
		kept, _, err := nextLine(br, room+1)
		if err != nil && err != io.EOF {
			return "", err
		}
		if len(kept) > room {
			overflow(&b, kept, room, line, err == io.EOF, meta)
			return b.String(), nil
		}
		b.Write(kept)
		meta.EndLine = line
		if err == io.EOF {
			meta.TotalLines = line
			return b.String(), nil
		}
		line++
	}
	if endLine > 0 && meta.TotalLines == 0 {
		if _, err := br.Peek(1); err == io.EOF {
			meta.TotalLines = meta.EndLine
		}
	}
	return b.String(), nil
}

// overflow ends a read at line, which does not fit in the room left in
// b: it starts the next read, or when it is the first line, is cut at a
// character; last tells that it is the file's last line.
func overflow(b *strings.Builder, kept []byte, room, line int, last bool, meta *ReadResult) {
	meta.Truncated = true
	if b.Len() > 0 {
		meta.NextStartLine = line
		return
	}
	cut := room
	for cut > 0 && !utf8.RuneStart(kept[cut]) {
		cut--
	}
	b.Write(kept[:cut])
	meta.EndLine = line
	if !last {
		meta.NextStartLine = line + 1
	}
}

// nextLine reads one line, with its "\n", from br: it keeps at most keep
// bytes of it and returns the line's length. n is 0 only at the end.
func nextLine(br *bufio.Reader, keep int) (kept []byte, n int, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		n += len(chunk)
		if room := keep - len(kept); room > 0 {
			kept = append(kept, chunk[:min(room, len(chunk))]...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return kept, n, err
	}
}

// header is the first text block of a text read: which lines came back
// and how to go on.
func header(m ReadResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s, %s): ", m.Path, m.MIMEType, sizeText(m.Size))
	switch {
	case m.EndLine == 0:
		b.WriteString("empty")
	case m.TotalLines > 0:
		fmt.Fprintf(&b, "lines %d–%d of %d", m.StartLine, m.EndLine, m.TotalLines)
	default:
		fmt.Fprintf(&b, "lines %d–%d", m.StartLine, m.EndLine)
	}
	if m.Truncated {
		fmt.Fprintf(&b, "; cut at the %s bound", sizeText(MaxTextBytes))
	}
	if m.NextStartLine > 0 {
		fmt.Fprintf(&b, "; more follows: call file_read with start_line %d", m.NextStartLine)
	}
	if m.NotUTF8 {
		b.WriteString("; not UTF-8: the bytes that are not are shown as \uFFFD, so do not edit it with file_edit")
	}
	return b.String()
}

// sizeText writes n bytes for people: "812 bytes", "4.2 KiB", "3.0 MiB".
func sizeText(n int64) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d bytes", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	case n < 1<<30:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
}
