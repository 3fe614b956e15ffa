package journal

import (
	"context"
	"database/sql"
	"fmt"
	"runtime"
	"strings"
)

// driverName is the database/sql driver the journal registers (driver_cgo.go).
const driverName = "sqlite3_openworker_journal"

// fullFsync says whether commits must use F_FULLFSYNC. On macOS fsync()
// leaves the data in the drive's cache, where a power loss can drop a
// committed row; SQLite issues fcntl(F_FULLFSYNC) instead when the
// fullfsync pragmas are on (docs/journal.md#durability). Elsewhere fsync
// (Linux) and FlushFileBuffers (Windows) already reach the medium. A
// variable so that tests on Linux can demand it.
var fullFsync = runtime.GOOS == "darwin"

// setFullFsync says whether the ConnectHook turns fullfsync on; only tests
// make it differ from fullFsync, to see the read-back refuse.
var setFullFsync = fullFsync

// hookPragmas are what the ConnectHook runs on every new connection.
func hookPragmas() []string {
	if !setFullFsync {
		return nil
	}
	return []string{"PRAGMA fullfsync = ON", "PRAGMA checkpoint_fullfsync = ON"}
}

// durableSetting is one pragma and the value the journal's promise needs.
type durableSetting struct {
	pragma, want, why string
}

// durableSettings: WAL so that a commit is one fsync of the WAL file;
// synchronous=FULL (2) so that the fsync happens at every COMMIT; on macOS
// F_FULLFSYNC for commits and checkpoints.
func durableSettings() []durableSetting {
	s := []durableSetting{
		{"journal_mode", "wal", "the file system may not support WAL (a network or synced folder?)"},
		{"synchronous", "2", "FULL (2) fsyncs every commit"},
	}
	if fullFsync {
		s = append(s,
			durableSetting{"fullfsync", "1", "macOS needs F_FULLFSYNC to flush the drive's cache"},
			durableSetting{"checkpoint_fullfsync", "1", "macOS needs F_FULLFSYNC to flush the drive's cache"})
	}
	return s
}

// readBackDurability reads each durable setting back on one pooled
// connection (they are set per connection, by the DSN and the ConnectHook,
// and every connection is made the same way) and describes each one that
// is not what the journal needs; nil when all hold.
func readBackDurability(ctx context.Context, db *sql.DB) ([]string, error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	var bad []string
	for _, s := range durableSettings() {
		var got string
		if err := conn.QueryRowContext(ctx, "PRAGMA "+s.pragma).Scan(&got); err != nil {
			return nil, fmt.Errorf("read PRAGMA %s: %w", s.pragma, err)
		}
		if !strings.EqualFold(got, s.want) {
			bad = append(bad, fmt.Sprintf("%s is %s, not %s (%s)", s.pragma, got, s.want, s.why))
		}
	}
	return bad, nil
}
