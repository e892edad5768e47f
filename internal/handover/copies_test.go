package handover

import (
	"sync"
	"testing"
)

// TestCopiesAreBounded checks the Histogram doc's bound on the copies: the
// process keeps at most maxCopies of them, whatever took more at once,
// from one goroutine and from Intervals of 16 Collectors at once, each
// reading its writer's tally through a copy.
func TestCopiesAreBounded(t *testing.T) {
	held := make([]*Tally, 2*maxCopies+4)
	for i := range held {
		held[i] = copies.get()
	}
	for _, c := range held {
		copies.put(c)
	}
	if n := kept(); n != maxCopies {
		t.Fatalf("after %d copies given back, the list keeps %d; want %d", len(held), n, maxCopies)
	}
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			c := NewCollector(NoBarrier)
			w := c.NewWriter()
			var d Dist
			for i := range 200 {
				w.Record(int64(1000 + i)) // the last record: Interval copies the tally
				c.Interval(&d)
				if d.Count() != 1 {
					t.Errorf("the Interval holds %d spans; want 1", d.Count())
					return
				}
			}
		})
	}
	wg.Wait()
	if n := kept(); n > maxCopies {
		t.Fatalf("after Intervals of 16 Collectors at once, the list keeps %d copies; want at most %d", n, maxCopies)
	}
}

// kept returns how many copies the list keeps.
func kept() int {
	copies.mu.Lock()
	defer copies.mu.Unlock()
	return len(copies.free)
}
