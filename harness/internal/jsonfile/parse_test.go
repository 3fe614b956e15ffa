package jsonfile

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestParseTree(t *testing.T) {
	data := "\xef\xbb\xbf{\n  \"a\": [1, \"x\", true, null],\n  \"é\": {\"b\": -2.5}\n}\n"
	root, err := Parse("f.json", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	if root.Kind != Object || len(root.Fields) != 2 || root.Line != 1 || root.Col != 1 {
		t.Fatalf("root = %+v", root)
	}
	a := root.Fields[0]
	if a.Key != "a" || a.Line != 2 || a.Col != 3 {
		t.Errorf("field a at %d:%d key %q, want 2:3", a.Line, a.Col, a.Key)
	}
	type pos struct {
		Kind      Kind
		Path      string
		Line, Col int
	}
	var got []pos
	for _, it := range a.Value.Items {
		got = append(got, pos{it.Kind, it.Path, it.Line, it.Col})
	}
	want := []pos{{Number, "a[0]", 2, 9}, {String, "a[1]", 2, 12}, {Bool, "a[2]", 2, 17}, {Null, "a[3]", 2, 23}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("items (-want +got):\n%s", d)
	}
	b := root.Get("é").Field("b")
	if b == nil || b.Line != 3 || b.Col != 9 || b.Value.Num != "-2.5" || b.Value.Path != "é.b" || b.Value.Col != 14 {
		t.Errorf("é.b = %+v %+v", b, b.Value)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, data string
		line, col  int
		frag       string
	}{
		{"empty", "", 1, 1, "file is empty"},
		{"blank", "  \n ", 1, 1, "file is empty"},
		{"bad char", "{\n  \"a\": x\n}", 2, 8, "invalid character 'x'"},
		{"missing colon", "{\"a\" 1}", 1, 6, "after object key"},
		{"trailing comma", "{\"a\": 1,\n}", 2, 1, "invalid character '}'"},
		{"unterminated", "{\"a\": [1, 2", 1, 12, "unexpected end of file"},
		{"unterminated string", "{\"a\": \"xy", 1, 10, "unexpected end of file"},
		{"duplicate", "{\"a\": 1,\n \"a\": 2}", 2, 2, `duplicate key "a" (first at line 1, column 2)`},
		{"nested duplicate", "{\"o\": {\"k\": 1, \"k\": 2}}", 1, 16, `duplicate key "k"`},
		{"trailing data", "{}\n{}", 2, 1, "unexpected data after the top-level value"},
		{"trailing garbage", "{} x", 1, 4, "invalid character 'x'"},
		{"deep", strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1), 1, MaxDepth + 1, "nested more than 64 deep"},
		{"unicode column", "{\"é€\": ?}", 1, 8, "invalid character '?'"},
		{"control in string", "{\"a\": \"x\ny\"}", 1, 9, "invalid character"},
		{"too big", "[" + strings.Repeat(" ", MaxSize) + "]", 0, 0, "the limit is 1048576 bytes"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("x.json", []byte(tc.data))
			e, ok := AsError(err)
			if !ok {
				t.Fatalf("Parse = %v, want *Error", err)
			}
			if e.File != "x.json" || e.Line != tc.line || e.Col != tc.col || !strings.Contains(e.Msg, tc.frag) {
				t.Errorf("Parse(%q) = %q at %d:%d, want %d:%d containing %q", tc.data, e.Msg, e.Line, e.Col, tc.line, tc.col, tc.frag)
			}
		})
	}
}

