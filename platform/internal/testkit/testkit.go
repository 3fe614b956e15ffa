// Package testkit holds the hostile inputs and the golden-file helper shared
// by the adapter tests. Only tests import it.
package testkit

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// Case is one hostile string.
type Case struct {
	Name string
	Text string
}

// Injection is the AppleScript breakout attempt of the acceptance criteria.
const Injection = `" & do shell script "touch /tmp/pwned" & "`

// Hostile returns the hostile inputs every adapter's golden test covers.
func Hostile() []Case {
	return []Case{
		{"quotes", `She said "yes" and 'no'`},
		{"backslashes", `C:\Users\me\n \\server\share \" \u0041 \101`},
		{"applescript_injection", Injection},
		{"newlines", "line one\nline two\r\nline three\n"},
		{"ten_kb", strings.Repeat("0123456789abcdef ", 10240/17+1)[:10240]},
		{"rtl", "\u202Eexe.txt \u05E9\u05DC\u05D5\u05DD \u0645\u0631\u062D\u0628\u0627"},
		{"emoji", "ok 👍🏽 family 👨‍👩‍👧 flag 🇫🇷"},
		{"leading_option", "-e do shell script \"touch /tmp/pwned\""},
		{"markup", `<b>bold</b> <a href="file:///etc/passwd">x</a> &amp; <img src="x"/> ]]> $(calc) "@`},
		{"shell_expansion", "$(rm -rf ~) `id` ${HOME} %PATH% & | ; > /dev/null"},
		{"zero_width", "a\u200Bb\u200Cc\u200Dd\u2060e\uFEFFf \u200Eltr\u200Frtl\u2066iso\u2069"},
	}
}

// NUL is a string with a NUL byte, which every adapter must refuse.
const NUL = "before\x00after"

// Golden compares got with testdata/name, or writes it with -update.
func Golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file; got:\n%s\nwant:\n%s\n(if the change is intended, run go test -update and review the diff)", path, clip(got), clip(want))
	}
}

// JSON encodes v for a golden file: indented, HTML characters unescaped.
func JSON(t *testing.T, v any) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func clip(b []byte) []byte {
	if len(b) > 2000 {
		return append(b[:2000:2000], "…"...)
	}
	return b
}
