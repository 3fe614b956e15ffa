package agentimport

import (
	"strings"
	"testing"
)

// TestSplitMarkdown: front matter after a byte order mark and with CRLF
// line ends is found, its lines counted from the file's; one that is not
// closed is an error at line 1 with the fix; a file without any is all
// body.
func TestSplitMarkdown(t *testing.T) {
	md, err := splitMarkdown("a.md", []byte("\xef\xbb\xbf---\r\nname: a\r\ndescription: b\r\n---\r\nBody\r\n"))
	if err != nil || !md.hasFront || md.body != "Body" {
		t.Fatalf("splitMarkdown = %+v, %v", md, err)
	}
	doc, err := parseYAML("a.md", md.front, md.fmLine)
	if err != nil || doc.field("description") == nil || doc.field("description").line != 3 {
		t.Errorf("parseYAML = %+v, %v", doc, err)
	}
	if _, err := splitMarkdown("b.md", []byte("---\nname: b\n")); err == nil || !strings.HasPrefix(err.Error(), `b.md:1: the front matter opened by "---" on line 1 is not closed`) {
		t.Errorf("unclosed front matter = %v", err)
	}
	if md, err := splitMarkdown("c.md", []byte("# Title\n\nText.\n")); err != nil || md.hasFront || md.body != "# Title\n\nText." {
		t.Errorf("no front matter = %+v, %v", md, err)
	}
	if _, err := parseYAML("d.md", []byte("name: a\nname: b\n"), 2); err == nil || err.Error() != `d.md:3: not valid YAML: mapping key "name" already defined at line 2, column 1; keep one of them` {
		t.Errorf("a key twice = %v", err)
	}
}
