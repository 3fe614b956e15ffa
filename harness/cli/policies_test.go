package cli_test

import (
	"bytes"
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness/cli"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/tool"
)

func runCLI(t *testing.T, args ...string) (int, string) {
	t.Helper()
	var out bytes.Buffer
	code := cli.Run(context.Background(), tool.NewRegistry(), args,
		cli.WithIO(strings.NewReader(""), &out, &out, func(string) string { return "" }, func() bool { return false }))
	return code, out.String()
}

// runCLISplit is runCLI with stdout and stderr apart.
func runCLISplit(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = cli.Run(context.Background(), tool.NewRegistry(), args,
		cli.WithIO(strings.NewReader(""), &out, &errb, func(string) string { return "" }, func() bool { return false }))
	return code, out.String(), errb.String()
}

func TestPoliciesListAndRevoke(t *testing.T) {
	db := filepath.Join(t.TempDir(), "journal.db")
	j, err := journal.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := j.SaveUserPolicy(ctx, "helper", "device.system_info_get", "sha256:aa", "allow"); err != nil {
		t.Fatal(err)
	}
	// A "Never" answer is a saved deny (docs/consent.md#never).
	if err := j.SaveUserPolicy(ctx, "helper", "notification.show", "sha256:bb", "deny"); err != nil {
		t.Fatal(err)
	}
	j.Close()

	code, out := runCLI(t, "journal", "policies", "--db", db)
	if code != 0 || !strings.Contains(out, "helper") || !strings.Contains(out, "device.system_info_get") || !strings.Contains(out, "always allow") {
		t.Fatalf("policies: exit %d\n%s", code, out)
	}
	if !regexp.MustCompile(`helper +notification\.show +never +sha256:bb`).MatchString(out) {
		t.Fatalf("policies: the Never answer is not listed as never:\n%s", out)
	}
	if code, out := runCLI(t, "journal", "revoke", "helper", "notification.show", "--db", db); code != 0 || !strings.Contains(out, "revoked 1") {
		t.Fatalf("revoke never: exit %d\n%s", code, out)
	}
	code, out = runCLI(t, "journal", "revoke", "helper", "device.system_info_get", "--db", db)
	if code != 0 || !strings.Contains(out, "revoked 1") {
		t.Fatalf("revoke: exit %d\n%s", code, out)
	}
	if code, out = runCLI(t, "journal", "revoke", "helper", "device.system_info_get", "--db", db); code != 2 {
		t.Fatalf("second revoke: exit %d, want 2\n%s", code, out)
	}
	j, err = journal.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	p, ok, err := j.UserPolicy(ctx, "helper", "device.system_info_get", "sha256:aa")
	if err != nil || !ok || p != "ask" {
		t.Fatalf("after revoke the policy is %q %v %v, want ask", p, ok, err)
	}
	if rep, err := j.Verify(ctx); err != nil || !rep.OK {
		t.Fatalf("verify after revoke: %+v %v", rep, err)
	}
	if code, _ := runCLI(t, "journal", "bogus", "--db", db); code != 2 {
		t.Fatalf("journal bogus: exit %d, want 2", code)
	}
}
