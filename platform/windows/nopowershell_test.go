package windows

import (
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"testing"
)

// TestToastNeverReachesPowerShell reads the adapters' source as the
// Windows build sees it: no platform package imports beeep or go-toast's
// root package (whose Notification.Push passes wintoast.PowershellFallback),
// and every wintoast.Push call in this package has the XML as its only
// argument, so go-toast's PowerShell path (the XML in an expanding
// here-string, where "$( )" runs) is never engaged.
func TestToastNeverReachesPowerShell(t *testing.T) {
	ctx := build.Default
	ctx.GOOS, ctx.GOARCH, ctx.CgoEnabled = "windows", "amd64", false
	for _, dir := range []string{"..", ".", "../darwin", "../freedesktop", "../internal/core"} {
		pkg, err := ctx.ImportDir(dir, 0)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		for _, banned := range []string{"github.com/gen2brain/beeep", "git.sr.ht/~jackmordaunt/go-toast"} {
			if slices.Contains(pkg.Imports, banned) {
				t.Errorf("%s imports %s on Windows", pkg.ImportPath, banned)
			}
		}
		if dir == "." && !slices.Contains(pkg.GoFiles, "windows_windows.go") {
			t.Fatalf("the Windows build of %s has no windows_windows.go: %q", dir, pkg.GoFiles)
		}
		if dir != "." {
			continue
		}
		pushes := 0
		for _, name := range pkg.GoFiles {
			f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, name), nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.Ident:
					if n.Name == "PowershellFallback" || n.Name == "PreferPowershell" {
						t.Errorf("%s names wintoast.%s", name, n.Name)
					}
				case *ast.CallExpr:
					if sel, ok := n.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Push" {
						if x, ok := sel.X.(*ast.Ident); ok && x.Name == "wintoast" {
							pushes++
							if len(n.Args) != 1 || n.Ellipsis.IsValid() {
								t.Errorf("%s: wintoast.Push with %d arguments; only the XML, never an option", name, len(n.Args))
							}
						}
					}
				}
				return true
			})
		}
		if pushes == 0 {
			t.Error("no wintoast.Push call found: the test no longer sees how toasts are sent")
		}
	}
}
