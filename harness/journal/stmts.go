package journal

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
)

// stmtCache holds the statements of the hot write paths, prepared once on
// the pool. tx.StmtContext reuses a statement already prepared on the
// transaction's connection (database/sql keeps one per connection), so a
// call's commits do not parse SQL again.
type stmtCache struct {
	mu sync.Mutex
	m  map[string]*sql.Stmt
}

// stmt returns query prepared for tx.
func (j *Journal) stmt(ctx context.Context, tx *sql.Tx, query string) (*sql.Stmt, error) {
	s, err := j.prepared(ctx, query)
	if err != nil {
		return nil, err
	}
	return tx.StmtContext(ctx, s), nil
}

// prepared returns query prepared on the pool (for reads outside a
// transaction), preparing it on first use.
func (j *Journal) prepared(ctx context.Context, query string) (*sql.Stmt, error) {
	c := &j.stmts
	c.mu.Lock()
	s, ok := c.m[query]
	c.mu.Unlock()
	if !ok {
		// Prepared on the pool (another connection: tx holds its own);
		// tx.StmtContext then prepares it once on tx's connection too.
		ps, err := j.db.PrepareContext(ctx, query)
		if err != nil {
			return nil, fmt.Errorf("journal: prepare %.60q: %w", query, err)
		}
		c.mu.Lock()
		if s, ok = c.m[query]; ok {
			ps.Close()
		} else {
			if c.m == nil {
				c.m = map[string]*sql.Stmt{}
			}
			c.m[query], s = ps, ps
		}
		c.mu.Unlock()
	}
	return s, nil
}

// close closes the cached statements.
func (c *stmtCache) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, s := range c.m {
		s.Close()
	}
	c.m = nil
}
