//go:build !darwin

package darwin

import (
	"errors"
	"fmt"
)

// openSystemCenter: the user notification center exists only on macOS.
func openSystemCenter() (UserCenter, error) {
	return nil, fmt.Errorf("UNUserNotificationCenter exists only on macOS: %w", errors.ErrUnsupported)
}
