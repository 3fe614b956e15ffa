package termsafe_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/openworker/desktop/internal/termsafe"
)

// Hostile is every control character and a set of real escape sequences
// a model or server could send: OSC title, clear screen, SGR 8 (conceal),
// cursor moves, an OSC 52 clipboard write, a DCS, the 8-bit CSI, bidi
// overrides and isolates, line separators, invalid UTF-8.
func Hostile() string {
	var b strings.Builder
	for r := rune(0); r < 0x20; r++ {
		b.WriteRune(r)
	}
	b.WriteRune(0x7f)
	for r := rune(0x80); r < 0xa0; r++ {
		b.WriteRune(r)
	}
	b.WriteString("\x1b]0;pwned title\x07\x1b]2;t2\x1b\\\x1b[2J\x1b[H\x1b[8mhidden\x1b[0m\x1b[1A\x1b[2K")
	b.WriteString("\x1b]52;c;cm0gLXJmIH4=\x07\x1bP+q\x1b\\\u009b31m\u009d0;x\u009c")
	b.WriteString("\u202eevil\u202c\u2066iso\u2069\u200b\u200e\u200f\u2028\u2029\u061c\ufeff\U000e0041")
	b.WriteString("\xff\xfe\xc0")
	return b.String()
}

func TestEveryControlIsEscaped(t *testing.T) {
	in := Hostile()
	for _, keep := range []bool{true, false} {
		var out string
		if keep {
			out = termsafe.Text(in)
		} else {
			out = termsafe.Line(in)
		}
		if i := termsafe.FirstRaw(out, keep); i >= 0 {
			t.Fatalf("keepLines=%v: raw control at %d: %q", keep, i, out[i:min(len(out), i+8)])
		}
		if strings.ContainsRune(out, 0x1b) || strings.Contains(out, "\u009b") {
			t.Fatalf("ESC or CSI got through: %q", out)
		}
		if !strings.Contains(out, `\u001b]0;pwned title\u0007`) || !strings.Contains(out, `\u202eevil`) || !strings.Contains(out, `\xff`) {
			t.Fatalf("not rendered visibly: %q", out)
		}
	}
	if got := termsafe.Line("a\nb\tc"); got != `a\u000ab\u0009c` {
		t.Fatalf("Line = %q", got)
	}
	if got := termsafe.Text("a\nb\tc\r"); got != "a\nb\tc\\u000d" {
		t.Fatalf("Text = %q", got)
	}
	if got := termsafe.Text("plain — ünïcode 😀 👩\u200d💻"); got != "plain — ünïcode 😀 👩\u200d💻" {
		t.Fatalf("clean text changed: %q", got)
	}
}

func TestEveryRuneOfTheBMP(t *testing.T) {
	for r := rune(0); r <= 0xffff; r++ {
		if r >= 0xd800 && r <= 0xdfff {
			continue
		}
		out := termsafe.Line(string(r))
		if termsafe.FirstRaw(out, false) >= 0 {
			t.Fatalf("U+%04X rendered %q", r, out)
		}
	}
}

func TestEscapesKeepJSONValidAndEqual(t *testing.T) {
	in := Hostile()
	b, _ := json.Marshal(map[string]string{"text": strings.ToValidUTF8(in, "\ufffd")})
	out := termsafe.Text(string(b))
	var back map[string]string
	if err := json.Unmarshal([]byte(out), &back); err != nil {
		t.Fatalf("escaped JSON no longer parses: %v\n%s", err, out)
	}
	if back["text"] != strings.ToValidUTF8(in, "\ufffd") {
		t.Fatal("escaped JSON means something else")
	}
}

func TestCut(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"hello", 5, "hello"},
		{"hello!", 5, "hell…"},
		{"a\x1b[2Jb", 3, `a\u001b…`},
		{"a\nb", 3, `a\u000ab`},
		{"", 3, ""},
	} {
		if got := termsafe.Cut(c.in, c.n); got != c.want {
			t.Errorf("Cut(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}

// A stream split at every byte never lets a control through, and joins
// to what one write would have given.
func TestWriterSplitAtEveryByte(t *testing.T) {
	in := Hostile() + "tail ä€😀"
	want := termsafe.Text(in)
	for cut := 0; cut <= len(in); cut++ {
		for cut2 := cut; cut2 <= len(in); cut2 += 7 {
			var buf bytes.Buffer
			w := termsafe.NewWriter(&buf)
			w.Write([]byte(in[:cut]))
			w.Write([]byte(in[cut:cut2]))
			w.Write([]byte(in[cut2:]))
			w.(*termsafe.Writer).Flush()
			if i := termsafe.FirstRaw(buf.String(), true); i >= 0 {
				t.Fatalf("cut %d/%d: raw at %d", cut, cut2, i)
			}
			if buf.String() != want {
				t.Fatalf("cut %d/%d: got %q\nwant %q", cut, cut2, buf.String(), want)
			}
		}
	}
}

func FuzzText(f *testing.F) {
	f.Add(Hostile())
	f.Add("plain")
	f.Fuzz(func(t *testing.T, s string) {
		for _, keep := range []bool{true, false} {
			out := termsafe.Line(s)
			if keep {
				out = termsafe.Text(s)
			}
			if i := termsafe.FirstRaw(out, keep); i >= 0 {
				t.Fatalf("raw control at %d in %q", i, out)
			}
		}
		if c := termsafe.Cut(s, 10); termsafe.FirstRaw(c, false) >= 0 {
			t.Fatalf("Cut let a control through: %q", c)
		}
	})
}
