//go:build !purego

package rawclock

import (
	"bytes"
	"debug/elf"
	"testing"

	"golang.org/x/sys/unix"
)

// vdsoCopy returns a copy of the vDSO's image and debug/elf's reading of
// it, skipping the test where the kernel maps no vDSO.
func vdsoCopy(t *testing.T) (*elfReader, *elf.File) {
	t.Helper()
	vec, err := unix.Auxv()
	if err != nil {
		t.Skipf("no auxiliary vector: %v", err)
	}
	var base uintptr
	for _, kv := range vec {
		if kv[0] == atSysinfoEHDR {
			base = kv[1]
		}
	}
	if base == 0 {
		t.Skip("the kernel maps no vDSO")
	}
	image, err := VDSOImage(base)
	if err != nil {
		t.Fatal(err)
	}
	f, err := elf.NewFile(bytes.NewReader(image))
	if err != nil {
		t.Fatalf("debug/elf: %v", err)
	}
	return &elfReader{b: image}, f
}

// TestELFPhases holds each phase of the look-up, on the vDSO as mapped, to
// what debug/elf reads there: the segments, the tables the dynamic table
// places, and the version's index (none for a version not defined).
func TestELFPhases(t *testing.T) {
	r, f := vdsoCopy(t)
	load, dynamic, err := elfSegments(r)
	if err != nil {
		t.Fatal(err)
	}
	var wantLoad, wantDyn *elf.Prog
	for _, p := range f.Progs {
		switch {
		case p.Type == elf.PT_LOAD && wantLoad == nil:
			wantLoad = p
		case p.Type == elf.PT_DYNAMIC:
			wantDyn = p
		}
	}
	if wantLoad == nil || wantDyn == nil {
		t.Fatal("debug/elf finds no loadable segment or no dynamic table")
	}
	for _, c := range []struct {
		name string
		got  elfPhdr
		want *elf.Prog
	}{{"PT_LOAD", load, wantLoad}, {"PT_DYNAMIC", dynamic, wantDyn}} {
		if c.got.p_offset != c.want.Off || c.got.p_vaddr != c.want.Vaddr || c.got.p_filesz != c.want.Filesz || c.got.p_memsz != c.want.Memsz {
			t.Errorf("%s: %+v; debug/elf %+v", c.name, c.got, c.want.ProgHeader)
		}
	}

	tabs, err := elfDynamicTables(r, load, dynamic)
	if err != nil {
		t.Fatal(err)
	}
	bias := wantLoad.Vaddr - wantLoad.Off
	for tag, got := range map[elf.DynTag]uint64{elf.DT_SYMTAB: tabs.symtab, elf.DT_STRTAB: tabs.strtab, elf.DT_VERSYM: tabs.versym, elf.DT_VERDEF: tabs.verdef} {
		want, err := f.DynValue(tag)
		if err != nil || len(want) != 1 {
			t.Fatalf("debug/elf: %v: %v, %v", tag, want, err)
		}
		if got != want[0]-bias {
			t.Errorf("%v at %#x; debug/elf %#x", tag, got, want[0]-bias)
		}
	}

	nsyms, ok := elfSymbolCount(r, tabs.hash, tabs.gnuHash)
	syms, err := f.DynamicSymbols()
	if err != nil {
		t.Fatalf("debug/elf: %v", err)
	}
	if !ok || nsyms != uint64(len(syms))+1 { // DynamicSymbols leaves out the null symbol 0
		t.Errorf("%d symbols, %v; debug/elf %d and the null symbol", nsyms, ok, len(syms))
	}

	if ver, err := elfVersionIndex(r, tabs, vdsoClockVersion); err != nil || ver < 2 {
		t.Errorf("%s has index %d, %v; want one of 2 up (0 and 1 are local and global)", vdsoClockVersion, ver, err)
	}
	if ver, err := elfVersionIndex(r, tabs, "LINUX_9.9"); err == nil {
		t.Errorf("LINUX_9.9 has index %d; want an error", ver)
	}
	if ver, err := elfVersionIndex(r, elfTables{symtab: tabs.symtab, strtab: tabs.strtab}, vdsoClockVersion); ver != -1 || err != nil {
		t.Errorf("without version tables: %d, %v; want -1 and no error", ver, err)
	}
	if off, err := elfFindFunc(r, tabs, nsyms, -1, load, "__vdso_no_such_thing", vdsoClockVersion); err == nil {
		t.Errorf("a function of no such name found at %#x", off)
	}
}
