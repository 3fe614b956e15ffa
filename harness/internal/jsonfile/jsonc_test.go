package jsonfile

import (
	"strings"
	"testing"
)

// TestParseJSONCPositions: comments and trailing commas are accepted, and
// every line and column is the one of the text as written, also after a
// block comment holding multi-byte characters on the same line.
func TestParseJSONCPositions(t *testing.T) {
	data := "// servers é\n{\n  /* ünïcödé */ \"a\": 1, // trailing\n  \"b\": [1, 2,],\n  \"c\": {\"d\": \"x\",},\n}\n"
	root, err := ParseJSONC("f.jsonc", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	a := root.Field("a")
	if a == nil || a.Line != 3 || a.Col != 17 || a.Value.Col != 22 {
		t.Fatalf("a = %+v, want the key at 3:17 and the value at 3:22", a)
	}
	if b := root.Get("b"); b == nil || len(b.Items) != 2 || b.Items[1].Line != 4 || b.Items[1].Col != 12 {
		t.Fatalf("b = %+v", b)
	}
	if d := root.Get("c").Field("d"); d == nil || d.Line != 5 || d.Col != 9 {
		t.Fatalf("c.d = %+v", d)
	}
}

func TestParseJSONCErrors(t *testing.T) {
	for _, tc := range []struct {
		data      string
		line, col int
		frag      string
	}{
		{"{\n  \"a\": 1,\n  \"a\": 2\n}", 3, 3, `duplicate key "a"`},
		{"{\n  /* é */ \"a\": x\n}", 2, 16, "invalid literal: x"},
		{"{\"a\": 1 /* open", 1, 9, "unexpected end of file"},
		{"{\n 'a': 1}", 2, 2, "use double quotes"},
		{"// only a comment\n", 2, 1, "unexpected end of file"},
		{"", 1, 1, "file is empty"},
	} {
		_, err := ParseJSONC("x.json", []byte(tc.data))
		e, ok := AsError(err)
		if !ok || e.Line != tc.line || e.Col != tc.col || !strings.Contains(e.Error(), tc.frag) {
			t.Errorf("ParseJSONC(%q) = %v, want %d:%d containing %q", tc.data, err, tc.line, tc.col, tc.frag)
		}
	}
	big := "[" + strings.Repeat(" ", MaxSize) + "]"
	if _, err := ParseJSONC("x.json", []byte(big)); err == nil || !strings.Contains(err.Error(), "the limit is") {
		t.Errorf("ParseJSONC(big) = %v", err)
	}
}

func FuzzParseJSONC(f *testing.F) {
	for _, s := range []string{`{}`, "{/*x*/\"a\":[1,2,],}", "// c\n[1]", `{"a":1,"a":2}`, "/*"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		root, err := ParseJSONC("fuzz.json", data)
		if err == nil {
			walk(t, root)
			return
		}
		if _, ok := AsError(err); !ok {
			t.Fatalf("error %T is not *Error: %v", err, err)
		}
	})
}
