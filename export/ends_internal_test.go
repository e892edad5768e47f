package export

// InsideForTest is inside, for the tests of package export_test, which
// check it against Take.
func (e *Ends) InsideForTest(i int) bool { return e.inside(i) }
