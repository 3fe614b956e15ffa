package manifest

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParse: Parse never panics; it returns a manifest or an *Error whose
// every line names the file; a manifest it accepts can be launched or gets
// an error, without panicking. The seed corpus (the testdata manifests and
// a few broken ones) runs with go test; fuzz with
// go test -run='^$' -fuzz=FuzzParse -fuzztime=1m ./harness/extension/manifest/
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/valid/*.json")
	files = append(files, "testdata/base-0.4.json")
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, s := range []string{
		``, `{}`, `[]`, `null`, `{"manifest_version": "0.4"}`, `{"dxt_version": 1}`,
		`{"manifest_version":"0.4","name":"x","version":"1","description":"d","author":{"name":"a"},"server":{"type":"binary","entry_point":"e","mcp_config":{"command":"${"}}}`,
		`{"manifest_version":"0.4","user_config":{"k":{"type":"number","title":"t","description":"d","default":1e400}}}`,
		"{\"a\":\"\xff\xfe\"}", `{"a":1,"a":2}`, strings.Repeat(`{"a":`, 70),
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Parse(data, "manifest.json")
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || len(e.Problems) == 0 {
				t.Fatalf("not an *Error with problems: %T %v", err, err)
			}
			for _, line := range strings.Split(err.Error(), "\n") {
				if !strings.HasPrefix(line, "manifest.json") {
					t.Fatalf("line without the file name: %q", line)
				}
			}
			return
		}
		if m == nil || m.Name == "" || m.Version == "" {
			t.Fatalf("accepted an incomplete manifest: %+v", m)
		}
		_ = m.Problems(Env{GOOS: "windows", Runtimes: map[string]string{}})
		for _, goos := range []string{"linux", "windows"} {
			dir := "/e"
			if goos == "windows" {
				dir = `C:\e`
			}
			_, _ = m.Launch(LaunchInput{Host: HostAt(goos, dir), Dir: dir})
		}
	})
}
