package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	_ "image/png" // build/appicon.png
	"os"
	"path/filepath"
	"strings"
	"text/template"

	"github.com/tc-hib/winres"
	"github.com/tc-hib/winres/version"
)

// project is the subset of wails.json that the Windows resources use. Field
// names match Wails' project.Project so build/windows/info.json and
// wails.exe.manifest stay valid templates for `wails build` too.
type project struct {
	dir            string
	Name           string `json:"name"`
	OutputFilename string `json:"outputfilename"`
	Info           info   `json:"info"`

	version string // full version for strings, e.g. 0.2.0-rc.1
}

type info struct {
	CompanyName    string `json:"companyName"`
	ProductName    string `json:"productName"`
	ProductVersion string `json:"productVersion"`
	Copyright      string `json:"copyright"`
	Comments       string `json:"comments"`
}

// loadProject reads DIR/wails.json. A non-empty ver overrides
// info.productVersion. Info.ProductVersion is then the numeric
// MAJOR.MINOR.PATCH form the templates need; the full string is kept apart.
func loadProject(dir, ver string) (*project, error) {
	path := filepath.Join(dir, "wails.json")
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read the Wails project file: %w", err)
	}
	p := &project{dir: dir}
	if err := json.Unmarshal(data, p); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if ver == "" {
		ver = p.Info.ProductVersion
	}
	for field, v := range map[string]string{"name": p.Name, "outputfilename": p.OutputFilename,
		"info.companyName": p.Info.CompanyName, "info.productName": p.Info.ProductName} {
		if strings.TrimSpace(v) == "" {
			return nil, fmt.Errorf("%s: %q is empty; the Windows version resource and installer need it", path, field)
		}
	}
	num, err := numericVersion(ver)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	p.version = ver
	p.Info.ProductVersion = num
	// As Wails does for a Windows target, so the templates see "openworker.exe".
	if !strings.HasSuffix(p.OutputFilename, ".exe") {
		p.OutputFilename += ".exe"
	}
	return p, nil
}

// render executes build/windows/NAME as a Wails template with p.
func (p *project) render(name string) ([]byte, error) {
	path := filepath.Join(p.dir, "build", "windows", name)
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	t, err := template.New(name).Option("missingkey=error").Parse(string(src))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var out bytes.Buffer
	if err := t.Execute(&out, p); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return out.Bytes(), nil
}

// versionInfo renders info.json into a VERSIONINFO and puts the full version
// string (with any -prerelease) in the ProductVersion string.
func (p *project) versionInfo() (*version.Info, error) {
	data, err := p.render("info.json")
	if err != nil {
		return nil, err
	}
	var vi version.Info
	if err := vi.UnmarshalJSON(data); err != nil {
		return nil, fmt.Errorf("build/windows/info.json (rendered): %w", err)
	}
	if err := vi.Set(version.LangNeutral, version.ProductVersion, p.version); err != nil {
		return nil, err
	}
	return &vi, nil
}

// icon builds the application icon from build/appicon.png (the app's icon,
// as Wails does), falling back to build/windows/icon.ico.
func (p *project) icon() (*winres.Icon, error) {
	png := filepath.Join(p.dir, "build", "appicon.png")
	if f, err := os.Open(png); err == nil {
		defer f.Close()
		img, _, err := image.Decode(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", png, err)
		}
		return winres.NewIconFromResizedImage(img, []int{256, 128, 64, 48, 32, 16})
	}
	ico := filepath.Join(p.dir, "build", "windows", "icon.ico")
	f, err := os.Open(ico)
	if err != nil {
		return nil, fmt.Errorf("no app icon: neither %s nor %s exists", png, ico)
	}
	defer f.Close()
	return winres.LoadICO(f)
}

// writeResources writes the .syso (icon, manifest, version info), the .ico
// and the NSIS defines.
func (p *project) writeResources(sysoPath, icoPath, nshPath string) error {
	var rs winres.ResourceSet
	ico, err := p.icon()
	if err != nil {
		return err
	}
	if err := rs.SetIcon(winres.ID(1), ico); err != nil {
		return err
	}
	manifest, err := p.render("wails.exe.manifest")
	if err != nil {
		return err
	}
	m, err := winres.AppManifestFromXML(manifest)
	if err != nil {
		return fmt.Errorf("build/windows/wails.exe.manifest (rendered): %w", err)
	}
	rs.SetManifest(m)
	vi, err := p.versionInfo()
	if err != nil {
		return err
	}
	rs.SetVersionInfo(*vi)

	var obj, icoBuf bytes.Buffer
	if err := rs.WriteObject(&obj, winres.ArchAMD64); err != nil {
		return err
	}
	if err := ico.SaveICO(&icoBuf); err != nil {
		return err
	}
	for path, data := range map[string][]byte{sysoPath: obj.Bytes(), icoPath: icoBuf.Bytes(), nshPath: p.nsisDefines()} {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// nsisDefines is an NSIS include with the product facts, so the installer
// script reads them from wails.json like the exe does.
func (p *project) nsisDefines() []byte {
	var b bytes.Buffer
	b.WriteString("; Generated by build/windows/winbuild from wails.json; do not edit.\n")
	def := func(k, v string) { fmt.Fprintf(&b, "!define %s \"%s\"\n", k, nsisEscape(v)) }
	def("PRODUCT_NAME", p.Info.ProductName)
	def("COMPANY_NAME", p.Info.CompanyName)
	def("COPYRIGHT", p.Info.Copyright)
	def("COMMENTS", p.Info.Comments)
	def("VERSION", p.version)
	def("VERSION4", p.Info.ProductVersion+".0")
	def("EXE_NAME", p.OutputFilename)
	return b.Bytes()
}

// nsisEscape quotes s for an NSIS double-quoted string: $ starts a variable
// and " ends the string; NSIS spells them $$ and $\".
func nsisEscape(s string) string {
	return strings.NewReplacer("$", "$$", `"`, `$\"`, "\n", " ", "\r", " ").Replace(s)
}
