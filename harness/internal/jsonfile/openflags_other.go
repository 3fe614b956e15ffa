//go:build !unix

package jsonfile

// openFlags adds nothing where O_NONBLOCK does not apply (see ReadFile).
const openFlags = 0
