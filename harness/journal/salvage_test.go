package journal

import (
	"context"
	"os"
	"slices"
	"testing"
)

// TestSessionIDsPastADamagedIndex: with the page of the index that orders
// sessions flipped, the ordered read fails, and SessionIDs still finds
// every session by a scan that uses no index.
func TestSessionIDsPastADamagedIndex(t *testing.T) {
	ctx := context.Background()
	path := testPath(t)
	j := openAt(t, path)
	for _, id := range []string{"s1", "s2", "s3"} {
		mkSession(t, j, id)
	}
	var root int64
	if err := j.db.QueryRow(`SELECT rootpage FROM sqlite_master WHERE name = 'sessions_newest'`).Scan(&root); err != nil {
		t.Fatal(err)
	}
	j.Close()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const page = 4096
	for i := (root - 1) * page; i < root*page; i++ {
		data[i] ^= 0xA5
	}
	os.WriteFile(path, data, 0o600)
	j2, err := Open(path, &Options{DeferCheck: true})
	if err != nil {
		t.Fatal(err)
	}
	defer j2.Close()
	if _, err := j2.scanIDs(ctx, `SELECT id FROM sessions ORDER BY created_at DESC, id DESC`); err == nil {
		t.Fatal("the ordered read of sessions did not fail: it no longer uses sessions_newest; flip the index it uses")
	}
	ids, err := j2.SessionIDs(ctx)
	slices.Sort(ids)
	if err != nil || !slices.Equal(ids, []string{"s1", "s2", "s3"}) {
		t.Errorf("SessionIDs past a damaged index = %v, %v; want s1 s2 s3", ids, err)
	}
}
