//go:build !unix

package update

import "errors"

// Restart is not needed where the installer restarts the app (Windows).
func Restart(string, []string) error {
	return errors.New("start OpenWorker again to use the new version")
}
