module github.com/tickstamp/counter/export/counterhdr

go 1.26.0

require (
	github.com/HdrHistogram/hdrhistogram-go v1.1.2
	github.com/tickstamp/counter v0.0.0-00010101000000-000000000000
)

require golang.org/x/sys v0.50.0 // indirect

replace github.com/tickstamp/counter => ../..
