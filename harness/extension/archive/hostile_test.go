package archive

import (
	"encoding/binary"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

const manifest = `{"manifest_version":"0.3","name":"x","version":"1.0.0"}`

// TestHostileArchives opens and unpacks archives written to attack the
// unpacker: each is refused with an *Error naming the file and the entry,
// and nothing is written: the folder of dest stays empty (no temporary
// folder is left) and nothing appears beside the archive.
func TestHostileArchives(t *testing.T) {
	many := []entry{file("manifest.json", manifest)}
	for i := range MaxEntries {
		many = append(many, file(fmt.Sprintf("f/%05d", i), ""))
	}
	pipe := file("fifo", "")
	pipe.mode = fs.ModeNamedPipe | 0o644
	link := file("server/index.js", "/etc/passwd")
	link.mode = fs.ModeSymlink | 0o777
	cases := []struct {
		name    string
		entries []entry
		kind    error
		entry   string
	}{
		{"zip-slip", []entry{file("manifest.json", manifest), file("../../x", "pwned")}, ErrUnsafePath, "../../x"},
		{"zip-slip inside", []entry{file("a/../../x", "pwned")}, ErrUnsafePath, "a/../../x"},
		{"absolute path", []entry{file("/tmp/x", "pwned")}, ErrUnsafePath, "/tmp/x"},
		{"drive letter", []entry{file("C:/Windows/x", "pwned")}, ErrUnsafePath, "C:/Windows/x"},
		{"drive-relative", []entry{file("c:x", "pwned")}, ErrUnsafePath, "c:x"},
		{"backslash climb", []entry{file(`..\..\x`, "pwned")}, ErrUnsafePath, `..\..\x`},
		{"backslash", []entry{file(`server\index.js`, "x")}, ErrUnsafePath, `server\index.js`},
		{"stream", []entry{file("a.txt:evil", "x")}, ErrUnsafePath, "a.txt:evil"},
		{"device name", []entry{file("server/con.js", "x")}, ErrUnsafePath, "server/con.js"},
		{"trailing dot", []entry{file("server./x", "x")}, ErrUnsafePath, "server./x"},
		{"dot segment", []entry{file("./x", "x")}, ErrUnsafePath, "./x"},
		{"empty segment", []entry{file("a//x", "x")}, ErrUnsafePath, "a//x"},
		{"control character", []entry{file("a\nb", "x")}, ErrUnsafePath, "a\nb"},
		{"not UTF-8", []entry{file("a\xff", "x")}, ErrUnsafePath, "a\xff"},
		{"segment over 255 bytes", []entry{file("manifest.json", manifest), file("server/ok.js", "x"), file("server/"+strings.Repeat("é", 128)+"/x.js", "x")}, ErrUnsafePath, "server/" + strings.Repeat("é", 128) + "/x.js"},
		{"symlink", []entry{file("manifest.json", manifest), link}, ErrNotRegular, "server/index.js"},
		{"named pipe", []entry{pipe}, ErrNotRegular, "fifo"},
		{"duplicate", []entry{file("a.js", "1"), file("a.js", "2")}, ErrDuplicate, "a.js"},
		{"duplicate by case", []entry{file("README.md", "1"), file("readme.MD", "2")}, ErrDuplicate, "readme.MD"},
		{"duplicate by normalisation", []entry{file("caf\u00e9.txt", "1"), file("cafe\u0301.txt", "2")}, ErrDuplicate, "cafe\u0301.txt"},
		{"file and folder", []entry{file("lib", "1"), file("Lib/x.js", "2")}, ErrDuplicate, "Lib/x.js"},
		{"folder and file", []entry{file("lib/x.js", "1"), file("LIB", "2")}, ErrDuplicate, "LIB"},
		{"folder spelled two ways", []entry{file("lib/a.js", "1"), file("LIB/b.js", "2")}, ErrDuplicate, "LIB/b.js"},
		{"folder entry spelled two ways", []entry{file("lib/a.js", "1"), {name: "Lib/", mode: fs.ModeDir | 0o755, size: -1}}, ErrDuplicate, "Lib/"},
		{"too many entries", many, ErrTooMany, ""},
		{"declared zip bomb", []entry{file("manifest.json", manifest), {name: "bomb", mode: 0o644, zeros: 1 << 30, size: -1}}, ErrTooLarge, "bomb"},
		{"0.5 GiB entry", []entry{file("manifest.json", manifest), {name: "server/big.bin", mode: 0o755, zeros: 512 << 20, size: -1}}, ErrTooLarge, "server/big.bin"},
		{"lying zip bomb", []entry{file("manifest.json", manifest), {name: "server/bomb.bin", mode: 0o644, zeros: 1 << 30, size: 1024}}, ErrUnreadable, "server/bomb.bin"},
		{"lying 0.5 GiB entry", []entry{file("manifest.json", manifest), {name: "server/big.bin", mode: 0o644, zeros: 512 << 20, size: 10}}, ErrUnreadable, "server/big.bin"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := save(t, writeZip(t, c.entries...))
			parent := t.TempDir()
			var before runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			start := time.Now()
			a, err := Open(path)
			if err == nil {
				err = a.Unpack(filepath.Join(parent, "dest"))
			}
			elapsed := time.Since(start)
			var after runtime.MemStats
			runtime.ReadMemStats(&after)
			t.Logf("refused in %v, %.1f MiB allocated: %v", elapsed.Round(time.Millisecond),
				float64(after.TotalAlloc-before.TotalAlloc)/(1<<20), err)
			wantRefusal(t, err, c.kind, path, c.entry)
			if got := listTree(t, parent); len(got) != 0 {
				t.Errorf("left behind in dest's folder: %q", got)
			}
			if got := listTree(t, filepath.Dir(path)); !slices.Equal(got, []string{"ext.mcpb"}) {
				t.Errorf("beside the archive: %q", got)
			}
		})
	}
}

