//go:build linux && !amd64

package main

import "errors"

func otherArch(op string) (string, error) { return "", errors.New(op + " is amd64 only") }
