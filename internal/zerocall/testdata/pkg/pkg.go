// Package pkg is a package whose exported names zerocall's test knows.
package pkg

// F is an exported function.
func F(p *int, s []string, n int) {}

func f() {}

// T is an exported type.
type T struct{}

// M has an unnamed receiver.
func (T) M(x any) {}

// N has a blank parameter.
func (t *T) N(_ int, y func()) {}

func (t *T) n() {}

type u struct{}

// Exported is a method of an unexported type, which no caller can hold
// nil or zero.
func (u) Exported() {}
