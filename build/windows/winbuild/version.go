package main

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// semverish accepts what scripts/build-windows.sh passes as a version:
// MAJOR.MINOR.PATCH with an optional -prerelease and +build suffix
// (https://semver.org), e.g. "0.1.0", "1.4.2-rc.1", "1.4.2+5.gabc".
var semverish = regexp.MustCompile(`^(\d+)\.(\d+)\.(\d+)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$`)

// numericVersion returns the three numeric parts of v joined by dots, as
// Windows version resources, manifests and NSIS VIProductVersion need them
// (each part 0..65535). It fails with a message naming v when v is not
// MAJOR.MINOR.PATCH[-pre][+build].
func numericVersion(v string) (string, error) {
	m := semverish.FindStringSubmatch(v)
	if m == nil {
		return "", fmt.Errorf("version %q is not MAJOR.MINOR.PATCH[-prerelease][+build]; set OPENWORKER_VERSION or wails.json info.productVersion to e.g. 0.1.0", v)
	}
	for _, part := range m[1:4] {
		n, err := strconv.Atoi(part)
		if err != nil || n > 65535 {
			return "", fmt.Errorf("version %q: part %s is above 65535, the Windows limit", v, part)
		}
	}
	return strings.Join(m[1:4], "."), nil
}
