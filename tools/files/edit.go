package files

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/aymanbagabas/go-udiff"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxDiff bounds the diff an edit's result shows.
const maxDiff = 32 << 10

// EditInput is the argument of file_edit.
type EditInput struct {
	Path       string `json:"path" jsonschema:"the text file to change"`
	OldText    string `json:"old_text" jsonschema:"the exact text to replace, character for character with its spaces, tabs and line ends; it must occur exactly once unless replace_all"`
	NewText    string `json:"new_text" jsonschema:"the text to put in its place (empty removes it)"`
	ReplaceAll bool   `json:"replace_all,omitempty" jsonschema:"replace every occurrence of old_text instead of requiring exactly one"`
}

// EditResult is the structured content of file_edit; the model reads its
// text: a line and a unified diff of the change.
type EditResult struct {
	Path         string `json:"path"`
	Replacements int    `json:"replacements"`
	Bytes        int    `json:"bytes"` // the file's size now
	Diff         string `json:"diff"`  // unified diff, cut at 32 KiB
}

func (s *server) addEditTool(srv *sdk.Server) {
	sdk.AddTool(srv, &sdk.Tool{
		Name:  "file_edit",
		Title: "Edit a file",
		Description: "Changes part of a text file: replaces old_text, which must occur exactly once (or every occurrence with replace_all), with new_text, " +
			"and returns a unified diff of the change. Read the file first and copy old_text exactly. Nothing is changed when old_text is missing or ambiguous. " +
			"The file is written to a temporary file first and renamed into place.",
		Annotations: changes(false, false),
	}, func(ctx context.Context, req *sdk.CallToolRequest, in EditInput) (*sdk.CallToolResult, any, error) {
		roots, ask, err := s.folders(req)
		if ask != nil || err != nil {
			return ask, nil, err
		}
		p, err := locate(roots, "path", in.Path)
		if err != nil {
			return nil, nil, err
		}
		s.writes.Lock()
		defer s.writes.Unlock()
		res, err := edit(p, in)
		if err != nil {
			return nil, nil, err
		}
		what := "1 replacement"
		if res.Replacements != 1 {
			what = fmt.Sprintf("%d replacements", res.Replacements)
		}
		return &sdk.CallToolResult{
			Content:           []sdk.Content{&sdk.TextContent{Text: fmt.Sprintf("Edited %s: %s.\n\n%s", res.Path, what, res.Diff)}},
			StructuredContent: res,
		}, nil, nil
	})
}

func edit(p place, in EditInput) (EditResult, error) {
	if err := checkEditInput(in); err != nil {
		return EditResult{}, err
	}
	r, err := p.open()
	if err != nil {
		return EditResult{}, err
	}
	defer r.Close()
	st, err := r.Lstat(p.native())
	if err != nil {
		return EditResult{}, failure(p, err)
	}
	if err := replaceable(r, p, st); err != nil {
		return EditResult{}, err
	}
	before, err := readSmall(r, p)
	if err != nil {
		return EditResult{}, err
	}
	old := string(before)
	after, n, err := replaceText(p, old, in)
	if err != nil {
		return EditResult{}, err
	}
	// The file was read under this server's lock; another program may
	// still have changed it since: then nothing is written.
	if now, err := readSmall(r, p); err != nil || !bytes.Equal(now, before) {
		return EditResult{}, fmt.Errorf("%q changed while it was being edited, so nothing was written: read it again and repeat the edit", p.shown())
	}
	if err := writeAtomic(r, p, []byte(after), st.Mode().Perm(), true); err != nil {
		return EditResult{}, err
	}
	return EditResult{Path: p.shown(), Replacements: n, Bytes: len(after), Diff: editDiff(p, old, after)}, nil
}

// checkEditInput fails for an edit that has nothing to find or changes
// nothing.
func checkEditInput(in EditInput) error {
	if in.OldText == "" {
		return fmt.Errorf("old_text is empty: give the exact text to replace (to write a whole file, use file_write)")
	}
	if in.OldText == in.NewText {
		return fmt.Errorf("old_text and new_text are the same, so nothing would change: give the new text in new_text")
	}
	return nil
}

// replaceText returns the text old of p with in's replacement made and
// how many were made; it fails when old_text is missing, occurs more
// than once without replace_all, or the result is over MaxWriteBytes.
func replaceText(p place, old string, in EditInput) (string, int, error) {
	n := strings.Count(old, in.OldText)
	switch {
	case n == 0:
		hint := "read the file again with file_read and copy the text exactly, with its spaces and line ends"
		if strings.Contains(old, strings.ReplaceAll(in.OldText, "\n", "\r\n")) {
			hint = `the file's lines end with "\r\n": write old_text with "\r\n" line ends`
		}
		return "", 0, fmt.Errorf("old_text was not found in %q, so nothing was changed: %s", p.shown(), hint)
	case n > 1 && !in.ReplaceAll:
		return "", 0, fmt.Errorf("old_text occurs %d times in %q (at lines %s), so nothing was changed: add the lines around it to old_text so that it occurs once, or set replace_all to change every one",
			n, p.shown(), lineList(old, in.OldText))
	}
	after := strings.Replace(old, in.OldText, in.NewText, -1)
	if !in.ReplaceAll {
		after = strings.Replace(old, in.OldText, in.NewText, 1)
	}
	if len(after) > MaxWriteBytes {
		return "", 0, fmt.Errorf("the edit would make %q %s, over the %s limit: nothing was changed", p.shown(), sizeText(int64(len(after))), sizeText(MaxWriteBytes))
	}
	return after, n, nil
}

// editDiff is the unified diff of an edit of p, cut at maxDiff bytes at
// a character.
func editDiff(p place, old, after string) string {
	diff := udiff.Unified("a/"+p.shown(), "b/"+p.shown(), old, after)
	if len(diff) > maxDiff {
		cut := maxDiff
		for cut > 0 && !utf8.RuneStart(diff[cut]) {
			cut--
		}
		diff = diff[:cut] + "\n[the diff is cut at 32 KiB]\n"
	}
	return diff
}

// readSmall reads the file p for an edit: a regular file of at most
// MaxWriteBytes of UTF-8 text.
func readSmall(r *os.Root, p place) ([]byte, error) {
	f, err := openRegular(r, p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxWriteBytes+1))
	if err != nil {
		return nil, failure(p, err)
	}
	if len(data) > MaxWriteBytes {
		return nil, fmt.Errorf("%q is over %s: file_edit changes files up to that size; nothing was changed", p.shown(), sizeText(MaxWriteBytes))
	}
	if kind, mime := kindOf(data[:min(len(data), sniffBytes)]); kind != "text" || !utf8.Valid(data) {
		return nil, fmt.Errorf("%q is not UTF-8 text (%s): file_edit changes UTF-8 text files only; nothing was changed", p.shown(), mime)
	}
	return data, nil
}

// lineList names the lines where sub starts in s: "3, 17, 40" (at most
// ten, then "…").
func lineList(s, sub string) string {
	var lines []string
	line, from := 1, 0
	for len(lines) < 10 {
		i := strings.Index(s[from:], sub)
		if i < 0 {
			return strings.Join(lines, ", ")
		}
		line += strings.Count(s[from:from+i], "\n")
		lines = append(lines, fmt.Sprint(line))
		line += strings.Count(sub, "\n")
		from += i + len(sub)
	}
	return strings.Join(lines, ", ") + ", …"
}
