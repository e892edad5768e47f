// Package byvalues keeps what a reader of a [counter.Family] holds for each
// series, found by the series' label values, and drops it once the family
// stops visiting the series. It is internal: export and the modules under
// export/ share it, and no user needs it.
//
// A reader of a Family cannot key its series by the order of a visit: a
// Family that forgets series ([counter.Family.ForgetIdle]) visits fewer,
// and a series it makes anew, or takes back, comes last. So a reader finds
// each series by its values and, at the end of each Interval, drops the
// series the Interval did not visit: the Family has forgotten them. Where
// their values come back, the reader starts a series anew.
package byvalues

import (
	"encoding/binary"
	"iter"
)

// A Table holds a reader's T for each series of a family, by the series'
// values, which are not nil. A round is one Interval of the family. The
// zero Table is empty and ready.
type Table[T any] struct {
	byKey map[string]*entry[T]
	all   []*entry[T] // in the order first found
	key   []byte      // Find's, kept to allocate nothing
	round uint64
}

type entry[T any] struct {
	key  string
	seen uint64 // the last round that found it
	v    T
}

// Begin begins a round: one Interval of the family.
func (t *Table[T]) Begin() { t.round++ }

// Find returns the T of the series of values, and marks it found in this
// round; it reports false, and returns the zero T, where there is none.
// It allocates nothing.
func (t *Table[T]) Find(values []string) (T, bool) {
	t.key = appendKey(t.key[:0], values)
	if e := t.byKey[string(t.key)]; e != nil {
		e.seen = t.round
		return e.v, true
	}
	var zero T
	return zero, false
}

// Add adds v as the T of the series of values, which Find did not find in
// this round, found in this round; the table keeps a copy of the values.
func (t *Table[T]) Add(values []string, v T) {
	if t.byKey == nil {
		t.byKey = make(map[string]*entry[T])
	}
	e := &entry[T]{key: string(appendKey(nil, values)), seen: t.round, v: v}
	t.byKey[e.key] = e
	t.all = append(t.all, e)
}

// Sweep drops the T of each series that this round did not find, but
// where keep, if not nil, reports that it must stay.
func (t *Table[T]) Sweep(keep func(T) bool) {
	n := 0
	for _, e := range t.all {
		if e.seen == t.round || keep != nil && keep(e.v) {
			t.all[n] = e
			n++
			continue
		}
		delete(t.byKey, e.key)
	}
	clear(t.all[n:])
	t.all = t.all[:n]
}

// All returns each T, in the order first added, with whether this round
// found it.
func (t *Table[T]) All() iter.Seq2[T, bool] {
	return func(yield func(T, bool) bool) {
		for _, e := range t.all {
			if !yield(e.v, e.seen == t.round) {
				return
			}
		}
	}
}

// Len returns how many series the table holds.
func (t *Table[T]) Len() int { return len(t.all) }

// appendKey appends the key of values to b: each value's length as a
// uvarint, then the value, so that two sets of values have one key only
// where they are equal.
func appendKey(b []byte, values []string) []byte {
	for _, v := range values {
		b = binary.AppendUvarint(b, uint64(len(v)))
		b = append(b, v...)
	}
	return b
}
