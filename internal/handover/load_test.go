package handover

import (
	"slices"
	"sync"
	"sync/atomic"
	"testing"
)

// TestLoadCounts copies windows of every length up to 40, from storage
// aligned to 8 bytes and from one count past it (which takes a load a
// count), into storage of either kind, and checks each copy whole.
func TestLoadCounts(t *testing.T) {
	storage := make([]uint32, 64)
	for i := range storage {
		storage[i] = uint32(i)*2654435761 | 1
	}
	for n := range 41 {
		for _, from := range []int{0, 1} {
			src := storage[from : from+n]
			for _, to := range []int{0, 1} {
				dst := make([]uint32, 48)[to : to+n]
				loadCounts(dst, src)
				if !slices.Equal(dst, src) {
					t.Fatalf("%d counts from %d into %d: copied %v; want %v", n, from, to, dst, src)
				}
			}
		}
	}
}

// TestLoadCountsWhileStored copies counts that a writer keeps changing
// between two values whose halves differ, with the writer's own stores:
// every count copied is one of the two, never a mix.
func TestLoadCountsWhileStored(t *testing.T) {
	const a, b uint32 = 0x0000ffff, 0xffff0000
	src := make([]uint32, 64)
	for i := range src {
		src[i] = a
	}
	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Go(func() {
		for k := 0; !stop.Load(); k++ {
			v := a
			if k&1 == 1 {
				v = b
			}
			for i := range src {
				store32(&src[i], v)
			}
		}
	})
	dst := make([]uint32, len(src))
	for range 20000 {
		loadCounts(dst, src)
		for i, c := range dst {
			if c != a && c != b {
				stop.Store(true)
				wg.Wait()
				t.Fatalf("count %d copied as %#x; want %#x or %#x", i, c, a, b)
			}
		}
	}
	stop.Store(true)
	wg.Wait()
}
