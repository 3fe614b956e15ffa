//go:build !windows

package windows

import "context"

const supported = false

func pushToast(string) error { return errNotWindows }

func showMessageBox(context.Context, MessageBoxSpec) (int, error) { return 0, errNotWindows }
