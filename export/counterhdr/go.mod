module github.com/tickstamp/counter/export/counterhdr

go 1.26.0

require (
	github.com/HdrHistogram/hdrhistogram-go v1.1.2
	github.com/tickstamp/counter v0.1.0
)

require golang.org/x/sys v0.50.0 // indirect

replace github.com/tickstamp/counter => ../..