// TestUnreadableFiles: a truncated zip, a file that is no zip, a file over
// MaxFileBytes (sparse, so cheap) and a folder are refused by Open.
func TestUnreadableFiles(t *testing.T) {
	good := writeZip(t, file("manifest.json", manifest), file("server/index.js", "x"))
	t.Run("truncated", func(t *testing.T) {
		for _, n := range []int{len(good) - 10, len(good) / 2, 4} {
			p := save(t, good[:n])
			_, err := Open(p)
			wantRefusal(t, err, ErrUnreadable, p, "")
		}
	})
	t.Run("not a zip", func(t *testing.T) {
		p := save(t, []byte(manifest))
		_, err := Open(p)
		wantRefusal(t, err, ErrUnreadable, p, "")
	})
	t.Run("too large", func(t *testing.T) {
		p := save(t, good)
		if err := os.Truncate(p, MaxFileBytes+1); err != nil {
			t.Fatal(err)
		}
		_, err := Open(p)
		wantRefusal(t, err, ErrTooLarge, p, "")
	})
	t.Run("folder", func(t *testing.T) {
		p := t.TempDir()
		_, err := Open(p)
		wantRefusal(t, err, ErrUnreadable, p, "")
	})
	t.Run("missing", func(t *testing.T) {
		p := filepath.Join(t.TempDir(), "none.mcpb")
		_, err := Open(p)
		wantRefusal(t, err, ErrUnreadable, p, "")
	})
}

// TestGarbageSignatureBlocks: a block that is not PKCS#7, has a wrong
// length field, lacks its header or is cut short leaves the zip readable
// and reports Invalid with the problem.
func TestGarbageSignatureBlocks(t *testing.T) {
	z := writeZip(t, file("manifest.json", manifest))
	block := func(n uint32, body string) []byte {
		b := append([]byte(nil), z...)
		b = append(b, sigHeader...)
		b = binary.LittleEndian.AppendUint32(b, n)
		return append(append(b, body...), sigFooter...)
	}
	cut := block(9, "garbage!!")
	cases := map[string][]byte{
		"garbage":      block(9, "garbage!!"),
		"wrong length": block(1000, "garbage!!"),
		"no header":    append(append([]byte(nil), z...), sigFooter...),
		"cut short":    cut[:len(cut)-len(sigFooter)-3],
		"empty":        block(0, ""),
	}
	for name, b := range cases {
		t.Run(name, func(t *testing.T) {
			a, err := Open(save(t, b))
			if err != nil {
				t.Fatal(err)
			}
			s := a.Signature()
			if s.Status != Invalid || s.Problem == "" || s.Subject != "" {
				t.Errorf("signature = %+v, want invalid with a problem", s)
			}
			t.Logf("problem: %s", s.Problem)
			if m, err := a.Manifest(); err != nil || string(m) != manifest {
				t.Errorf("manifest = %q, %v", m, err)
			}
		})
	}
}
