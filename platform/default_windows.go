package platform

import "github.com/openworker/desktop/platform/windows"

func defaultAdapter() Adapter { return windows.New() }
