package files

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// readMeta decodes file_read's structured content.
func readMeta(t *testing.T, res *sdk.CallToolResult) ReadResult {
	t.Helper()
	var m ReadResult
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("file_read structured content %s: %v", b, err)
	}
	return m
}

// body is the text file_read returned: its second text block.
func body(t *testing.T, res *sdk.CallToolResult) string {
	t.Helper()
	if len(res.Content) != 2 {
		t.Fatalf("file_read returned %d blocks, want a header and the text", len(res.Content))
	}
	return res.Content[1].(*sdk.TextContent).Text
}

func numbered(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

func TestReadText(t *testing.T) {
	cs, root := serveRoot(t)
	writeFile(t, filepath.Join(root, "notes", "todo.md"), numbered(10))
	res := ok(t, cs, "file_read", map[string]any{"path": "notes/todo.md"}, nil)
	if got := body(t, res); got != numbered(10) {
		t.Errorf("text = %q", got)
	}
	m := readMeta(t, res)
	if m.StartLine != 1 || m.EndLine != 10 || m.TotalLines != 10 || m.Truncated || m.NextStartLine != 0 || m.Kind != "text" {
		t.Errorf("meta = %+v", m)
	}
	if h := text(res); !strings.HasPrefix(h, "notes/todo.md (text/plain; charset=utf-8, 71 bytes): lines 1–10 of 10\n") {
		t.Errorf("header = %q", h)
	}
	// A range.
	res = ok(t, cs, "file_read", map[string]any{"path": "notes/todo.md", "start_line": 3, "end_line": 4}, nil)
	if got := body(t, res); got != "line 3\nline 4\n" {
		t.Errorf("lines 3-4 = %q", got)
	}
	if m := readMeta(t, res); m.StartLine != 3 || m.EndLine != 4 || m.TotalLines != 0 {
		t.Errorf("meta = %+v", m)
	}
	res = ok(t, cs, "file_read", map[string]any{"path": "notes/todo.md", "start_line": 9}, nil)
	if got := body(t, res); got != "line 9\nline 10\n" {
		t.Errorf("from 9 = %q", got)
	}
	refused(t, cs, "file_read", map[string]any{"path": "notes/todo.md", "start_line": 11}, "start_line 11 is past the end: the file has 10 lines")
	refused(t, cs, "file_read", map[string]any{"path": "notes/todo.md", "start_line": 5, "end_line": 2}, "start_line 5 is after end_line 2")
	refused(t, cs, "file_read", map[string]any{"path": "notes"}, `"notes" is a folder`, "files_list")
	refused(t, cs, "file_read", map[string]any{"path": "notes/missing.md"}, `"notes/missing.md" does not exist`, "files_list")
	// An empty file, and one without a final newline.
	writeFile(t, filepath.Join(root, "empty.txt"), "")
	if res := ok(t, cs, "file_read", map[string]any{"path": "empty.txt"}, nil); body(t, res) != "" || !strings.Contains(text(res), "empty") {
		t.Errorf("empty file: %q", text(res))
	}
	writeFile(t, filepath.Join(root, "two.txt"), "a\nb")
	if m := readMeta(t, ok(t, cs, "file_read", map[string]any{"path": "two.txt"}, nil)); m.TotalLines != 2 || m.EndLine != 2 {
		t.Errorf("two lines without a final newline: %+v", m)
	}
	// Bytes that are not UTF-8 (Latin-1) are shown as U+FFFD and said so.
	writeFile(t, filepath.Join(root, "latin1.txt"), "caf\xe9\n")
	res = ok(t, cs, "file_read", map[string]any{"path": "latin1.txt"}, nil)
	if got := body(t, res); got != "caf\uFFFD\n" || !readMeta(t, res).NotUTF8 || !strings.Contains(text(res), "not UTF-8") {
		t.Errorf("latin-1 file: %q", text(res))
	}
}

// A huge file is read in bounded pieces: whole lines up to MaxTextBytes,
// with where to go on; a line longer than the bound is cut.
func TestReadHugeFile(t *testing.T) {
	cs, root := serveRoot(t)
	big := numbered(60000) // about 600 KiB
	writeFile(t, filepath.Join(root, "big.log"), big)
	res := ok(t, cs, "file_read", map[string]any{"path": "big.log"}, nil)
	got, m := body(t, res), readMeta(t, res)
	if len(got) > MaxTextBytes || !m.Truncated || m.NextStartLine != m.EndLine+1 || !strings.HasPrefix(big, got) || !strings.HasSuffix(got, "\n") {
		t.Fatalf("first piece: %d bytes, meta %+v", len(got), m)
	}
	if !strings.Contains(text(res), fmt.Sprintf("call file_read with start_line %d", m.NextStartLine)) {
		t.Errorf("header does not say where to go on: %s", text(res)[:200])
	}
	// Reading on from there, piece by piece, gives the whole file.
	all := got
	for m.NextStartLine > 0 {
		res = ok(t, cs, "file_read", map[string]any{"path": "big.log", "start_line": m.NextStartLine}, nil)
		got, m = body(t, res), readMeta(t, res)
		all += got
	}
	if all != big || m.TotalLines != 60000 {
		t.Errorf("pieces joined = %d bytes of %d, total %d", len(all), len(big), m.TotalLines)
	}
	// One line of 1 MiB: cut at the bound, at a character.
	line := strings.Repeat("é", 512<<10) + "\nnext\n"
	writeFile(t, filepath.Join(root, "long-line.txt"), line)
	res = ok(t, cs, "file_read", map[string]any{"path": "long-line.txt"}, nil)
	got, m = body(t, res), readMeta(t, res)
	if len(got) > MaxTextBytes || len(got) < MaxTextBytes-1 || !strings.HasPrefix(line, got) || !m.Truncated || m.NextStartLine != 2 {
		t.Errorf("long line: %d bytes, meta %+v", len(got), m)
	}
	// 24 MiB of text: a read from far inside it stays bounded.
	huge := strings.Repeat("0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde\n", 384<<10)
	writeFile(t, filepath.Join(root, "huge.txt"), huge)
	res = ok(t, cs, "file_read", map[string]any{"path": "huge.txt", "start_line": 300000}, nil)
	if got, m := body(t, res), readMeta(t, res); len(got) > MaxTextBytes || m.StartLine != 300000 || !m.Truncated || m.Size != int64(len(huge)) {
		t.Errorf("huge file from line 300000: %d bytes, meta %+v", len(got), m)
	}
	// A 256 MiB sparse file, text at its start and then zeros, is binary:
	// refused with its size without reading it, and skipped by a search.
	f, err := os.Create(filepath.Join(root, "sparse.txt"))
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("header line\n")
	if err := f.Truncate(256 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	refused(t, cs, "file_read", map[string]any{"path": "sparse.txt"}, `"sparse.txt" is a binary file (application/octet-stream, 256.0 MiB)`)
	var sr SearchResult
	ok(t, cs, "files_search", map[string]any{"text": "header line"}, &sr)
	if len(sr.Matches) != 0 || sr.SkippedLarge != 3 || sr.FilesSearched != 1 {
		t.Errorf("search = %+v, want no match, 3 large files skipped (long-line.txt, huge.txt, sparse.txt), big.log searched", sr)
	}
}

var (
	pngBytes  = append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), bytes.Repeat([]byte{0}, 32)...)
	jpegBytes = append([]byte{0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10, 'J', 'F', 'I', 'F', 0}, bytes.Repeat([]byte{1}, 32)...)
)

