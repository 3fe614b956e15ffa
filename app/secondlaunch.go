package app

import "os"

// secondLaunch is what a second start hands the first instance of its config
// dir: its command line after the program name and its working folder.
// The JSON field names are those of Wails' options.SecondInstanceData,
// which carries the same on Windows (wake_windows.go).
type secondLaunch struct {
	Args             []string
	WorkingDirectory string
}

// thisLaunch is this process's secondLaunch with the command line args (Run's
// Options.Args).
func thisLaunch(args []string) secondLaunch {
	wd, _ := os.Getwd()
	return secondLaunch{Args: append([]string{}, args...), WorkingDirectory: wd}
}
