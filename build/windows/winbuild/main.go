// Command winbuild is the Windows release helper of OpenWorker Desktop. It
// runs on the Linux build machine (never on Windows) and is called by
// scripts/build-windows.sh and scripts/check-windows-installer.sh:
//
//	winbuild resources -project DIR -version V -syso OUT.syso -ico OUT.ico -nsh OUT.nsh
//	    renders build/windows/info.json and wails.exe.manifest (Wails
//	    templates) with wails.json's "info" block, turns build/appicon.png
//	    into an icon, and writes the COFF resource object (.syso) that
//	    `go build` links into openworker.exe, the .ico for the installer and
//	    an NSIS include with the product defines. It does what `wails build`
//	    does for Windows (tc-hib/winres), minus the build itself.
//	winbuild check-exe -version V FILE.exe
//	    fails unless FILE is a PE32+ x86-64 image for the Windows GUI
//	    subsystem carrying a version resource with ProductVersion V.
//	winbuild version-info FILE.exe
//	    prints the version resource strings of any PE file (the app or the
//	    installer) as sorted KEY=VALUE lines.
//
// Exit status: 0 on success, 1 on a failed check or build error, 2 on bad
// usage.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"sort"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch os.Args[1] {
	case "resources":
		err = runResources(os.Args[2:])
	case "check-exe":
		err = runCheckExe(os.Args[2:])
	case "version-info":
		err = runVersionInfo(os.Args[2:])
	default:
		usage()
	}
	if errors.Is(err, flag.ErrHelp) || errors.Is(err, errUsage) {
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "winbuild:", err)
		os.Exit(1)
	}
}

var errUsage = errors.New("bad usage")

func usage() {
	fmt.Fprintln(os.Stderr, "usage: winbuild resources -project DIR -version V -syso OUT -ico OUT -nsh OUT")
	fmt.Fprintln(os.Stderr, "       winbuild check-exe -version V FILE.exe")
	fmt.Fprintln(os.Stderr, "       winbuild version-info FILE.exe")
	os.Exit(2)
}

func runResources(args []string) error {
	fs := flag.NewFlagSet("resources", flag.ContinueOnError)
	project := fs.String("project", ".", "repository root (holds wails.json and build/)")
	ver := fs.String("version", "", "product version, e.g. 0.1.0 or 0.2.0-rc.1 (default: wails.json info.productVersion)")
	syso := fs.String("syso", "", "output .syso path (name it *_windows_amd64.syso)")
	ico := fs.String("ico", "", "output .ico path")
	nsh := fs.String("nsh", "", "output NSIS include with the product defines")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *syso == "" || *ico == "" || *nsh == "" || fs.NArg() != 0 {
		fs.Usage()
		return errUsage
	}
	p, err := loadProject(*project, *ver)
	if err != nil {
		return err
	}
	return p.writeResources(*syso, *ico, *nsh)
}

func runCheckExe(args []string) error {
	fs := flag.NewFlagSet("check-exe", flag.ContinueOnError)
	ver := fs.String("version", "", "expected ProductVersion string in the version resource (required)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *ver == "" || fs.NArg() != 1 {
		fs.Usage()
		return errUsage
	}
	sum, err := checkExe(fs.Arg(0), *ver)
	if err != nil {
		return err
	}
	fmt.Println(sum)
	return nil
}

func runVersionInfo(args []string) error {
	if len(args) != 1 {
		usage()
	}
	strs, err := versionStrings(args[0])
	if err != nil {
		return err
	}
	keys := make([]string, 0, len(strs))
	for k := range strs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Printf("%s=%s\n", k, strs[k])
	}
	return nil
}
