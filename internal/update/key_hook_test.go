package update

import (
	"go/build"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A release build trusts the built-in key alone: the test-key hook
// (key_testhook.go) is compiled only with the build tag updatetestkey, this
// test binary (built without it) ignores the hook's environment variable,
// and no workflow or the release path of scripts/build-windows.sh or
// scripts/build-macos.sh sets the tag (docs/update.md#keys). The package's files are read with
// go/build, so this runs where no `go` command is (under Wine).
func TestReleaseBuildHasNoTestKeyHook(t *testing.T) {
	files := func(tags ...string) []string {
		ctx := build.Default
		ctx.GOOS, ctx.BuildTags = "windows", tags
		pkg, err := ctx.ImportDir(".", 0)
		if err != nil {
			t.Fatal(err)
		}
		return pkg.GoFiles
	}
	release := files()
	if slices.Contains(release, "key_testhook.go") || !slices.Contains(release, "key_release.go") {
		t.Errorf("the release build's files %v: want key_release.go and no key_testhook.go", release)
	}
	test := files("updatetestkey")
	if !slices.Contains(test, "key_testhook.go") || slices.Contains(test, "key_release.go") {
		t.Errorf("the updatetestkey build's files %v: want key_testhook.go and no key_release.go", test)
	}
	src, err := os.ReadFile("key_testhook.go")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(src), "//go:build updatetestkey\n") {
		t.Errorf("key_testhook.go must start with //go:build updatetestkey, got %q", strings.SplitN(string(src), "\n", 2)[0])
	}

	// This binary is built as a release is: the hook's variable is ignored.
	t.Setenv("OPENWORKER_UPDATE_TEST_KEY", "RWQf6LRCGA9i53mlYecO4IzT51TGPpvWucNSCh1CBM0QTaLn73Y7GFO3")
	if TestKeyBuild() {
		t.Fatal("a build without the tag updatetestkey says it has the test-key hook")
	}
	k, err := trustedKey()
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := k.MarshalText(); !strings.HasSuffix(strings.TrimSpace(string(got)), "\n"+releaseKey) {
		t.Errorf("the trusted key is %s, want the built-in %s", got, releaseKey)
	}

	// Release builds: the tag only through OPENWORKER_UPDATE_TEST_BUILD, which
	// no workflow sets.
	root := filepath.Join("..", "..")
	workflows, _ := filepath.Glob(filepath.Join(root, ".github", "workflows", "*.yml"))
	scripts := []string{"scripts/build-windows.sh", "scripts/build-macos.sh", "scripts/app-build.sh", "scripts/release-lib.sh"}
	for _, s := range scripts {
		workflows = append(workflows, filepath.Join(root, s))
	}
	if len(workflows) < len(scripts)+2 {
		t.Fatalf("found only %v", workflows)
	}
	for _, f := range workflows {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			if strings.Contains(line, "OPENWORKER_UPDATE_TEST_BUILD") && strings.HasSuffix(f, ".yml") {
				t.Errorf("%s:%d sets OPENWORKER_UPDATE_TEST_BUILD: only the update tests' scripts may (scripts/wine/update-steps.sh, scripts/macos-update-smoke.sh)", f, i+1)
			}
			if strings.Contains(line, "updatetestkey") && !strings.Contains(line, "OPENWORKER_UPDATE_TEST_BUILD") && !strings.HasPrefix(strings.TrimSpace(line), "#") {
				t.Errorf("%s:%d names the tag updatetestkey outside the OPENWORKER_UPDATE_TEST_BUILD switch", f, i+1)
			}
		}
	}
}
