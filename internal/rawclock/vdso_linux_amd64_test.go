//go:build !purego

package rawclock_test

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/tickstamp/counter/internal/rawclock"
)

// vdsoBase returns the vDSO's address from the auxiliary vector, skipping
// the test where the kernel maps none.
func vdsoBase(t *testing.T) uintptr {
	t.Helper()
	vec, err := unix.Auxv()
	if err != nil {
		t.Skipf("no auxiliary vector: %v", err)
	}
	for _, kv := range vec {
		if kv[0] == 33 { // AT_SYSINFO_EHDR
			return kv[1]
		}
	}
	t.Skip("the kernel maps no vDSO")
	return 0
}

// TestVdsoFound checks Open's choice: where the kernel maps a vDSO, it
// reads through its clock_gettime, and Kind says so.
func TestVdsoFound(t *testing.T) {
	vdsoBase(t)
	c := rawclock.Open(false)
	fn, err := c.Chosen()
	if fn == 0 || err != nil {
		t.Fatalf("the kernel maps a vDSO, but Read makes the system call: %v", err)
	}
	if k := c.Kind(); k != "vdso" {
		t.Errorf("Kind() = %q; want \"vdso\"", k)
	}
}

// TestVdsoCallAgreesWithSyscall calls the vDSO's clock_gettime, found
// afresh, through the assembly call, between two reads by the system call:
// it must succeed and lie between them, every time.
func TestVdsoCallAgreesWithSyscall(t *testing.T) {
	base := vdsoBase(t)
	fn, err := rawclock.VDSOFunc(base, rawclock.VDSOClockName, rawclock.VDSOClockVersion)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 20_000 {
		s0 := rawclock.Syscall()
		v, ok := rawclock.VDSOClockGettime(fn, unix.CLOCK_MONOTONIC_RAW)
		s1 := rawclock.Syscall()
		if !ok || v < s0 || s1 < v {
			t.Fatalf("call %d: the system call read %d, then the vDSO %d (%+d ns, ok %v), then the system call %d", i, s0, v, v-s0, ok, s1)
		}
	}
	// An unknown clock must come back as a failure, not a reading.
	if v, ok := rawclock.VDSOClockGettime(fn, -1000); ok {
		t.Errorf("the vDSO read clock -1000: %d; want a failure", v)
	}
}

// TestVdsoFallback forces the system call, with an auxiliary vector that
// names no vDSO, one that cannot be read, and a thread whose faults check
// says RDTSC faults: the choice must give no function and say why, and the
// read it leaves must read the raw clock, between two of the system call's
// reads and never back. The vDSO is looked up exactly where the thread does
// not fault, and chosen there.
func TestVdsoFallback(t *testing.T) {
	vec, err := unix.Auxv()
	if err != nil {
		t.Skipf("no auxiliary vector: %v", err)
	}
	var without [][2]uintptr
	for _, kv := range vec {
		if kv[0] != 33 {
			without = append(without, kv)
		}
	}
	for name, c := range map[string]struct {
		faults bool
		auxv   func() ([][2]uintptr, error)
	}{
		"no vDSO":   {false, func() ([][2]uintptr, error) { return without, nil }},
		"no vector": {false, func() ([][2]uintptr, error) { return nil, errors.New("refused") }},
		"faulting":  {true, unix.Auxv},
	} {
		asked := false
		fn, err := rawclock.Choose(c.faults, func() (uintptr, error) {
			asked = true
			return rawclock.FindVDSOClock(c.auxv)
		})
		if fn != 0 || err == nil {
			t.Fatalf("%s: found %#x, %v; want 0 and why", name, fn, err)
		}
		if asked == c.faults {
			t.Errorf("%s: the vDSO looked up %v; want it looked up exactly where the thread does not fault", name, asked)
		}
		t.Logf("%s: %v", name, err)
		last := int64(0)
		for i := range 2_000 {
			s0 := rawclock.Syscall()
			v := rawclock.Via(fn)
			s1 := rawclock.Syscall()
			if v < last || v < s0 || s1 < v {
				t.Fatalf("%s: read %d: %d between %d and %d, after %d", name, i, v, s0, s1, last)
			}
			last = v
		}
	}
	want, _ := rawclock.FindVDSOClock(unix.Auxv)
	if fn, err := rawclock.Open(false).Chosen(); fn != want {
		t.Errorf("on a thread that does not fault: %#x, %v; want %#x", fn, err, want)
	}
}

