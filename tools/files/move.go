package files

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// MoveInput is the argument of file_move.
type MoveInput struct {
	From      string `json:"from" jsonschema:"the file or folder to move or rename"`
	To        string `json:"to" jsonschema:"its new path, with its name (not only the folder to put it in); missing folders on the way are made"`
	Overwrite bool   `json:"overwrite,omitempty" jsonschema:"replace a file that is at to; default false: the call fails and both stay as they are. A folder is never replaced"`
}

// MoveResult is the structured result of file_move.
type MoveResult struct {
	From        string `json:"from"`
	To          string `json:"to"`
	Replaced    bool   `json:"replaced" jsonschema:"true when a file at to was replaced"`
	MadeFolders string `json:"made_folders,omitempty" jsonschema:"the folder made on the way, when one was missing"`
}

func (s *server) addMoveTool(srv *sdk.Server) {
	sdk.AddTool(srv, &sdk.Tool{
		Name:  "file_move",
		Title: "Move or rename",
		Description: "Moves or renames a file or folder within one of the folders this server works in. " +
			"A file at the destination is replaced only with overwrite: true (its content is then gone); a folder is never replaced.",
		Annotations: changes(true, false),
	}, func(ctx context.Context, req *sdk.CallToolRequest, in MoveInput) (*sdk.CallToolResult, MoveResult, error) {
		roots, ask, err := s.folders(req)
		if ask != nil || err != nil {
			return ask, MoveResult{}, err
		}
		from, err := locate(roots, "from", in.From)
		if err != nil {
			return nil, MoveResult{}, err
		}
		to, err := locate(roots, "to", in.To)
		if err != nil {
			return nil, MoveResult{}, err
		}
		s.writes.Lock()
		defer s.writes.Unlock()
		res, err := move(from, to, in.Overwrite)
		return nil, res, err
	})
}

func move(from, to place, overwrite bool) (MoveResult, error) {
	if err := checkMovePlaces(from, to); err != nil {
		return MoveResult{}, err
	}
	r, err := from.open()
	if err != nil {
		return MoveResult{}, err
	}
	defer r.Close()
	src, err := r.Lstat(from.native())
	if err != nil {
		return MoveResult{}, failure(from, err)
	}
	res := MoveResult{From: from.shown(), To: to.shown()}
	dest, err := checkMoveDestination(r, from, to, src, overwrite)
	if err != nil {
		return MoveResult{}, err
	}
	res.Replaced = dest.replaced
	if res.MadeFolders, err = makeParent(r, to); err != nil {
		return MoveResult{}, err
	}
	if !dest.exists && !dest.caseOnly && src.Mode().IsRegular() {
		moved, err := linkMove(r, from, to)
		if err != nil {
			return MoveResult{}, err
		}
		if moved {
			return res, nil
		}
		// no hard links here: rename
	}
	if err := r.Rename(from.native(), to.native()); err != nil {
		return MoveResult{}, fmt.Errorf("moving %q to %q failed and nothing was moved: %s", from.shown(), to.shown(), describeMove(err))
	}
	syncDir(r, pathDir(to.rel))
	return res, nil
}

// checkMovePlaces fails for moves that are wrong whatever is on disk:
// of or onto the working folder, across folders, onto itself or into
// itself.
func checkMovePlaces(from, to place) error {
	switch {
	case from.isRoot():
		return fmt.Errorf("from is the folder this server works in, which cannot be moved: give a file or folder inside it")
	case to.isRoot():
		return fmt.Errorf("to is the folder this server works in: give the new path with its name, such as %q", "archive/"+pathBase(from.rel))
	case from.f.dir != to.f.dir:
		return fmt.Errorf("%q and %q are in two different folders (%s, %s): move within one; to copy across, read the file and write it there", from.shown(), to.shown(), from.f.dir, to.f.dir)
	case from.rel == to.rel:
		return fmt.Errorf("from and to are the same path %q: give the new path in to", from.shown())
	case strings.HasPrefix(to.rel, from.rel+"/"):
		return fmt.Errorf("%q cannot be moved into itself (%q): choose a destination outside it", from.shown(), to.shown())
	}
	return nil
}

// moveDestination is what a move finds at its destination.
type moveDestination struct {
	exists   bool // something else is there, and will be replaced
	caseOnly bool // the source itself under another case (macOS, Windows)
	replaced bool
}

// checkMoveDestination looks at to and fails unless the source src may
// go there: a folder is never replaced, a file only with overwrite.
func checkMoveDestination(r *os.Root, from, to place, src fs.FileInfo, overwrite bool) (moveDestination, error) {
	dst, err := r.Lstat(to.native())
	d := moveDestination{exists: err == nil}
	d.caseOnly = d.exists && os.SameFile(src, dst)
	switch {
	case d.caseOnly:
		d.exists = false
	case d.exists && dst.IsDir():
		return d, fmt.Errorf("%q is a folder, which is never replaced: give the full new path inside it, such as %q", to.shown(), to.rel+"/"+pathBase(from.rel))
	case d.exists && src.IsDir():
		return d, fmt.Errorf("%q is a file and %q a folder: a folder does not replace a file; choose another name", to.shown(), from.shown())
	case d.exists && !overwrite:
		return d, fmt.Errorf("%q already exists, so nothing was moved: choose another name, or read it and call file_move with overwrite: true to replace it", to.shown())
	case d.exists:
		if err := replaceable(r, to, dst); err != nil {
			return d, err
		}
		d.replaced = true
	case !errors.Is(err, fs.ErrNotExist):
		return d, failureIn(r, to, err)
	}
	return d, nil
}

// linkMove moves a file by a hard link and removal; the link fails when
// to exists, so a file made there in the meantime is never replaced. It
// reports false, with no error, where hard links fail otherwise.
func linkMove(r *os.Root, from, to place) (bool, error) {
	err := r.Link(from.native(), to.native())
	switch {
	case err == nil:
		if err := r.Remove(from.native()); err != nil {
			return false, fmt.Errorf("%q was copied to %q but could not be removed (%s): both are there now", from.shown(), to.shown(), describe(err))
		}
		syncDir(r, pathDir(to.rel))
		return true, nil
	case errors.Is(err, fs.ErrExist):
		return false, fmt.Errorf("%q was made by someone else just now, so nothing was moved: read it, then call file_move with overwrite: true to replace it", to.shown())
	}
	return false, nil
}

func describeMove(err error) string {
	if escapes(err) {
		return "the path leads outside the folder through a symbolic link"
	}
	return describe(err)
}

func pathBase(rel string) string {
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		return rel[i+1:]
	}
	return rel
}

func pathDir(rel string) string {
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		return rel[:i]
	}
	return "."
}
