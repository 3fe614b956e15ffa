package launch

import (
	"context"
	"errors"
)

// runShell: Windows has no login shell; LoginPath is the process PATH.
func runShell(context.Context, string, []string) ([]byte, error) {
	return nil, errors.New("there is no login shell on Windows")
}
