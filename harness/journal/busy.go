package journal

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
)

// busyTimeoutMS is how long a write waits for another process's write
// lock (SQLite's busy_timeout) before it fails; a variable for tests.
var busyTimeoutMS = 5000

// isBusy reports whether err is SQLite's "database is locked"
// (SQLITE_BUSY after the busy timeout). It reads the message, as
// isCorrupt does.
func isBusy(err error) bool {
	return err != nil && strings.Contains(err.Error(), "database is locked")
}

// maxHolders bounds the processes a busy error lists, one per line.
const maxHolders = 10

// busyError names the file, how long the write waited and which OpenWorker
// processes hold the journal open (their lease files say), one per line
// and at most maxHolders, so the person knows what to wait for or stop.
// Other errors pass through.
func (j *Journal) busyError(err error) error {
	if !isBusy(err) {
		return err
	}
	held := "No other OpenWorker has it open, so the holder is another program (a sqlite3 shell? a backup tool?)."
	if who := j.holders(); len(who) > 0 {
		held = "It is open in these OpenWorker processes, one of which may hold it, unless another program (a sqlite3 shell?) does:"
		for i, w := range who {
			if i == maxHolders {
				held += fmt.Sprintf("\n  and %d more", len(who)-maxHolders)
				break
			}
			held += "\n  " + w
		}
	}
	return fmt.Errorf("journal: %s is busy: another process has held its write lock for more than %.1f s, through every try for %s (%w); wait for it to finish or stop it, then try again. %s",
		j.path, float64(busyTimeoutMS)/1000, busyRetryFor, err, held)
}

// holders describes the other live Journals of this file: "pid 1234
// (openworker run)", from the .who file beside each held lease.
func (j *Journal) holders() []string {
	dir := ownersDir(j.path)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		tok, ok := strings.CutSuffix(e.Name(), ".lock")
		if !ok || (j.owner != nil && tok == j.owner.token) || !ownerAlive(j.path, tok) {
			continue
		}
		who := whoOf(j.path, tok)
		if who == "" {
			who = "an OpenWorker process"
		}
		out = append(out, who)
	}
	return out
}

var commandWord = regexp.MustCompile(`^[a-z][a-z-]{0,20}$`)

// whoAmI is what a lease's .who file says of this process: its pid, its
// program's name and, if it looks like one, its subcommand (never other
// arguments: a prompt or a key could be among them); without one it is the
// desktop app.
func whoAmI() string {
	prog := "openworker"
	if len(os.Args) > 0 {
		prog = filepath.Base(os.Args[0])
		// On Windows "openworker.exe serve" reads as the "openworker serve"
		// of other systems and of the docs (seen under Wine, issue 18).
		if ext := filepath.Ext(prog); runtime.GOOS == "windows" && strings.EqualFold(ext, ".exe") {
			prog = strings.TrimSuffix(prog, ext)
		}
	}
	if len(os.Args) > 1 && commandWord.MatchString(os.Args[1]) {
		prog += " " + os.Args[1]
	} else {
		prog += ", the desktop app" // the only opener of a journal without a subcommand
	}
	return fmt.Sprintf("pid %d (%s)", os.Getpid(), prog)
}
