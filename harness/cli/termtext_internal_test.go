package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestProgressLine(t *testing.T) {
	for _, tc := range []struct{ msg, data, want string }{
		{"copying files", `{"progress":1,"total":4}`, "copying files"},
		{"", `{"progress":1,"total":4}`, "1 of 4 (25%)"},
		{"", `{"progress":3}`, "step 3"},
		{"", `{"progress":0.5}`, "step 0.50"},
		{"", `{"progress":9,"total":4}`, "4 of 4 (100%)"},
		{"", `{"progress":2,"total":0}`, "step 2"},
		{"", `{"progress":-1,"total":4}`, "working…"},
		{"", `{"progress":1e300}`, "working…"},
		{"", `{}`, "working…"},
		{"", `not json`, "working…"},
		{"  \x1b[31mred\x1b[0m\n", `{}`, `\u001b[31mred\u001b[0m`},
		{"\u202eevil", `{}`, `\u202eevil`},
	} {
		if got := progressLine(tc.msg, json.RawMessage(tc.data)); got != tc.want {
			t.Errorf("progressLine(%q, %s) = %q, want %q", tc.msg, tc.data, got, tc.want)
		}
	}
	if got := progressLine(strings.Repeat("x", 1000), nil); len([]rune(got)) != 200 || !strings.HasSuffix(got, "…") {
		t.Errorf("a long message gives %d runes", len([]rune(got)))
	}
}

func TestVisibleJSON(t *testing.T) {
	in := "{\"path\":\"txt.\u202eexe\",\"z\":\"a\u200bb\",\"tag\":\"\U000E0041\",\"ok\":\"café\"}"
	want := `{"path":"txt.\u202eexe","z":"a\u200bb","tag":"\udb40\udc41","ok":"café"}`
	if got := visibleJSON(in); got != want {
		t.Errorf("visibleJSON = %s, want %s", got, want)
	}
	var a, b map[string]string
	if json.Unmarshal([]byte(in), &a) != nil || json.Unmarshal([]byte(want), &b) != nil || a["path"] != b["path"] || a["tag"] != b["tag"] {
		t.Error("the escaped JSON does not mean the same")
	}
}
