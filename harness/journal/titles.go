package journal

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Chat titles and hidden chats (docs/journal.md#chat-titles): rows of
// session_labels (schema v11), only ever added and chained like every
// journal row; the newest title and the newest hidden flag of a session
// win. Nothing is deleted: hiding a chat adds a row, and so does showing
// it again.

// MaxTitleRunes is the length of a title: a default title is cut to it
// (with "…"), a longer one set by the person is refused.
const MaxTitleRunes = 80

// DefaultTitle is the title of a session no one named: its first prompt
// on one line (runs of white space become one space), cut to
// MaxTitleRunes with "…" at the end.
func DefaultTitle(prompt string) string {
	t := strings.Join(strings.Fields(prompt), " ")
	if utf8.RuneCountInString(t) <= MaxTitleRunes {
		return t
	}
	r := []rune(t)
	return strings.TrimRight(string(r[:MaxTitleRunes-1]), " ") + "…"
}

// SetTitle records the title a person gave session id (a rename), as a new
// row; the newest wins. The title is put on one line and must hold
// something other than spaces and be at most MaxTitleRunes long. by says
// who ("" for the operating-system user, as Reconcile). A missing session
// returns ErrNotFound. The title's words join the search index.
func (j *Journal) SetTitle(ctx context.Context, id, title, by string) error {
	t := strings.Join(strings.Fields(cleanTitle(title)), " ")
	switch {
	case t == "":
		return errors.New("a chat title needs at least one character that is not a space")
	case utf8.RuneCountInString(t) > MaxTitleRunes:
		return fmt.Errorf("the title is %d characters; a chat title has at most %d", utf8.RuneCountInString(t), MaxTitleRunes)
	}
	return j.label(ctx, id, by, t, nil)
}

// cleanTitle drops what a title must not carry: invalid UTF-8, control
// characters (a NUL, a terminal escape), bidirectional overrides and
// isolates (text that reads other than it is stored) and zero-width
// characters (a title that looks empty).
func cleanTitle(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t' || r == '\n' || r == '\r':
			return ' '
		case unicode.IsControl(r), r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069,
			r >= 0x200B && r <= 0x200F, r == 0xFEFF, r == utf8.RuneError:
			return -1
		}
		return r
	}, strings.ToValidUTF8(s, ""))
}

// HideSession hides session id from the chat list (hidden true) or shows
// it again (false), as a new row; the newest wins. No row of the session
// is deleted or changed: Activity, the CLI and SearchQuery.IncludeHidden
// still find it. A missing session returns ErrNotFound.
func (j *Journal) HideSession(ctx context.Context, id string, hidden bool, by string) error {
	h := 0
	if hidden {
		h = 1
	}
	return j.label(ctx, id, by, "", &h)
}

// label appends one session_labels row: a title, or a hidden flag.
func (j *Journal) label(ctx context.Context, id, by, title string, hidden *int) error {
	if by == "" {
		by = currentUser()
	}
	what := "title"
	var titleArg, hiddenArg any = title, nil
	if hidden != nil {
		what, titleArg, hiddenArg = "hidden flag", nil, *hidden
	}
	return j.write(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM sessions WHERE id=?`, id).Scan(&n); err != nil {
			return fmt.Errorf("journal: set the %s of session %s: %w", what, id, err)
		}
		if n == 0 {
			return fmt.Errorf("journal: session %s: %w", id, ErrNotFound)
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO session_labels(session_id, title, hidden, set_by, created_at) VALUES (?,?,?,?,?)`,
			id, titleArg, hiddenArg, by, j.stamp())
		if err != nil {
			return fmt.Errorf("journal: set the %s of session %s: %w", what, id, err)
		}
		row, err := res.LastInsertId()
		if err != nil {
			return fmt.Errorf("journal: set the %s of session %s: %w", what, id, err)
		}
		if err := j.chainRow(ctx, tx, "session_labels", row); err != nil {
			return err
		}
		if hidden == nil {
			return indexText(ctx, tx, id, title)
		}
		return nil
	})
}

// ListedSession returns session id as the lists show it (title, hidden,
// last activity, attention), or ErrNotFound.
func (j *Journal) ListedSession(ctx context.Context, id string) (Session, error) {
	ss, _, err := j.listSessions(ctx, j.db, sqlSessionList+` WHERE id = ? LIMIT ?`, []any{id, 1})
	if err != nil {
		return Session{}, j.Explain(err)
	}
	if len(ss) == 0 {
		return Session{}, fmt.Errorf("journal: session %s: %w", id, ErrNotFound)
	}
	return ss[0], nil
}
