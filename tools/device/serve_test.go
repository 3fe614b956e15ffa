package device

import (
	"context"
	"io"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Serve speaks MCP over plain pipes and returns when the client hangs up.
func TestServePipes(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	toServer, clientOut := io.Pipe()
	clientIn, fromServer := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := Serve(ctx, toServer, fromServer)
		fromServer.Close()
		done <- err
	}()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "0"}, nil).
		Connect(ctx, &sdk.IOTransport{Reader: clientIn, Writer: clientOut}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var st BatteryStatus
	if res := call(t, cs, "battery_status_get", nil, nil, &st); res.IsError {
		t.Fatalf("battery_status_get: %s", errorText(res))
	}
	if st.State == "" || st.Source == "" {
		t.Errorf("battery_status_get = %+v, want a state and a source", st)
	}
	cs.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve returned %v after the client closed, want nil", err)
		}
	case <-time.After(30 * time.Second): // a hang guard
		t.Fatal("Serve did not return after the client closed")
	}
}
