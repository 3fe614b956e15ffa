package cli_test

import (
	"context"
	"os"
	"time"

	"github.com/openworker/desktop/harness/mcp/oauth/oauthtest"
)

// browserEnv makes the test binary the person's browser: it opens the URL
// it is given (the sign-in page, which signs in at once) and exits.
const browserEnv = "OW_TEST_BROWSER"

// browse is the test binary as a browser (TestMain).
func browse() int {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if len(os.Args) < 2 || oauthtest.Browser(ctx, os.Args[len(os.Args)-1]) != nil {
		return 1
	}
	return 0
}
