//go:build !cgo

package journal

import (
	"database/sql"

	sqlite3 "github.com/mattn/go-sqlite3"
)

// Without cgo go-sqlite3 is a stub whose every Open fails ("requires cgo");
// registering it keeps cgo-free builds that import the journal compiling.
func init() { sql.Register(driverName, &sqlite3.SQLiteDriver{}) }
