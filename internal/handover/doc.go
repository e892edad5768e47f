// Package handover is the hand-over of a distribution's records from their
// writers to one reader: each writer records into a tally of its own with
// plain stores, and the reader takes the tally, whatever the writer is
// doing, without its help and without waiting for it. It holds the
// writer's state (Writer), the tally (Tally), the journal a record keeps
// of itself, the reader's view of a record in flight (flight), the barrier
// (Barrier), the stores (store_*.go) and the reader (Collector). The root
// package's Histogram, Recorder and Snapshot are built on it.
//
// # The writer
//
// A record says what it does before it does it, with stores in this order
// (Writer.Record for a span that fits its tally, Writer.put for any other):
//
//	#  Record              put                   what it stores
//	1  seq = s             seq = s               a new number: s%4 == 1 (Record) or 3 (put)
//	2  jd = d              jd = d                the span
//	3                      jkind = k             its kind
//	4  t = cur (a load)    t = cur (a load)      the tally it writes
//	5  jlo                 jlo, jhi, jUnknown    t's sum and unknownCPU after it
//	6  jmark               jmark                 the count it leaves, t's generation, s's low 30 bits
//	7  t.counts[i]         the count of k        (Tally.of says which)
//	7b t.touched           t.touched             the bit of count i's chunk, where i is in the window
//	8  t.lo                t.lo, t.hi            where k is summed
//	9  t.max, t.min        t.max, t.min          where k is summed and d is past them
//	10                     t.unknownCPU          where k is KindUnknown
//	12 done = s            done = s              the record has ended
//
// RecordExemplar is Record for a span with an exemplar, and put takes one
// too, for a span in the distribution. Where the tally keeps the exemplar
// (the span is the slowest of its slot's group there: exemplars.keeps),
// the record makes two more rows, decided after row 4:
//
//	5a jex, jexTag         jex, jexTag           the exemplar, and the record's seq with exKept
//	11 the slot            the slot              its span, exemplar and seq (exemplars.put)
//
// Nothing is stored when a record ends: the next one's seq says it has. A
// record that finds t cannot take it (a bucket outside t's window, a full
// count, a closed writer, or on Record's path a negative span or a sum
// that carries) returns before row 5, and slow puts a fresh tally in front
// of t (of a wider window where the bucket was outside) and begins another
// record through put.
//
// The proof below needs exactly four orders of the writer's, and the
// barrier:
//
//   - R1, seq first: row 1 before every other row, the load of row 4
//     included. Stores keep their order (amd64 keeps them; elsewhere they are
//     atomic), but a load may pass an earlier plain store, which only the
//     reader's barrier prevents.
//   - R2, the journal before its mark: rows 2, 3 and 5 before row 6. The
//     reader trusts a journal word only where jmark is the record's.
//   - R3, the mark before the tally: row 6 before rows 7 to 11. A copy of
//     the tally that saw any of the record's stores to it then sees its
//     mark too, since the reader loads jmark after it copies.
//   - R4, done last: row 12 after every other. A reader that finds done
//     equal to the record's seq, with seq unmoved, knows the record has
//     ended and every store of it is visible, as if a later record had
//     begun; it takes the tally whole, without a copy (reading the
//     journal to learn which tally the record wrote), and where it finds
//     done older, it does what it would without done, which is never
//     wrong: done only spares it work.
//   - The barrier (Barrier.pass) between the reader's swap of every tally
//     it takes and its first read of a journal.
//
// Row 5a is a journal word, under R2, and row 11 a store to the tally,
// under R3. So an exemplar is whole in every case below, and in the same
// Interval as its span: where the reader takes the record from the journal
// (flight.place, or the copy's values, journal.placeIn), jexTag names the
// record and jex is whole, and placeIn writes it over the copy's slot,
// which may be torn; where the copy saw none of the record's stores, it saw
// none of its slot, and once the record has ended its slot, named by its
// seq, is whole in the tally (flight.finish, exemplars.since); and a tally
// taken complete has every slot whole.
//
// Row 7b is a hint to the reader, a store to the tally under R3 and R4:
// it reads a tally's counts only in the chunks touched names
// (Dist.takeTouched), so that its work follows the spans recorded, not
// the window. A tally it takes complete has the bit of every count not 0;
// a copy, which may have seen R's count and not its bit, takes the bit of
// R's bucket with R's values where it takes them (journal.placeIn), and
// otherwise saw neither (R3).
//
// Every other order is free, and a change to one is no change to the
// proof: rows 2, 3 and 5 in any order among themselves and with the load
// (where the data allow: row 5 needs t); rows 7 to 11 in any order among
// themselves, since the reader never takes a tally that a record is
// writing as it finds it (where the mark is visible it takes the record's
// words from the journal, where it is not the copy saw none of them, and
// it reads the words of a held tally only once a later record has begun).
// TestMutations (mutation_test.go) makes each such change, and each
// omission of a store or of the barrier, in a scratch copy: every change
// the proof forbids fails a test of the handoverstep build, and every
// change it allows passes.
//
// # The reader
//
// Collector.Interval loads each writer's seq, swaps its tally cur for a
// spare and then passes the barrier, which makes every thread of the
// process pass a full barrier. After that, a record whose seq Interval did
// not see loads cur after the swap (R1); the one whose seq it saw, R, may
// write either tally, and every record before R has ended and is visible.
// Interval copies the old tally and then reads the journal, and seq again:
// where seq has moved, R has ended and the old tally is complete, so it
// takes it whole (where seq has moved before the copy already, it takes it
// whole without one). Otherwise:
//
//   - where jmark is not R's, none of R's stores to a tally was visible
//     during the copy (R3), so the copy is exact without R. The old tally
//     waits aside (flight.hold): once a later record begins, R has ended,
//     and where the words R changes differ from the copy's, R wrote there,
//     and they say what R recorded (flight.finish). Where jmark becomes R's
//     first, it names R's tally, and R goes to that Interval
//     (flight.place).
//   - where jmark is R's and names another tally, the old one is exact as
//     copied, and R belongs to the tally it names (flight.place).
//   - where jmark is R's and names the old tally, the copy takes the values
//     R leaves there (R2: jmark's count, jlo and the others, jd for the
//     bounds): R is in this Interval, and the old tally is let go to the
//     garbage collector, never reused, since R may still write it
//     (flight.counted).
//
// A tally waits aside only while R is the writer's last record and not in
// a Dist, so at most two do, and with the one installed R has three candidates, which their
// generations, counted modulo 4 at each swap, tell apart. The writer may
// have put tallies in front of the one installed since the swap (R's seq
// is loaded after the barrier, and records may have begun meanwhile): each
// takes the generation of the one it is put in front of, so they are one
// candidate, of which R can write only the newest, the others having been
// given up by the records that put a tally in front of them. (Counting a
// generation at each tally put in front would let four such tallies wrap
// to the swapped one's: TestWidenedBetweenSwapAndJournal.) So every record
// is in exactly one Interval, and Interval never waits for a writer.
//
// # Writers with a lock
//
// A writer listed with ListLocked holds a lock word throughout each record,
// as a Histogram's shard does. Interval tries that lock with a
// compare-and-swap and, where it takes it, swaps the tally out holding it
// (Collector.takeWhole): no record is under way, every record before has
// ended and is visible (the lock's compare-and-swap follows its release, a
// store after every store of the record), and the writer's next record,
// which takes the lock after the reader gives it up, loads the new tally.
// So the tally is whole: Interval reads it without a copy, a journal or
// the barrier, by the chunks it touched. Where the lock is held, Interval
// never waits: it takes the tally as any writer's, as above. The
// handoverstep build runs every case of the table with such a writer too,
// and TestMutations takes the tally without the lock's try.
//
// # Memory
//
// A tally counts a window of buckets (Tally), so a writer holds what its
// spans cover, and a Dist likewise. The slots of exemplars are allocated
// only for a tally whose writer records one (a record with an exemplar
// puts a tally that keeps them in front of one that does not, as for a
// window too narrow), and for a Dist that is given one. The reader installs a bare tally in
// place of the one it takes, which the writer's next span fills (slow puts
// a tally of the window the bare one stands for in front of it: the
// writer's spare, the tally the reader emptied and left it, or one of the
// Collector's pool of eight, or a new one), and lets go the tally an idle
// writer's last record may still write after two Intervals
// (flight.idled). A writer made by NewWriter gives its first SpillSpans
// records to the Collector's spill, where it has one (a Histogram's locked
// shards), so that a writer that records a few spans and is dropped takes
// no tally and no place on the list.
//
// # Nothing waits
//
// A writer and the reader share no lock: what they share is atomic words,
// each changed in one step. A writer that attaches pushes itself on a
// stack the next Interval takes whole (Collector.incoming); a spare is
// left and taken with one swap (Writer.spare, the pool's slots); Close
// stores one word, the writer's seq plus 1 (Writer.closedAt). So neither
// side waits for the other, whatever the operating system does to the
// other's thread; Intervals take turns among themselves (c.interval).
//
// Interval takes a writer off its list (Collector.retire) once no record
// has begun since it last took its tally, the tally installed is the bare
// one it left, and the writer is closed or found so idle by one Interval
// before (idleRetire): it clears attached, then swaps the bare tally for
// closed. A record that loaded the bare tally stores nothing to it (its
// window holds no bucket), and one that loads closed attaches the writer
// again, pushing it where attached is clear: so the writer is listed
// wherever it holds a tally (TestRetireRacesARecord makes a record at each
// of the two steps). A closed writer's last record has ended where its
// seq is still the one Close stored: its tally is then complete, and
// Interval reads it whole and gives it back at once. An idle writer whose
// last record the reader took in flight, in a Dist already, lets the tally
// that record may still write go to the garbage collector, never reused;
// one whose record is not yet in a Dist stays listed until it is. So a
// closed writer holds its tally until the next Interval and its place one
// more, a writer dropped without Close both for two Intervals after its
// last record, and the garbage collector frees either whenever it finds
// it, the Collector holding no reference to it. The new tally of
// a writer that attaches again takes the generation of the one Interval
// last took off it, as a tally put in front would. Intervals takes the
// Intervals of several Collectors behind one barrier; where the caller's
// visit panics, the Collectors it did not reach end into their next
// Interval.
//
// # The barrier
//
// Where the writers' stores are atomic the barrier is none. On amd64 it is
// membarrier(2) where the kernel lets the process register for it, and a
// stop of the world (runtime.ReadMemStats) otherwise. A membarrier that
// fails after its registration, as one refused by a seccomp filter
// installed later does, is replaced by a stop of the world for that
// Interval and every one after: the barrier never fails.
//
// # Checking it
//
// The handoverstep build tag compiles a hook after each row of the table
// (step) and at each ordered event of the reader (trace); in every other
// build both are empty and inline to nothing. Its tests stop a real writer
// after each row, run Intervals there, and check that the record is in
// exactly one of them, whole:
//
//	go test -tags handoverstep ./internal/handover
//	COUNTER_MUTATE=1 go test -run TestMutations ./internal/handover
package handover
