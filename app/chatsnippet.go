package app

import (
	"encoding/json"
	"strings"
	"unicode"
)

// maxSnippetChats is how many chats one ChatSnippets call reads: the most
// SearchChats returns.
const maxSnippetChats = 50

// snippetBefore and snippetAfter are how many characters (runes) of a
// message a snippet keeps before the first word found and from it on.
const (
	snippetBefore = 30
	snippetAfter  = 90
)

// ChatSnippets returns, for each chat of ids (at most 50, the chats a
// search found), a line of its first user or assistant message holding a
// word of text, matched as SearchChats matches (from a word's start, any
// case), around that word: "…the battery is at 80 %…" (docs/app.md#chats).
// A chat matched only by its title, or not found, has no entry.
func (c *Chats) ChatSnippets(text string, ids []string) (map[string]string, error) {
	j, err := c.engine.openJournal()
	if err != nil {
		return nil, err
	}
	words := searchWords(text)
	out := map[string]string{}
	if len(words) == 0 {
		return out, nil
	}
	if len(ids) > maxSnippetChats {
		ids = ids[:maxSnippetChats]
	}
	for _, id := range ids {
		msgs, err := j.Messages(c.base, id)
		if err != nil {
			return nil, j.Explain(err)
		}
		for _, m := range msgs {
			if m.Role != "user" && m.Role != "assistant" {
				continue
			}
			var content struct {
				Text string `json:"text"`
			}
			if json.Unmarshal(m.Content, &content) != nil {
				continue
			}
			if s := snippet(content.Text, words); s != "" {
				out[id] = s
				break
			}
		}
	}
	return out, nil
}

// searchWords are the lowercase words of text, as the journal's search
// splits them (letters and digits; the rest separates).
func searchWords(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// snippet is the part of text around the first place a word of words
// starts a word of text, on one line, with "…" where it was cut; "" when
// none does.
func snippet(text string, words []string) string {
	rs := []rune(text)
	low := make([]rune, len(rs))
	for i, r := range rs {
		low[i] = unicode.ToLower(r) // rune for rune: the indexes stay those of text
	}
	at := -1
	for i := range low {
		if i > 0 && (unicode.IsLetter(low[i-1]) || unicode.IsDigit(low[i-1])) {
			continue
		}
		for _, w := range words {
			if strings.HasPrefix(string(low[i:min(len(low), i+len([]rune(w)))]), w) {
				at = i
				break
			}
		}
		if at >= 0 {
			break
		}
	}
	if at < 0 {
		return ""
	}
	from, to := max(0, at-snippetBefore), min(len(rs), at+snippetAfter)
	s := strings.Join(strings.Fields(string(rs[from:to])), " ")
	if from > 0 {
		s = "…" + s
	}
	if to < len(rs) {
		s += "…"
	}
	return s
}
