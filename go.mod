module github.com/tickstamp/counter

go 1.26.0

require (
	github.com/klauspost/cpuid/v2 v2.4.2
	golang.org/x/sys v0.50.0
	pgregory.net/rapid v1.3.0
)
