package files

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"regexp"
	"strings"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Bounds of files_search.
const (
	defaultSearchMatches = 50
	maxSearchMatches     = 200
	// maxSearchEntries bounds the files and folders one search visits.
	maxSearchEntries = 50000
	// maxMatchLine bounds the text of a matching line in a result.
	maxMatchLine = 200
	maxPattern   = 1000
)

// SearchInput is the argument of files_search.
type SearchInput struct {
	Path          string `json:"path,omitempty" jsonschema:"the folder to search, with everything inside it; default: the working folder"`
	Name          string `json:"name,omitempty" jsonschema:"a glob the name must match, e.g. *.md or report-202?-*; * ? [a-z] as in shells; with a / it is matched against the path from the searched folder"`
	Text          string `json:"text,omitempty" jsonschema:"text a line must contain; each matching line is a match"`
	Regex         bool   `json:"regex,omitempty" jsonschema:"text is a regular expression (RE2 syntax) instead of plain text"`
	CaseSensitive bool   `json:"case_sensitive,omitempty" jsonschema:"match text with its case; default: ignore case"`
	Limit         int    `json:"limit,omitempty" jsonschema:"most matches to return, 1 to 200; default 50"`
}

// Match is one found file, folder or line.
type Match struct {
	Path string `json:"path" jsonschema:"the file or folder, to give to the other tools"`
	Type string `json:"type" jsonschema:"file, folder or link"`
	Line int    `json:"line,omitempty" jsonschema:"with text: the matching line's number, from 1"`
	Text string `json:"text,omitempty" jsonschema:"with text: the matching line (cut at 200 bytes)"`
}

// SearchResult is the structured result of files_search.
type SearchResult struct {
	Matches       []Match `json:"matches"`
	Truncated     bool    `json:"truncated" jsonschema:"true when more matches (or entries) were left: narrow the search or raise limit"`
	FilesSearched int     `json:"files_searched" jsonschema:"with text: files whose lines were searched"`
	SkippedLarge  int     `json:"skipped_large,omitempty" jsonschema:"with text: files over 1 MiB, not searched"`
	SkippedBinary int     `json:"skipped_binary,omitempty" jsonschema:"with text: binary files, not searched"`
	Unreadable    int     `json:"unreadable,omitempty" jsonschema:"files and folders that could not be read (permissions, links leading outside)"`
}

func (s *server) addSearchTool(srv *sdk.Server) {
	sdk.AddTool(srv, &sdk.Tool{
		Name:  "files_search",
		Title: "Search files",
		Description: "Finds files and folders under a folder (default: the working folder) by name (a glob such as *.md) and/or text files by content " +
			"(plain text, or a regular expression with regex), returning each matching line with its number. " +
			"Skips .git folders, binary files and files over 1 MiB; does not follow links to folders.",
		Annotations: readOnly(),
	}, func(ctx context.Context, req *sdk.CallToolRequest, in SearchInput) (*sdk.CallToolResult, SearchResult, error) {
		roots, ask, err := s.folders(req)
		if ask != nil || err != nil {
			return ask, SearchResult{}, err
		}
		p, err := locate(roots, "path", in.Path)
		if err != nil {
			return nil, SearchResult{}, err
		}
		res, err := search(ctx, p, in)
		return nil, res, err
	})
}

// matcher matches a line against the search text.
type matcher func(line []byte) bool

func newMatcher(in SearchInput) (matcher, error) {
	if len(in.Text) > maxPattern {
		return nil, fmt.Errorf("text is %d bytes: search for at most %d", len(in.Text), maxPattern)
	}
	if in.Regex {
		expr := in.Text
		if !in.CaseSensitive {
			expr = "(?i)" + expr
		}
		re, err := regexp.Compile(expr)
		if err != nil {
			return nil, fmt.Errorf("text is not a regular expression (%v): fix it, or search for it as plain text without regex", err)
		}
		return re.Match, nil
	}
	if in.CaseSensitive {
		t := []byte(in.Text)
		return func(l []byte) bool { return bytes.Contains(l, t) }, nil
	}
	t := bytes.ToLower([]byte(in.Text))
	return func(l []byte) bool { return bytes.Contains(bytes.ToLower(l), t) }, nil
}

// searchQuery is a checked files_search input: the line matcher (nil
// without text) and the bound on matches.
type searchQuery struct {
	in    SearchInput
	match matcher
	limit int
}

// newSearchQuery checks the name glob and the text of in and settles the
// limit.
func newSearchQuery(in SearchInput) (searchQuery, error) {
	if in.Name == "" && in.Text == "" {
		return searchQuery{}, fmt.Errorf("give name (a glob such as *.md), text (what a line contains), or both")
	}
	if err := checkName("name", in.Name); err != nil {
		return searchQuery{}, err
	}
	if _, err := path.Match(in.Name, ""); err != nil {
		return searchQuery{}, fmt.Errorf("name %q is not a glob (%v): use * ? and [a-z], e.g. *.md", clip(in.Name), err)
	}
	q := searchQuery{in: in, limit: in.Limit}
	if in.Text != "" {
		var err error
		if q.match, err = newMatcher(in); err != nil {
			return searchQuery{}, err
		}
	}
	if q.limit <= 0 {
		q.limit = defaultSearchMatches
	}
	q.limit = min(q.limit, maxSearchMatches)
	return q, nil
}