// TestVdsoLookupMatchesDebugELF finds the vDSO's clock_gettime with
// debug/elf, in a copy of the image, and checks that the package's look-up
// finds it at the same place; and that it finds nothing of another name or
// version.
func TestVdsoLookupMatchesDebugELF(t *testing.T) {
	base := vdsoBase(t)
	image, err := rawclock.VDSOImage(base)
	if err != nil {
		t.Fatal(err)
	}
	want := debugELFOffset(t, image, rawclock.VDSOClockName, rawclock.VDSOClockVersion)
	got, err := rawclock.ELFFuncOffset(image, rawclock.VDSOClockName, rawclock.VDSOClockVersion)
	if err != nil || got != want {
		t.Fatalf("the look-up gives %#x, %v; debug/elf %#x", got, err, want)
	}
	fn, err := rawclock.VDSOFunc(base, rawclock.VDSOClockName, rawclock.VDSOClockVersion)
	if err != nil || fn != base+uintptr(want) {
		t.Fatalf("in the mapped vDSO the look-up gives %#x, %v; want %#x", fn, err, base+uintptr(want))
	}
	for _, nv := range [][2]string{{rawclock.VDSOClockName, "LINUX_9.9"}, {"__vdso_no_such_thing", rawclock.VDSOClockVersion}} {
		if off, err := rawclock.ELFFuncOffset(image, nv[0], nv[1]); err == nil {
			t.Errorf("%s@%s found at %#x; want an error", nv[0], nv[1], off)
		}
	}
	t.Logf("%s@%s at %#x of a %d-byte image", rawclock.VDSOClockName, rawclock.VDSOClockVersion, want, len(image))
}

// debugELFOffset returns the image offset of the function name of version,
// as debug/elf finds it.
func debugELFOffset(t *testing.T, image []byte, name, version string) uint64 {
	t.Helper()
	f, ok := debugELFFuncs(t, image)[name+"@"+version]
	if !ok {
		t.Fatalf("debug/elf finds no %s@%s", name, version)
	}
	return f.off
}

// An elfFunc is a function of the dynamic symbol table: its image offset
// and its index in the table.
type elfFunc struct {
	off   uint64
	index int
}

// debugELFFuncs returns the defined global and weak functions of the
// image's dynamic symbol table by name@version, as debug/elf finds them.
func debugELFFuncs(t *testing.T, image []byte) map[string]elfFunc {
	t.Helper()
	f, err := elf.NewFile(bytes.NewReader(image))
	if err != nil {
		t.Fatalf("debug/elf: %v", err)
	}
	var load *elf.Prog
	for _, p := range f.Progs {
		if p.Type == elf.PT_LOAD {
			load = p
			break
		}
	}
	if load == nil {
		t.Fatal("debug/elf: no loadable segment")
	}
	syms, err := f.DynamicSymbols()
	if err != nil {
		t.Fatalf("debug/elf: %v", err)
	}
	funcs := make(map[string]elfFunc)
	for i, s := range syms {
		bind := elf.ST_BIND(s.Info)
		if elf.ST_TYPE(s.Info) != elf.STT_FUNC || bind != elf.STB_GLOBAL && bind != elf.STB_WEAK || s.Section == elf.SHN_UNDEF {
			continue
		}
		// DynamicSymbols leaves out the table's null symbol 0.
		funcs[s.Name+"@"+s.Version] = elfFunc{off: s.Value - load.Vaddr + load.Off, index: i + 1}
	}
	return funcs
}

