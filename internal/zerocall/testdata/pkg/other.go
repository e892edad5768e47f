//go:build never

package pkg

// Hidden is in a file no build selects.
func Hidden() {}
