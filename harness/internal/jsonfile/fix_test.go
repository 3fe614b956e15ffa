package jsonfile

import (
	"strings"
	"testing"
)

func TestSyntaxErrorsSuggestAFix(t *testing.T) {
	for _, tc := range []struct{ in, fix string }{
		{`{"a": [1, 2,]}`, "remove the comma"},
		{`{"a": 1,}`, "remove the comma"},
		{`{'a': 1}`, "double quotes"},
		{"{\"a\": 1 // note\n}", "comment"},
		{`{"a": 1 "b": 2}`, "add a comma"},
		{`{"a": tru}`, "check the JSON syntax"},
	} {
		_, err := Parse("f.json", []byte(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.fix) {
			t.Errorf("Parse(%q) = %v, want a fix mentioning %q", tc.in, err, tc.fix)
		}
	}
}
