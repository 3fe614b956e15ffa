package doctor

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openworker/desktop/harness/tool"
)

// hangGuard bounds a test that must not hang; generous for a busy machine.
const hangGuard = 30 * time.Second

// A provider that answers initialize but never tools/list is reported as
// failed within the start bound; doctor does not hang on it.
func TestDoctorListingIsBounded(t *testing.T) {
	srv := sdk.NewServer(&sdk.Implementation{Name: "stuck", Version: "1.0.0"}, nil)
	sdk.AddTool(srv, &sdk.Tool{Name: "t"}, func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
		return &sdk.CallToolResult{}, nil, nil
	})
	release := make(chan struct{})
	srv.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			if method == "tools/list" {
				select { // until the test ends: the client's giving up need not reach here
				case <-ctx.Done():
				case <-release:
				}
				return nil, context.Canceled
			}
			return next(ctx, method, req)
		}
	})
	hs := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	t.Cleanup(hs.Close)
	t.Cleanup(func() { close(release) }) // runs before hs.Close
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	rep := Diagnose(ctx, Input{
		Servers:      []tool.MCPServer{{Namespace: "stuck", Transport: "streamable_http", URL: hs.URL}},
		StartTimeout: 5 * time.Second, // fires on purpose, after initialize: room for that on a loaded machine
		JournalPath:  filepath.Join(t.TempDir(), "journal.db"),
	})
	if ctx.Err() != nil {
		t.Fatal("doctor did not return within the hang guard")
	}
	text := rep.Text()
	if flat := strings.Join(strings.Fields(text), " "); !strings.Contains(flat, "provider stuck failed: ") || !strings.Contains(flat, "listing its tools failed") {
		t.Errorf("want the stuck provider failed while listing:\n%s", text)
	}
}
