package atomicfile

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"sync"
	"testing"
)

// Readers opening a file while writers replace it again and again always
// open it (on Windows after waiting out the replacement) and read one
// complete version, never a part or an error.
func TestOpenWhileReplaced(t *testing.T) {
	path := filepath.Join(t.TempDir(), "record.json")
	version := func(i int) []byte { return bytes.Repeat([]byte(fmt.Sprintf("%04d", i)), 1024) }
	if err := WriteFile(path, version(0), 0o600); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 400)
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				if err := WriteFile(path, version(w*100+i), 0o600); err != nil {
					errs <- err
				}
			}
		}()
	}
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				f, err := Open(path)
				if err != nil {
					errs <- err
					continue
				}
				data, err := io.ReadAll(f)
				f.Close()
				if err != nil || len(data) != 4096 || !bytes.Equal(data, bytes.Repeat(data[:4], 1024)) {
					errs <- fmt.Errorf("read %d bytes (%v): not one whole version", len(data), err)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
