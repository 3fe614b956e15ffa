//go:build !darwin

package darwin

const supported = false