// TestVdsoLookupTables edits the dynamic table of a copy of the vDSO's image
// so that the look-up must count the symbols from each hash table alone,
// and must do without versions: it must find every function debug/elf
// finds, at the same place, each way; and nothing with neither hash table,
// nor a function whose version was changed.
func TestVdsoLookupTables(t *testing.T) {
	image, err := rawclock.VDSOImage(vdsoBase(t))
	if err != nil {
		t.Fatal(err)
	}
	funcs := debugELFFuncs(t, image)
	const (
		dtHash, dtGNUHash, dtVersym, dtVerdef = 4, 0x6ffffef5, 0x6ffffff0, 0x6ffffffc
		dtDebug                               = 21 // a tag the look-up ignores
	)
	for _, c := range []struct {
		name  string
		hide  []uint64
		found bool
	}{
		{"as mapped", nil, true},
		{"DT_GNU_HASH alone", []uint64{dtHash}, true},
		{"DT_HASH alone", []uint64{dtGNUHash}, true},
		{"no versions", []uint64{dtVersym, dtVerdef}, true},
		{"no hash table", []uint64{dtHash, dtGNUHash}, false},
	} {
		img := bytes.Clone(image)
		for _, tag := range c.hide {
			e, ok := dynamicEntry(img, tag)
			if !ok {
				t.Fatalf("%s: the image has no tag %#x", c.name, tag)
			}
			binary.LittleEndian.PutUint64(img[e:], dtDebug)
		}
		for nv, f := range funcs {
			name, version, _ := strings.Cut(nv, "@")
			off, err := rawclock.ELFFuncOffset(img, name, version)
			switch {
			case c.found && (err != nil || off != f.off):
				t.Errorf("%s: %s: %#x, %v; want %#x", c.name, nv, off, err, f.off)
			case !c.found && err == nil:
				t.Errorf("%s: %s found at %#x; want an error", c.name, nv, off)
			}
		}
	}

	// The clock's function moved to the version index 1, the unversioned
	// global one: it must no longer be found as of its version.
	img := bytes.Clone(image)
	e, ok := dynamicEntry(img, dtVersym)
	if !ok {
		t.Fatal("the image has no DT_VERSYM")
	}
	versym := binary.LittleEndian.Uint64(img[e+8:]) - firstLoadBias(img)
	clock := funcs[rawclock.VDSOClockName+"@"+rawclock.VDSOClockVersion]
	binary.LittleEndian.PutUint16(img[versym+2*uint64(clock.index):], 1)
	if off, err := rawclock.ELFFuncOffset(img, rawclock.VDSOClockName, rawclock.VDSOClockVersion); err == nil {
		t.Errorf("with its version changed, %s is found at %#x; want an error", rawclock.VDSOClockName, off)
	}
}

// dynamicEntry returns the offset of the entry tagged tag in the dynamic
// table of the ELF64 image, and whether there is one.
func dynamicEntry(image []byte, tag uint64) (uint64, bool) {
	le := binary.LittleEndian
	phoff, phnum := le.Uint64(image[32:]), uint64(le.Uint16(image[56:]))
	for i := range phnum {
		ph := image[phoff+i*56:]
		if le.Uint32(ph) != 2 { // PT_DYNAMIC
			continue
		}
		off, size := le.Uint64(ph[8:]), le.Uint64(ph[32:])
		for d := off; d+16 <= off+size; d += 16 {
			if le.Uint64(image[d:]) == tag {
				return d, true
			}
		}
	}
	return 0, false
}

// firstLoadBias returns what to take from an address of the ELF64 image to
// make it an offset into it: the first loadable segment's address less its
// offset.
func firstLoadBias(image []byte) uint64 {
	le := binary.LittleEndian
	phoff, phnum := le.Uint64(image[32:]), uint64(le.Uint16(image[56:]))
	for i := range phnum {
		ph := image[phoff+i*56:]
		if le.Uint32(ph) == 1 { // PT_LOAD
			return le.Uint64(ph[16:]) - le.Uint64(ph[8:])
		}
	}
	return 0
}

// TestVdsoLookupMalformed gives the look-up cut and corrupted copies of the
// vDSO's image: it must never read past an image's end (which would panic),
// and whatever it finds must lie inside the image.
func TestVdsoLookupMalformed(t *testing.T) {
	image, err := rawclock.VDSOImage(vdsoBase(t))
	if err != nil {
		t.Fatal(err)
	}
	check := func(what string, img []byte) {
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("%s: the look-up panicked: %v", what, r)
			}
		}()
		off, err := rawclock.ELFFuncOffset(img, rawclock.VDSOClockName, rawclock.VDSOClockVersion)
		if err == nil && off >= uint64(len(img)) {
			t.Fatalf("%s: found at %#x, past the image's %d bytes", what, off, len(img))
		}
	}
	refused := 0
	for n := range len(image) {
		img := image[:n:n]
		check("cut to "+strconv.Itoa(n)+" bytes", img)
		if _, err := rawclock.ELFFuncOffset(img, rawclock.VDSOClockName, rawclock.VDSOClockVersion); err != nil {
			refused++
		}
	}
	if refused == 0 {
		t.Error("the look-up refused no cut image")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 20_000 {
		img := bytes.Clone(image)
		for range 1 + rng.IntN(8) {
			p := rng.IntN(len(img))
			if rng.IntN(2) == 0 {
				p = rng.IntN(min(len(img), 2048)) // the headers and tables the look-up reads
			}
			switch rng.IntN(3) {
			case 0:
				img[p] = byte(rng.Uint32())
			case 1:
				img[p] = 0xff
			default:
				img[p] = 0
			}
		}
		check("corruption "+strconv.Itoa(i), img)
	}
}
