package doctor

import (
	"fmt"

	"github.com/openworker/desktop/harness/internal/atomicfile"
)

// Save writes a report's text to path in one step (a temporary file
// renamed over path, mode 0600: the report is redacted, but it names the
// person's folders). The error names the file.
func Save(path, text string) error {
	if err := atomicfile.WriteFile(path, []byte(text), 0o600); err != nil {
		return fmt.Errorf("save the diagnostics to %s: %w", path, err)
	}
	return nil
}
