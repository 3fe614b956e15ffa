package atomicfile

import (
	"os"
	"time"
)

// On Windows a file being replaced (WriteFile's rename) cannot be opened
// for that moment, and a file another process has open cannot be
// replaced: both fail with a sharing violation (or access denied for the
// rename) that passes by itself. Open and WriteFile's rename retry such an
// error for up to retryFor; on other systems they never fail so, and the
// first error is returned (transient, retry_windows.go / retry_other.go).
const retryFor = 2 * time.Second

// retry calls op until it succeeds, fails with an error that is not
// transient, or retryFor has passed; it returns op's last error.
func retry(op func() error) error {
	deadline := time.Now().Add(retryFor)
	wait := time.Millisecond
	for {
		err := op()
		if err == nil || !transient(err) || time.Now().After(deadline) {
			return err
		}
		time.Sleep(wait)
		wait = min(2*wait, 50*time.Millisecond)
	}
}

// Open opens path for reading as os.Open does, retrying the moment a
// concurrent WriteFile replaces it on Windows.
func Open(path string) (*os.File, error) {
	var f *os.File
	err := retry(func() (err error) {
		f, err = os.Open(path)
		return err
	})
	return f, err
}
