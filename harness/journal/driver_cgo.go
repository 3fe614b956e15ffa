//go:build cgo

package journal

import (
	"database/sql"

	sqlite3 "github.com/mattn/go-sqlite3"
)

// The journal's own database/sql driver: go-sqlite3 with a ConnectHook
// that sets the pragmas its DSN has no key for (fullfsync) on every pooled
// connection. Open then reads the settings back (durability.go).
func init() {
	sql.Register(driverName, &sqlite3.SQLiteDriver{ConnectHook: func(c *sqlite3.SQLiteConn) error {
		for _, p := range hookPragmas() {
			if _, err := c.Exec(p, nil); err != nil {
				return err
			}
		}
		return nil
	}})
}
