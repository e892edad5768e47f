package counterprom

import (
	"maps"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// TestHalve checks that halve merges bucket i into bucket i>>1, from even
// and odd offsets, below 0, and where one bucket stays one.
func TestHalve(t *testing.T) {
	for _, tc := range []struct {
		name       string
		in         window
		wantOffset int32
		want       []uint64
		wantHeld   int
		wantSchema int32
	}{
		{"even offset", window{schema: 2, offset: 4, counts: []uint64{1, 2, 3, 4, 5}}, 2, []uint64{3, 7, 5}, 3, 1},
		{"odd offset", window{schema: 2, offset: 5, counts: []uint64{1, 2, 3, 4}}, 2, []uint64{1, 5, 4}, 3, 1},
		// Buckets −6 and −5 are bucket −3 a schema below, and −2 and −1
		// are −1: i>>1 rounds down.
		{"negative", window{schema: 0, offset: -6, counts: []uint64{2, 3, 0, 0, 1, 1}}, -3, []uint64{5, 0, 2}, 2, -1},
		{"one bucket", window{schema: -3, offset: -1, counts: []uint64{7}}, -1, []uint64{7}, 1, -4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := tc.in
			w.counts = slices.Clone(w.counts)
			w.halve()
			if w.offset != tc.wantOffset || !slices.Equal(w.counts, tc.want) || w.held != tc.wantHeld || w.schema != tc.wantSchema {
				t.Errorf("got offset %d, %v, held %d, schema %d; want %d, %v, %d, %d",
					w.offset, w.counts, w.held, w.schema, tc.wantOffset, tc.want, tc.wantHeld, tc.wantSchema)
			}
		})
	}
}

// TestWindowAdd adds counts to a window, in any order, at a bound drawn or
// none, and checks the window against a map of the same counts merged at
// the largest schema from the first down to −4 at which at most the bound
// hold spans, or −4 where none is: as the counts only grow, the schema each
// add leaves is the one that the final counts pick. The window keeps no
// room beyond its buckets.
func TestWindowAdd(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		from := rapid.Int32Range(-4, 8).Draw(t, "schema")
		most := rapid.IntRange(0, 20).Draw(t, "most")
		idx := rapid.SliceOf(rapid.Int32Range(-300, 300)).Draw(t, "indexes")
		w := window{schema: from}
		var ns []uint64
		for _, i := range idx {
			n := rapid.Uint64Range(1, 9).Draw(t, "n")
			ns = append(ns, n)
			w.add(i, from, n, most)
		}

		merged := func(s int32) map[int32]uint64 {
			m := map[int32]uint64{}
			for k, i := range idx {
				m[i>>(from-s)] += ns[k]
			}
			return m
		}
		schema := from
		for most > 0 && len(merged(schema)) > most && schema > -4 {
			schema--
		}
		want := merged(schema)
		got := map[int32]uint64{}
		for k, n := range w.counts {
			if n != 0 {
				got[w.offset+int32(k)] = n
			}
		}
		if w.schema != schema || !maps.Equal(got, want) || w.held != len(want) {
			t.Fatalf("schema %d, counts %v, held %d; want %d, %v, %d", w.schema, got, w.held, schema, want, len(want))
		}
		if len(w.counts) > 0 && (w.counts[0] == 0 || w.counts[len(w.counts)-1] == 0) {
			t.Fatalf("the window %v begins or ends with an empty bucket", w.counts)
		}
		if cap(w.counts) != len(w.counts) {
			t.Fatalf("the window has room for %d buckets; want its %d", cap(w.counts), len(w.counts))
		}
	})
}

// TestEncode checks encode against a decoding of what it returns: the
// window's counts by key, one above the index; spans that begin and end with
// a bucket that holds spans, a new span only past three empty buckets or
// more; and room for exactly the deltas it returns.
func TestEncode(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := window{offset: rapid.Int32Range(-50, 50).Draw(t, "offset")}
		w.counts = rapid.SliceOf(rapid.OneOf(rapid.Just[uint64](0), rapid.Uint64Range(1, 9))).Draw(t, "counts")
		for len(w.counts) > 0 && w.counts[0] == 0 {
			w.counts, w.offset = w.counts[1:], w.offset+1
		}
		for len(w.counts) > 0 && w.counts[len(w.counts)-1] == 0 {
			w.counts = w.counts[:len(w.counts)-1]
		}
		spans, deltas := w.encode()
		if len(w.counts) == 0 {
			if len(spans) != 1 || spans[0].GetOffset() != 0 || spans[0].GetLength() != 0 || len(deltas) != 0 {
				t.Fatalf("no buckets: spans %v, deltas %v; want a span of nothing", spans, deltas)
			}
			return
		}
		want := map[int32]uint64{}
		wantSpans := 1
		last := -1
		for k, n := range w.counts {
			if n == 0 {
				continue
			}
			want[w.offset+int32(k)+1] = n
			if last >= 0 && k-last-1 > 2 {
				wantSpans++
			}
			last = k
		}

		got := map[int32]uint64{}
		var key int32
		var count int64
		d := 0
		for i, sp := range spans {
			if i > 0 && sp.GetOffset() < 3 {
				t.Fatalf("span %d is %d past the last; want 3 or more", i, sp.GetOffset())
			}
			key += sp.GetOffset()
			for j := range sp.GetLength() {
				count += deltas[d]
				d++
				if (j == 0 || j == sp.GetLength()-1) && count == 0 {
					t.Fatalf("span %d begins or ends with an empty bucket", i)
				}
				if count != 0 {
					got[key] = uint64(count)
				}
				key++
			}
		}
		if d != len(deltas) || cap(deltas) != len(deltas) || len(spans) != wantSpans || !maps.Equal(got, want) {
			t.Fatalf("window %d+%v: %d spans, %d deltas of %d (room %d), counts %v; want %d spans, %v",
				w.offset, w.counts, len(spans), d, len(deltas), cap(deltas), got, wantSpans, want)
		}
	})
}
