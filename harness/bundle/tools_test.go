package bundle

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/openworker/desktop/harness/internal/jsonfile"
)

// ignorePos leaves where names stand out of whole-selection comparisons;
// TestSelectionPositions checks them.
var ignorePos = cmpopts.IgnoreFields(Selection{}, "File", "Pos")

func TestSelectionPositions(t *testing.T) {
	sel, err := parseSelection("t.json", []byte("{\"version\": 3,\n \"tools\": [\"a.b\",\n   \"c.d\"]}"))
	if err != nil {
		t.Fatal(err)
	}
	if sel.File != "t.json" || sel.At("a.b") != (Position{2, 12}) || sel.At("c.d") != (Position{3, 4}) {
		t.Fatalf("positions = %s %+v", sel.File, sel.Pos)
	}
	_, err = parseSelection("t.json", []byte(`{"version": 3, "tools": ["device__battery_get"]}`))
	if err == nil || !strings.Contains(err.Error(), `write the qualified name "device.battery_get"`) {
		t.Fatalf("alias form: %v", err)
	}
}

func TestParseSelection(t *testing.T) {
	good := []struct {
		in   string
		want Selection
	}{
		{`{"version": 3, "tools": []}`, Selection{Version: 3}},
		{`{"tools": ["a.b", "mcp.x.y-z"], "version": 3}`, Selection{Version: 3, Names: []string{"a.b", "mcp.x.y-z"}}},
		{`{"version": 2, "mcp": {}}`, Selection{Version: 2, MCP: map[string][]string{}}},
		{`{"version": 2, "mcp": {"acer": []}}`, Selection{Version: 2, MCP: map[string][]string{"acer": {}}}},
		{`{"version": 1, "mcp": []}`, Selection{Version: 1}},
	}
	for _, tc := range good {
		got, err := parseSelection("tools.json", []byte(tc.in))
		if err != nil {
			t.Errorf("parseSelection(%s) = %v", tc.in, err)
			continue
		}
		if d := cmp.Diff(tc.want, got, ignorePos); d != "" {
			t.Errorf("parseSelection(%s) (-want +got):\n%s", tc.in, d)
		}
	}
	bad := []struct {
		in        string
		line, col int
		frag      string
	}{
		{`[]`, 1, 1, "the top-level value must be an object, not an array"},
		{`{"tools": []}`, 1, 1, `the top-level object has no "version" field; add "version": 3`},
		{`{"version": 3.0, "tools": []}`, 1, 13, `"version" must be a whole number, not 3.0`},
		{`{"version": 0}`, 1, 13, "version 0 is not supported; use 3"},
		{`{"version": -1}`, 1, 13, "version -1 is not supported"},
		{`{"version": 4, "tools": []}`, 1, 13, "version 4 is not supported; use 3"},
		{`{"version": 3}`, 1, 1, `no "tools" field`},
		{`{"version": 3, "tools": [1]}`, 1, 26, `"tools[0]" must be a string, not a number`},
		{`{"version": 3, "tools": ["openworker.x"]}`, 1, 26, `namespace "openworker" is reserved`},
		{`{"version": 3, "tools": ["a.` + strings.Repeat("b", 78) + `"]}`, 1, 26, "of 81 bytes; an alias may be at most 80 bytes"},
		{`{"version": 2, "mcp": ["acer"]}`, 1, 23, `"mcp" must be an object, not an array`},
		{`{"version": 2, "mcp": {"acer": "x"}}`, 1, 32, `"mcp.acer" must be an array, not a string`},
		{`{"version": 2, "mcp": {"a": ["b__c"], "a__b": ["c"]}}`, 1, 48, `"a__b.c" and "a.b__c" (line 1, column 30) have the same model alias "a__b__c"`},
		{`{"version": 2, "mcp": {"acer": ["bad tool"]}}`, 1, 33, `has ' ' in its tool part`},
		{`{"version": 2, "tools": []}`, 1, 16, `unknown field "tools"; version 2 holds only "version" and "mcp"`},
		{`{"version": 1, "mcp": {"acer": []}}`, 1, 23, `"mcp" must be an array, not an object`},
		{`{"version": 1, "mcp": ["acer", "acer"]}`, 1, 32, `"acer" is listed twice (first at line 1, column 24)`},
		{`{"version": 1, "mcp": ["a.b"]}`, 1, 24, `namespace "a.b" has '.'`},
		{`{"version": 1, "version": 3}`, 1, 16, `duplicate key "version"`},
		// Invalid UTF-8 is named by the byte in the file (issue 40: 0xef, the
		// first byte of U+FFFD, was named for a 0xff).
		{"{\"version\": 3, \"tools\": [\"a.b\xffc\"]}", 1, 30, "invalid UTF-8: byte 0xff at offset 29"},
		{"{\"version\": 3, \"tools\": [\"\u00e9.x\", \"a.\xc3\"]}", 1, 36, "byte 0xc3 at offset 36"},
	}
	for _, tc := range bad {
		_, err := parseSelection("tools.json", []byte(tc.in))
		e, ok := jsonfile.AsError(err)
		if !ok || e.Line != tc.line || e.Col != tc.col || !strings.Contains(e.Error(), tc.frag) {
			t.Errorf("parseSelection(%s) = %v, want 1:%d containing %q", tc.in, err, tc.col, tc.frag)
		}
	}
}