// errStopSearch ends a walk once the search has enough.
var errStopSearch = errors.New("stop")

// searchWalk is the state of one walk of a searched folder.
type searchWalk struct {
	ctx     context.Context
	r       *os.Root
	p       place
	q       searchQuery
	res     SearchResult
	visited int
}

func search(ctx context.Context, p place, in SearchInput) (SearchResult, error) {
	q, err := newSearchQuery(in)
	if err != nil {
		return SearchResult{}, err
	}
	r, err := p.open()
	if err != nil {
		return SearchResult{}, err
	}
	defer r.Close()
	if err := checkSearchFolder(r, p); err != nil {
		return SearchResult{}, err
	}
	w := &searchWalk{ctx: ctx, r: r, p: p, q: q, res: SearchResult{Matches: []Match{}}}
	err = fs.WalkDir(r.FS(), p.rel, w.visit)
	if err != nil && err != errStopSearch {
		if ctx.Err() != nil {
			return SearchResult{}, fmt.Errorf("the search of %q was stopped: %v", p.shown(), ctx.Err())
		}
		return SearchResult{}, failure(p, err)
	}
	return w.res, nil
}

// checkSearchFolder fails unless p is a folder.
func checkSearchFolder(r *os.Root, p place) error {
	st, err := r.Stat(p.native())
	if err != nil {
		return failure(p, err)
	}
	if !st.IsDir() {
		return fmt.Errorf("%q is a file, not a folder: search its folder, or read it with file_read", p.shown())
	}
	return nil
}

// visit is the fs.WalkDirFunc of a search: it counts and bounds the
// entries, skips .git, and adds the entry or its matching lines.
func (w *searchWalk) visit(name string, de fs.DirEntry, err error) error {
	if err != nil {
		w.res.Unreadable++
		if de != nil && de.IsDir() {
			return fs.SkipDir
		}
		return nil
	}
	if name == w.p.rel {
		return nil
	}
	if w.visited++; w.visited > maxSearchEntries {
		w.res.Truncated = true
		return errStopSearch
	}
	if err := w.ctx.Err(); err != nil {
		return err
	}
	if de.IsDir() && de.Name() == ".git" {
		return fs.SkipDir
	}
	if !w.nameMatches(name, de) {
		return nil
	}
	c := w.p
	c.rel = name
	if w.q.match == nil {
		w.res.Matches = append(w.res.Matches, Match{Path: c.shown(), Type: typeName(de.Type())})
	} else if !de.IsDir() {
		searchFile(w.r, c, w.q.match, w.q.limit, &w.res)
	}
	if len(w.res.Matches) >= w.q.limit {
		w.res.Matches = w.res.Matches[:w.q.limit]
		w.res.Truncated = true
		return errStopSearch
	}
	return nil
}

// nameMatches reports whether the entry name passes the name glob: its
// base name, or with a / in the glob its path from the searched folder.
func (w *searchWalk) nameMatches(name string, de fs.DirEntry) bool {
	glob := w.q.in.Name
	if glob == "" {
		return true
	}
	subject := de.Name()
	if strings.Contains(glob, "/") {
		subject = strings.TrimPrefix(strings.TrimPrefix(name, w.p.rel), "/")
		if w.p.rel == "." {
			subject = name
		}
	}
	ok, _ := path.Match(glob, subject)
	return ok
}

// searchFile adds the lines of the file c that match, up to limit
// matches in all; large, binary and unreadable files are counted.
func searchFile(r *os.Root, c place, match matcher, limit int, res *SearchResult) {
	f, err := openRegular(r, c)
	if err != nil {
		res.Unreadable++
		return
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		res.Unreadable++
		return
	}
	if st.Size() > MaxSearchFileBytes {
		res.SkippedLarge++
		return
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxSearchFileBytes+1))
	if err != nil {
		res.Unreadable++
		return
	}
	if len(data) > MaxSearchFileBytes {
		res.SkippedLarge++
		return
	}
	if kind, _ := kindOf(data[:min(len(data), sniffBytes)]); kind != "text" {
		res.SkippedBinary++
		return
	}
	res.FilesSearched++
	for n, line := range bytes.Split(data, []byte("\n")) {
		if !match(line) {
			continue
		}
		res.Matches = append(res.Matches, Match{Path: c.shown(), Type: "file", Line: n + 1, Text: clipLine(line)})
		if len(res.Matches) >= limit {
			return
		}
	}
}

// clipLine is a matching line for a result: without its "\r", cut at
// maxMatchLine bytes at a character, as valid UTF-8.
func clipLine(line []byte) string {
	line = bytes.TrimSuffix(line, []byte("\r"))
	if len(line) > maxMatchLine {
		cut := maxMatchLine
		for cut > 0 && !utf8.RuneStart(line[cut]) {
			cut--
		}
		return strings.ToValidUTF8(string(line[:cut]), "\uFFFD") + "…"
	}
	return strings.ToValidUTF8(string(line), "\uFFFD")
}
