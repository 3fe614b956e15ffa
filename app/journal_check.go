package app

import (
	"fmt"
	"os"
	"time"
)

// NoticeKeyJournal keys the banner about the journal's health: "checking"
// while a slow check runs, the problem when the journal is degraded
// (docs/journal.md#degraded), removed when the check finds it sound.
const NoticeKeyJournal = "journal"

// slowCheck is how long the journal check runs before the window says it
// is checking.
const slowCheck = 2 * time.Second

// checkJournal runs the journal's checks (quick_check and the newest chain
// entries, journal.Journal.Check, then the full Verify) off the window's
// thread: the journal is
// opened with DeferCheck so that a cold read of a large file does not
// hold the window. A problem becomes the journal banner; so does a
// problem Open already found (a damaged file met by migration or
// recovery, settings that do not commit durably).
func (a *desktop) checkJournal() {
	j, err := a.engine.openJournal()
	if err != nil {
		return // the window shows why (Info's RuntimeError)
	}
	if h := j.Health(); !h.OK() {
		a.notices.set(Notice{Level: NoticeError, Message: h.String(), Key: NoticeKeyJournal})
		return
	}
	size := ""
	if fi, err := os.Stat(j.Path()); err == nil {
		size = fmt.Sprintf(" (%.0f MB)", float64(fi.Size())/1e6)
	}
	slow := time.AfterFunc(slowCheck, func() {
		a.notices.set(Notice{Level: NoticeInfo, Message: "Checking the journal" + size + "… chats can be used meanwhile.", Key: NoticeKeyJournal})
	})
	h, err := j.Check(a.base)
	shown := !slow.Stop()
	switch {
	case err != nil:
		a.log.Warn("journal check", "err", err)
		if shown {
			a.notices.set(Notice{Level: NoticeWarn, Message: "The journal could not be checked: " + err.Error(), Key: NoticeKeyJournal})
		}
	case !h.OK():
		a.log.Error("journal degraded", "problem", h.Problem, "summary", h.Summary)
		a.notices.set(Notice{Level: NoticeError, Message: h.String(), Key: NoticeKeyJournal})
	case shown:
		a.notices.set(Notice{Level: NoticeInfo, Key: NoticeKeyJournal}) // no message: remove the banner
	}
	if err != nil || !h.OK() {
		return
	}
	// Then everything, as journal verify does: a break older than the
	// newest chain entries is found here. (Verify's integrity_check reads
	// the file again; the quick check came first so that a damaged file
	// stops taking writes within a second, not after the full read.) Verify streams (its memory does
	// not grow with the file) and reads one snapshot, so chats go on.
	rep, err := j.Verify(a.base)
	switch {
	case err != nil:
		a.log.Warn("journal verify", "err", err)
	case !rep.OK:
		h := j.Health() // Verify degraded the journal
		a.log.Error("journal degraded", "problem", h.Problem, "summary", h.Summary)
		a.notices.set(Notice{Level: NoticeError, Message: h.String(), Key: NoticeKeyJournal})
	default:
		a.log.Info("journal verified", "entries", rep.Entries, "rows", rep.Rows)
	}
}
