//go:build !linux

package main

import "errors"

// attackOS: the Linux-only ops of attack are unknown elsewhere.
func attackOS(op, _ string) (string, error) { return "", errors.New("unknown op " + op) }
