package archive

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"errors"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// entry is one entry of a zip a test writes: data, or (when zeros > 0)
// that many zero bytes deflated without holding them in memory; size, when
// not -1, is the uncompressed size the headers declare instead of the real
// one (a lying header).
type entry struct {
	name  string
	data  string
	mode  fs.FileMode
	zeros int64
	size  int64
}

func file(name, data string) entry { return entry{name: name, data: data, mode: 0o644, size: -1} }

// writeZip builds a zip of es with archive/zip.
func writeZip(t *testing.T, es ...entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range es {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate}
		h.SetMode(e.mode)
		if e.zeros == 0 && e.size == -1 {
			w, err := zw.CreateHeader(h)
			if err != nil {
				t.Fatal(err)
			}
			w.Write([]byte(e.data))
			continue
		}
		raw, crc, n := deflated(t, e)
		h.CRC32, h.CompressedSize64, h.UncompressedSize64 = crc, uint64(len(raw)), uint64(n)
		if e.size >= 0 {
			h.UncompressedSize64 = uint64(e.size)
		}
		w, err := zw.CreateRaw(h)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(raw)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// deflated returns e's content as a raw deflate stream, its CRC-32 and
// length. Zeros are made from one deflated MiB repeated: each chunk is a
// run of sync-flushed blocks that refer only inside itself, and a final
// empty block ends the stream; so a GiB costs a MiB of memory.
func deflated(t *testing.T, e entry) ([]byte, uint32, int64) {
	t.Helper()
	var out bytes.Buffer
	if e.zeros == 0 {
		fw, _ := flate.NewWriter(&out, flate.BestCompression)
		fw.Write([]byte(e.data))
		fw.Close()
		return out.Bytes(), crc32.ChecksumIEEE([]byte(e.data)), int64(len(e.data))
	}
	const chunk = 1 << 20
	zero := make([]byte, chunk)
	var c bytes.Buffer
	fw, _ := flate.NewWriter(&c, flate.BestCompression)
	fw.Write(zero)
	fw.Flush()
	if e.zeros%chunk != 0 {
		t.Fatalf("zeros must be whole MiB, not %d", e.zeros)
	}
	var crc uint32
	for i := int64(0); i < e.zeros/chunk; i++ {
		out.Write(c.Bytes())
		crc = crc32.Update(crc, crc32.IEEETable, zero)
	}
	out.Write([]byte{0x03, 0x00}) // a final, empty fixed-Huffman block
	return out.Bytes(), crc, e.zeros
}

// save writes b as a .mcpb file in a new folder and returns its path.
func save(t *testing.T, b []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "ext.mcpb")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// listTree returns every path under root, relative, slash-separated.
func listTree(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		if p != root {
			rel, _ := filepath.Rel(root, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	return out
}

// wantRefusal checks that err is an *Error of kind naming file and entry
// (entry "" for the whole file) and a fix.
func wantRefusal(t *testing.T, err error, kind error, file, entry string) {
	t.Helper()
	var ae *Error
	if !errors.As(err, &ae) {
		t.Fatalf("error = %v (%T), want an *archive.Error of kind %v", err, err, kind)
	}
	if !errors.Is(err, kind) {
		t.Errorf("error %q is of kind %v, want %v", err, ae.Kind, kind)
	}
	if ae.File != file || ae.Entry != entry {
		t.Errorf("error names file %q entry %q, want %q %q", ae.File, ae.Entry, file, entry)
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, file+": ") || (entry != "" && !strings.Contains(msg, strconv.Quote(entry))) || ae.Fix == "" {
		t.Errorf("message %q does not name %s and %q with a fix", msg, file, entry)
	}
}
