//go:build !darwin && !windows

package platform

import "github.com/openworker/desktop/platform/freedesktop"

func defaultAdapter() Adapter { return freedesktop.New(nil) }
