package counter

// shardCount returns how many shards h has.
func (h *Histogram) shardCount() int { return len(h.shards.Load().shards) }

// listedShards returns how many of h's shards its collector lists as of
// its last Interval: all but those whose tally an Interval gave back and
// that have recorded nothing since.
func (h *Histogram) listedShards() int {
	h.sweeping.Lock()
	defer h.sweeping.Unlock()
	n := 0
	for _, s := range h.shards.Load().shards {
		if s.idle < idleIntervals {
			n++
		}
	}
	return n
}
