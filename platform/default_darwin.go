package platform

import "github.com/openworker/desktop/platform/darwin"

func defaultAdapter() Adapter { return darwin.New(nil) }