func TestErrorString(t *testing.T) {
	e := &Error{File: "a.json", Line: 3, Col: 7, Msg: "bad", Fix: "do this"}
	if got, want := e.Error(), "a.json:3:7: bad; do this"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	e = &Error{File: "a.json", Msg: "bad"}
	if got, want := e.Error(), "a.json: bad"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

func TestWalk(t *testing.T) {
	data := `{"s": "v", "n": 3, "f": 1.5, "big": 99999999999, "l": ["a", "b"], "bad": ["a", 1],
"m": {"k": "v"}, "mbad": {"k": true}, "o": {}}`
	root, err := Parse("w.json", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	if err := root.Keys("s", "n"); err == nil || !strings.Contains(err.Error(), `w.json:1:20: unknown field "f"; allowed fields here: s, n`) {
		t.Errorf("Keys = %v", err)
	}
	if err := root.Get("o").Keys(); err != nil {
		t.Errorf("Keys on empty object = %v", err)
	}
	if s, err := root.Get("s").AsString(); s != "v" || err != nil {
		t.Errorf("AsString = %q, %v", s, err)
	}
	if _, err := root.Get("n").AsString(); err == nil || err.Error() != `w.json:1:17: "n" must be a string, not a number` {
		t.Errorf("AsString(number) = %v", err)
	}
	if n, err := root.Get("n").AsInt(); n != 3 || err != nil {
		t.Errorf("AsInt = %d, %v", n, err)
	}
	for _, k := range []string{"f", "big"} {
		if _, err := root.Get(k).AsInt(); err == nil || !strings.Contains(err.Error(), "must be a whole number") {
			t.Errorf("AsInt(%s) = %v", k, err)
		}
	}
	if l, err := root.Get("l").AsStringSlice(); err != nil || strings.Join(l, ",") != "a,b" {
		t.Errorf("AsStringSlice = %v, %v", l, err)
	}
	if _, err := root.Get("bad").AsStringSlice(); err == nil || err.Error() != `w.json:1:80: "bad[1]" must be a string, not a number` {
		t.Errorf("AsStringSlice(bad) = %v", err)
	}
	if m, err := root.Get("m").AsStringMap(); err != nil || m["k"] != "v" {
		t.Errorf("AsStringMap = %v, %v", m, err)
	}
	if _, err := root.Get("mbad").AsStringMap(); err == nil || err.Error() != `w.json:2:32: "mbad.k" must be a string, not a boolean` {
		t.Errorf("AsStringMap(bad) = %v", err)
	}
	if _, err := root.Get("o").Require("x", "add it"); err == nil || err.Error() != `w.json:2:44: "o" has no "x" field; add it` {
		t.Errorf("Require = %v", err)
	}
	if root.Get("nope") != nil || root.Get("s").Get("x") != nil {
		t.Error("Get of a missing key is not nil")
	}
}

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.json")
	if err := os.WriteFile(p, []byte("12345"), 0o600); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadFile(p, 5); err != nil || string(b) != "12345" {
		t.Errorf("ReadFile(limit 5) = %q, %v", b, err)
	}
	_, err := ReadFile(p, 4)
	if e, ok := AsError(err); !ok || e.File != p || !strings.Contains(e.Msg, "file is 5 bytes; the limit is 4 bytes") {
		t.Errorf("ReadFile(limit 4) = %v", err)
	}
	if _, err := ReadFile(filepath.Join(dir, "none"), 4); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("ReadFile(missing) = %v, want ErrNotExist", err)
	}
	if _, err := ReadFile(dir, 4); err == nil || !strings.Contains(err.Error(), "is a folder") {
		t.Errorf("ReadFile(dir) = %v", err)
	}
}

func TestPosition(t *testing.T) {
	data := []byte("ab\ncé\nx")
	for _, tc := range []struct{ off, line, col int }{{0, 1, 1}, {2, 1, 3}, {3, 2, 1}, {6, 2, 3}, {7, 3, 1}, {99, 3, 2}, {-1, 1, 1}} {
		if l, c := Position(data, tc.off); l != tc.line || c != tc.col {
			t.Errorf("Position(%d) = %d:%d, want %d:%d", tc.off, l, c, tc.line, tc.col)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":[1,2,{"b":null}]}`, `{"a":1,"a":2}`, `[`, `{"a" 1}`, "\xef\xbb\xbf[true]", `"x" 1`, `{"é":"\u00e9"}`, `[1e999]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		root, err := Parse("fuzz.json", data)
		if err == nil {
			if root == nil {
				t.Fatal("nil root without error")
			}
			walk(t, root)
			return
		}
		if _, ok := AsError(err); !ok {
			t.Fatalf("error %T is not *Error: %v", err, err)
		}
	})
}

func walk(t *testing.T, n *Node) {
	if n.Line < 1 || n.Col < 1 {
		t.Fatalf("node %q at %d:%d", n.Path, n.Line, n.Col)
	}
	_, _ = n.AsInt()
	_, _ = n.AsStringSlice()
	_, _ = n.AsStringMap()
	_ = n.Keys("a")
	for _, it := range n.Items {
		walk(t, it)
	}
	for _, f := range n.Fields {
		walk(t, f.Value)
	}
}

// A file of many small values must parse in linear time (positions are not
// recomputed from the start of the file for every value). The check is
// relative, so it does not depend on the machine's speed: 16 times the
// values take about 16 times as long when parsing is linear and 256 times
// when it is quadratic; over 64 times fails. Each size keeps its fastest
// of a few runs, so a moment of load on a shared machine does not count.
func TestParseLargeFlat(t *testing.T) {
	flat := func(n int) []byte { return []byte("[" + strings.Repeat("1,", n) + "1]") }
	parse := func(data []byte) time.Duration {
		start := time.Now()
		root, err := Parse("big.json", data)
		took := time.Since(start)
		if err != nil {
			t.Fatal(err)
		}
		last := root.Items[len(root.Items)-1]
		if last.Line != 1 || last.Col != len(data)-1 {
			t.Fatalf("last item at %d:%d, want 1:%d", last.Line, last.Col, len(data)-1)
		}
		return took
	}
	const runs, factor, limit = 3, 16, 64
	small, large := flat(MaxSize/8/factor), flat(MaxSize/8)
	fastest := time.Duration(math.MaxInt64)
	for range runs {
		fastest = min(fastest, parse(small))
	}
	var ratio float64
	for range runs {
		took := parse(large)
		ratio = float64(took) / float64(max(fastest, time.Microsecond))
		t.Logf("%d bytes in %v, %d bytes in %v: %.1f times", len(small), fastest, len(large), took, ratio)
		if ratio <= limit {
			return
		}
	}
	t.Errorf("%d times the values took %.0f times as long; want about %d (linear), at most %d", factor, ratio, factor, limit)
}
