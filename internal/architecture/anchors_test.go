package architecture

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode"
)

// root is the repository root, two folders up from this package.
func root(t *testing.T) string {
	t.Helper()
	r, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(r, "go.mod")); err != nil {
		t.Fatalf("no go.mod at %s: %v", r, err)
	}
	return r
}

// mdRef finds NAME.md#anchor, with an optional path before NAME.
var mdRef = regexp.MustCompile(`([A-Za-z0-9_./-]*?)([A-Za-z0-9_-]+\.md)#([A-Za-z0-9_-]+)`)

// explicitID finds the anchors a document sets by hand: <a id="x">, id="x".
var explicitID = regexp.MustCompile(`\bid="([^"]+)"`)

// slug is GitHub's heading anchor: lower case, letters, digits, spaces,
// hyphens and underscores kept (spaces become hyphens), the rest dropped.
func slug(heading string) string {
	heading = explicitTag.ReplaceAllString(heading, "")
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

var explicitTag = regexp.MustCompile(`<a [^>]*></a>|<[^>]+>`)

// anchors reads the anchors of one Markdown file: its headings' slugs
// (repeats numbered -1, -2 as GitHub does) and explicit ids. Code fences
// are skipped.
func anchors(t *testing.T, path string) map[string]bool {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got := map[string]bool{}
	seen := map[string]int{}
	fence := false
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fence = !fence
			continue
		}
		for _, m := range explicitID.FindAllStringSubmatch(line, -1) {
			got[m[1]] = true
		}
		if fence || !strings.HasPrefix(line, "#") {
			continue
		}
		s := slug(strings.TrimLeft(line, "#"))
		if n := seen[s]; n > 0 {
			got[s+"-"+itoa2(n)] = true
		} else {
			got[s] = true
		}
		seen[s]++
	}
	return got
}

// TestDocAnchorsResolve: every NAME.md#anchor named in Go, scripts,
// TypeScript, Svelte, workflows and the documents themselves points at a
// heading or id that exists in that document. A reference from docs/ or
// a file beside README.md resolves against docs/ (the documents link
// each other by bare name) or the repository root.
func TestDocAnchorsResolve(t *testing.T) {
	r := root(t)
	docs := map[string]map[string]bool{}
	load := func(rel string) map[string]bool {
		if a, ok := docs[rel]; ok {
			return a
		}
		p := filepath.Join(r, rel)
		if _, err := os.Stat(p); err != nil {
			docs[rel] = nil
			return nil
		}
		docs[rel] = anchors(t, p)
		return docs[rel]
	}
	exts := map[string]bool{".go": true, ".md": true, ".sh": true, ".ts": true, ".svelte": true, ".yml": true, ".yaml": true, ".nsi": true, ".nsh": true, ".py": true, ".js": true}
	var dead []string
	checked := 0
	err := filepath.WalkDir(r, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			switch name {
			case "node_modules", ".git", "dist", "artifacts", "bin", "wailsjs":
				return filepath.SkipDir
			}
			return nil
		}
		if !exts[filepath.Ext(name)] {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(r, path)
		for i, line := range strings.Split(string(data), "\n") {
			for _, m := range mdRef.FindAllStringSubmatch(line, -1) {
				if strings.Contains(m[1], "://") || strings.HasPrefix(m[0], "http") {
					continue
				}
				target := resolveDoc(r, rel, m[1], m[2])
				if target == "" { // not one of ours (another project's README.md#…)
					continue
				}
				checked++
				if a := load(target); a == nil || !a[m[3]] {
					dead = append(dead, rel+":"+itoa2(i+1)+": "+m[0]+" (no #"+m[3]+" in "+target+")")
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(dead)
	if len(dead) > 0 {
		t.Errorf("%d of %d docs anchors named in the tree do not exist (fix the reference, or add the heading or an <a id>):\n%s", len(dead), checked, strings.Join(dead, "\n"))
	}
	if checked < 50 {
		t.Errorf("only %d anchor references found: the pattern no longer matches how the tree names docs", checked)
	}
}

// resolveDoc returns the repository-relative path of the document a
// reference names, or "" when it names none of ours.
func resolveDoc(r, from, dir, file string) string {
	dir = strings.TrimPrefix(dir, "./")
	cands := []string{}
	if dir != "" {
		cands = append(cands, filepath.Join(filepath.Dir(from), dir, file), filepath.Join(dir, file))
	} else {
		cands = append(cands, filepath.Join(filepath.Dir(from), file), filepath.Join("docs", file), file)
	}
	for _, c := range cands {
		if _, err := os.Stat(filepath.Join(r, c)); err == nil {
			return filepath.Clean(c)
		}
	}
	if dir == "docs/" || dir == "" && strings.HasPrefix(from, "docs"+string(filepath.Separator)) {
		return filepath.Join("docs", file) // a document of ours that does not exist
	}
	return ""
}

func itoa2(n int) string {
	s := ""
	for {
		s = string(rune('0'+n%10)) + s
		n /= 10
		if n == 0 {
			return s
		}
	}
}