func TestReadImagesAndBinary(t *testing.T) {
	cs, root := serveRoot(t)
	for name, data := range map[string][]byte{"photo.png": pngBytes, "photo.jpg": jpegBytes} {
		writeFile(t, filepath.Join(root, name), string(data))
		res := ok(t, cs, "file_read", map[string]any{"path": name}, nil)
		var img *sdk.ImageContent
		for _, c := range res.Content {
			if ic, isImg := c.(*sdk.ImageContent); isImg {
				img = ic
			}
		}
		if img == nil || !bytes.Equal(img.Data, data) || (img.MIMEType != "image/png" && img.MIMEType != "image/jpeg") {
			t.Errorf("%s: result %+v, want its bytes as an image", name, res.Content)
		}
		var info Info
		ok(t, cs, "file_info", map[string]any{"path": name}, &info)
		if info.Kind != "image" || info.MIMEType != img.MIMEType {
			t.Errorf("file_info(%s) = %+v", name, info)
		}
	}
	// An image over 5 MiB is refused, with its size.
	f, _ := os.Create(filepath.Join(root, "huge.png"))
	f.Write(pngBytes)
	f.Truncate(6 << 20)
	f.Close()
	refused(t, cs, "file_read", map[string]any{"path": "huge.png"}, `"huge.png" is an image (image/png) of 6.0 MiB, over the 5.0 MiB`)
	// Other images and binary files are refused with their type and size.
	cases := map[string]struct {
		data string
		want string
	}{
		"blob.bin":    {"\x00\x01\x02\x03binary\x00", `"blob.bin" is a binary file (application/octet-stream, 11 bytes)`},
		"doc.pdf":     {"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n", `"doc.pdf" is a binary file (application/pdf`},
		"archive.zip": {"PK\x03\x04" + strings.Repeat("\x00", 26), `"archive.zip" is a binary file (application/zip`},
		"utf16.txt":   {"\xff\xfeh\x00i\x00", `"utf16.txt" is a binary file (text/plain; charset=utf-16le`},
	}
	for name, c := range cases {
		writeFile(t, filepath.Join(root, name), c.data)
		refused(t, cs, "file_read", map[string]any{"path": name}, c.want, "file_read reads UTF-8 text and PNG or JPEG images only")
	}
	writeFile(t, filepath.Join(root, "anim.gif"), "GIF89a"+strings.Repeat("\x00", 40))
	refused(t, cs, "file_read", map[string]any{"path": "anim.gif"}, `"anim.gif" is an image of type image/gif (46 bytes), which cannot be shown: file_read shows PNG and JPEG images only`)
	// Binary files are not edited, and a search skips them.
	refused(t, cs, "file_edit", map[string]any{"path": "blob.bin", "old_text": "binary", "new_text": "x"}, `"blob.bin" is not UTF-8 text`, "nothing was changed")
	if got := readFile(t, filepath.Join(root, "blob.bin")); got != cases["blob.bin"].data {
		t.Errorf("blob.bin changed: %q", got)
	}
	var sr SearchResult
	ok(t, cs, "files_search", map[string]any{"text": "binary"}, &sr)
	if len(sr.Matches) != 0 || sr.SkippedBinary == 0 {
		t.Errorf("search = %+v, want binary files skipped", sr)
	}
}
