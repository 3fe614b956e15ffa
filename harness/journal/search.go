package journal

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Chat search (docs/journal.md#chat-search) reads search_terms (schema
// v11): one row per distinct word and session, from the session's titles
// and the text of its user and assistant messages. It is our own word
// index rather than SQLite FTS5, which go-sqlite3 compiles only with the
// sqlite_fts5 build tag: a build or test run without the tag would then
// fail to open the journal ("no such module: fts5"), and the query would
// have FTS5's syntax to escape. Here both sides are split into words by
// terms, so a query has no syntax at all: quotes, NEAR(, * and - are
// punctuation like any other.

// Limits of the index and of a query.
const (
	// MaxTermBytes is the longest word indexed (UTF-8 bytes); longer ones
	// (hashes, base64) are left out.
	MaxTermBytes = 48
	// MaxTermsPerText bounds the distinct words indexed from one message
	// or title; the first ones are kept.
	MaxTermsPerText = 2000
	// MaxQueryTerms bounds the words of a query that count; the rest are
	// ignored.
	MaxQueryTerms = 8
	// MaxSearchResults is the most sessions Search returns.
	MaxSearchResults = 200
)

// terms splits text into its distinct words, lowercased, in order: runs
// of letters and digits (any script); every other character separates.
func terms(text string, max int) []string {
	seen := map[string]bool{}
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if len(w) > MaxTermBytes || seen[w] {
			continue
		}
		seen[w] = true
		out = append(out, w)
		if len(out) == max {
			break
		}
	}
	return out
}

// messageText is the text of a journaled message worth searching: the
// "text" of a user or assistant message; "" for others (tool results,
// system prompts).
func messageText(role string, content []byte) string {
	if role != "user" && role != "assistant" {
		return ""
	}
	var m struct {
		Text string `json:"text"`
	}
	if json.Unmarshal(content, &m) != nil {
		return ""
	}
	return m.Text
}

// indexText adds the words of text to session's entries of search_terms.
func indexText(ctx context.Context, tx *sql.Tx, session, text string) error {
	ws := terms(text, MaxTermsPerText)
	for len(ws) > 0 {
		n := min(len(ws), 100)
		args := make([]any, 0, 2*n)
		for _, w := range ws[:n] {
			args = append(args, w, session)
		}
		q := `INSERT OR IGNORE INTO search_terms(term, session_id) VALUES (?,?)` + strings.Repeat(`,(?,?)`, n-1)
		if _, err := tx.ExecContext(ctx, q, args...); err != nil {
			return fmt.Errorf("journal: index the words of session %s: %w", session, err)
		}
		ws = ws[n:]
	}
	return nil
}

// indexAllMessages fills search_terms from every user and assistant
// message (migrate11), reading them 500 at a time in id order, so that
// its memory does not grow with the journal.
func indexAllMessages(ctx context.Context, tx *sql.Tx) error {
	type text struct{ session, text string }
	for after := int64(0); ; {
		rows, err := tx.QueryContext(ctx, `SELECT id, session_id, role, content FROM messages WHERE id > ? ORDER BY id LIMIT 500`, after)
		if err != nil {
			return err
		}
		var batch []text
		n := 0
		for rows.Next() {
			var s, role, content string
			if err := rows.Scan(&after, &s, &role, &content); err != nil {
				rows.Close()
				return err
			}
			n++
			if t := messageText(role, []byte(content)); t != "" {
				batch = append(batch, text{s, t})
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, t := range batch {
			if err := indexText(ctx, tx, t.session, t.text); err != nil {
				return err
			}
		}
		if n < 500 {
			return nil
		}
	}
}

// SearchQuery asks for the sessions whose titles or messages hold words.
type SearchQuery struct {
	// Text is what the person typed. Each word must be found (in any
	// title or message of the session); the words match from their start
	// ("comp" finds "computer"), case-insensitively. Punctuation and
	// quotes only separate words.
	Text string
	// Limit is the most sessions returned: 0 means 50; at most
	// MaxSearchResults.
	Limit int
	// IncludeHidden also returns sessions hidden from the list.
	IncludeHidden bool
}

// Search returns the sessions matching q, newest first, filled in as
// SessionPage's are (title, last activity, attention). Text with no word
// in it returns none. A session is found by the words of every title it
// has had, as by every message.
func (j *Journal) Search(ctx context.Context, q SearchQuery) ([]Session, error) {
	limit := q.Limit
	switch {
	case limit == 0:
		limit = 50
	case limit < 0 || limit > MaxSearchResults:
		return nil, fmt.Errorf("journal: search limit %d; want 1 to %d (or 0 for 50)", limit, MaxSearchResults)
	}
	ws := terms(q.Text, MaxQueryTerms)
	if len(ws) == 0 {
		return []Session{}, nil
	}
	var sets []string
	var args []any
	for _, w := range ws {
		sets = append(sets, `SELECT session_id FROM search_terms WHERE term >= ? AND term < ?`)
		args = append(args, w, prefixEnd(w))
	}
	where := []string{`id IN (` + strings.Join(sets, ` INTERSECT `) + `)`}
	if !q.IncludeHidden {
		where = append(where, sqlNotHidden)
	}
	query := sqlSessionList + ` WHERE ` + strings.Join(where, ` AND `) + ` ORDER BY created_at DESC, id DESC LIMIT ?`
	ss, _, err := j.listSessions(ctx, j.db, query, append(args, limit))
	if ss == nil {
		ss = []Session{}
	}
	return ss, j.Explain(err)
}

// prefixEnd is the smallest string above every string starting with w in
// SQLite's BINARY order (bytes): w with 0xFF after it, a byte that never
// occurs in UTF-8.
func prefixEnd(w string) string {
	if !utf8.ValidString(w) {
		return w
	}
	return w + "\xff"
}
