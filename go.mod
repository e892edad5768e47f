module github.com/tickstamp/counter

go 1.26.0

require (
	golang.org/x/sys v0.50.0
	pgregory.net/rapid v1.3.0
)
