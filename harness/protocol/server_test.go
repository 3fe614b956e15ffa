package protocol_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/protocol"
	"github.com/openworker/desktop/harness/tool"
)

// TestBadLinesDoNotEndTheServer feeds garbage, an over-long line and an
// unknown method; each gets an error response and the server reads on until
// the input ends.
func TestBadLinesDoNotEndTheServer(t *testing.T) {
	rt, err := harness.Open(context.Background(), tool.NewRegistry(), harness.Options{Coworkers: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	var in bytes.Buffer
	in.WriteString("not json\n")
	in.WriteString(`{"id":1,"method":"turn.send","params":{"session_id":"` + strings.Repeat("x", protocol.MaxLineBytes) + `"}}` + "\n")
	in.WriteString(`{"id":2,"method":"nope"}` + "\n")
	in.WriteString(`{"id":3,"method":"turn.cancel","params":{"session_id":"ses_none"}}`) // no final newline
	var out bytes.Buffer
	srv := protocol.NewServer(&out)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second) // a hang guard: Serve ends at the input's end
	defer cancel()
	if err := srv.Serve(ctx, rt, harness.SessionOptions{}, &in); err != nil {
		t.Fatalf("Serve = %v, want nil at the end of the input", err)
	}
	var codes []string
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		var r struct {
			ID    json.RawMessage
			Error *protocol.Error
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("output line %q: %v", sc.Text(), err)
		}
		if r.Error == nil {
			t.Fatalf("line %s has no error", sc.Text())
		}
		codes = append(codes, string(r.ID)+":"+r.Error.Code)
	}
	want := "null:bad_request null:bad_request 2:bad_request 3:not_found"
	if got := strings.Join(codes, " "); got != want {
		t.Fatalf("responses = %s, want %s", got, want)
	}
}
