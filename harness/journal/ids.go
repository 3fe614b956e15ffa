package journal

import (
	"crypto/rand"
	"encoding/base32"
	"encoding/binary"
	"time"
)

// crockford is Crockford's base32 alphabet in lower case: its order matches
// byte order, so IDs sort by time as text.
var crockford = base32.NewEncoding("0123456789abcdefghjkmnpqrstvwxyz").WithPadding(base32.NoPadding)

// NewID returns prefix followed by 26 base32 characters: 48 bits of Unix
// milliseconds then 80 random bits (the ULID layout). IDs made in different
// milliseconds sort by time; within one millisecond their order is random.
// Example: NewID("inv_") = "inv_01jdx3k5q8m2n4p6r8t0v2w4y6". Safe for
// concurrent use.
func NewID(prefix string) string {
	var b [16]byte
	ms := uint64(time.Now().UnixMilli())
	binary.BigEndian.PutUint64(b[:8], ms<<16) // top 48 bits of the 8 bytes
	rand.Read(b[6:])                          // never fails (crypto/rand, Go 1.24+)
	return prefix + crockford.EncodeToString(b[:])
}
