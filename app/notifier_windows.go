package app

import "github.com/openworker/desktop/platform"

// defaultNotifier returns the native notification adapter of this OS; its
// notifications report no click (clickNotifier).
func defaultNotifier() Notifier { return platformNotifier{platform.Default()} }
