package counterprom

import (
	"strconv"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/tickstamp/counter"
)

// TestFamilyForgetFreesSeries: a FamilyCollector keeps a series of each
// set the Family visits, and none once the Family has forgotten them, so
// that its memory follows the Family's.
func TestFamilyForgetFreesSeries(t *testing.T) {
	f, err := counter.NewFamily([]string{"k"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.ForgetIdle(1); err != nil {
		t.Fatal(err)
	}
	r, err := counter.NewTickRate(1e9)
	if err != nil {
		t.Fatal(err)
	}
	c := NewFamily(f, r, Opts{Name: "m_seconds"})
	collect := func() int {
		ch := make(chan prometheus.Metric, 1024)
		c.Collect(ch)
		close(ch)
		n := 0
		for range ch {
			n++
		}
		return n / 3
	}
	const sets = 100
	for i := range sets {
		f.With(strconv.Itoa(i)).Record(1)
	}
	for i, want := range []int{sets, sets, 0} { // the second finds them idle
		if got := collect(); got != want || c.members.Len() != want {
			t.Errorf("collection %d: %d series sent, %d kept; want %d", i, got, c.members.Len(), want)
		}
	}
}
