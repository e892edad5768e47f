//go:build !purego

// Finding a function in the vDSO, the shared object the kernel maps into
// every process: its ELF header, program headers, dynamic table, symbol
// table and version definitions, read from the image as mapped, every
// offset checked against the image's end.

package rawclock

import (
	"encoding/binary"
	"errors"
	"unsafe"
)

// The ELF constants the look-up needs (ELF64, as on amd64).
const (
	atSysinfoEHDR = 33 // the auxiliary vector's entry for the vDSO's address

	elfHeaderSize  = 64
	elfPhdrSize    = 56
	elfShdrSize    = 64
	elfDynSize     = 16
	elfSymSize     = 24
	elfClass64     = 2
	elfDataLSB     = 1
	elfTypeDyn     = 3  // ET_DYN: a shared object
	elfMachineAMD  = 62 // EM_X86_64
	elfPTLoad      = 1
	elfPTDynamic   = 2
	elfDTNull      = 0
	elfDTHash      = 4
	elfDTStrtab    = 5
	elfDTSymtab    = 6
	elfDTStrsz     = 10
	elfDTGNUHash   = 0x6ffffef5
	elfDTVersym    = 0x6ffffff0
	elfDTVerdef    = 0x6ffffffc
	elfSTTNotype   = 0
	elfSTTFunc     = 2
	elfSTBGlobal   = 1
	elfSTBWeak     = 2
	elfVerFlagBase = 1 // the version definition of the file itself
	elfMaxVerdefs  = 64

	// maxVDSOSize is the largest image the look-up reads: the vDSO is a
	// few pages, and a header that claims more is not the vDSO's.
	maxVDSOSize = 1 << 20
)

// vdsoFunc returns the address of the function name of version in the vDSO
// whose ELF header the kernel put at base (the auxiliary vector's
// AT_SYSINFO_EHDR), or an error that says why it is not there. It reads
// only the vDSO's own image, whose size it takes from the ELF header (the
// section headers end the file) after checking that the header is one of an
// amd64 shared object of a sane size.
func vdsoFunc(base uintptr, name, version string) (uintptr, error) {
	if base == 0 || base%4096 != 0 {
		return 0, errors.New("counter: the vDSO's address is not that of a page")
	}
	p := *(*unsafe.Pointer)(unsafe.Pointer(&base)) // memory the kernel mapped, not Go's
	size, err := vdsoImageSize(unsafe.Slice((*byte)(p), elfHeaderSize))
	if err != nil {
		return 0, err
	}
	off, err := elfFuncOffset(unsafe.Slice((*byte)(p), size), name, version)
	if err != nil {
		return 0, err
	}
	return base + uintptr(off), nil
}

// vdsoImageSize returns the size of the ELF image whose header is hdr: the
// end of its section headers, which end the vDSO's file. It refuses a
// header that is not an amd64 shared object's, and a size that is not sane:
// smaller than its program headers' end, or over maxVDSOSize.
func vdsoImageSize(hdr []byte) (int, error) {
	if len(hdr) < elfHeaderSize || string(hdr[:4]) != "\x7fELF" {
		return 0, errors.New("counter: the vDSO has no ELF header")
	}
	r := &elfReader{b: hdr}
	h := r.ehdr()
	switch {
	case h.e_ident[elfIdentClass] != elfClass64 || h.e_ident[elfIdentData] != elfDataLSB || h.e_type != elfTypeDyn || h.e_machine != elfMachineAMD:
		return 0, errors.New("counter: the vDSO is not an amd64 shared object")
	case h.e_phentsize != elfPhdrSize || h.e_shentsize != elfShdrSize || h.e_shnum == 0 || h.e_phnum == 0:
		return 0, errors.New("counter: the vDSO's ELF header has no sane table sizes")
	case h.e_shoff < elfHeaderSize || h.e_shoff > maxVDSOSize || h.e_phoff < elfHeaderSize || h.e_phoff > maxVDSOSize:
		return 0, errors.New("counter: the vDSO's ELF header has no sane table offsets")
	}
	size := h.e_shoff + uint64(h.e_shnum)*elfShdrSize
	if size > maxVDSOSize || h.e_phoff+uint64(h.e_phnum)*elfPhdrSize > size {
		return 0, errors.New("counter: the vDSO's ELF header gives no sane size")
	}
	return int(size), nil
}

// The ELF64 structures the look-up reads, with the ELF specification's
// names for their fields (as the runtime's vdso_elf64.go names them). The
// elfReader's methods ehdr, phdrAt, dynAt, symAt, verdefAt, verdauxAt and
// gnuHashAt decode them from the image.
type (
	// elfEhdr is the ELF header, Elf64_Ehdr.
	elfEhdr struct {
		e_ident     [16]byte
		e_type      uint16
		e_machine   uint16
		e_version   uint32
		e_entry     uint64
		e_phoff     uint64
		e_shoff     uint64
		e_flags     uint32
		e_ehsize    uint16
		e_phentsize uint16
		e_phnum     uint16
		e_shentsize uint16
		e_shnum     uint16
		e_shstrndx  uint16
	}

	// elfPhdr is a program header, Elf64_Phdr.
	elfPhdr struct {
		p_type   uint32
		p_flags  uint32
		p_offset uint64
		p_vaddr  uint64
		p_paddr  uint64
		p_filesz uint64
		p_memsz  uint64
		p_align  uint64
	}

	// elfDyn is an entry of the dynamic table, Elf64_Dyn.
	elfDyn struct {
		d_tag uint64
		d_val uint64
	}

	// elfSym is a symbol, Elf64_Sym.
	elfSym struct {
		st_name  uint32
		st_info  uint8
		st_other uint8
		st_shndx uint16
		st_value uint64
		st_size  uint64
	}

	// elfVerdef is a version definition, Elf64_Verdef; its name is in the
	// first of its auxiliary entries, vd_aux bytes on.
	elfVerdef struct {
		vd_version uint16
		vd_flags   uint16
		vd_ndx     uint16
		vd_cnt     uint16
		vd_hash    uint32
		vd_aux     uint32
		vd_next    uint32
	}

	// elfVerdaux is a version definition's auxiliary entry, Elf64_Verdaux.
	elfVerdaux struct {
		vda_name uint32
		vda_next uint32
	}

	// elfGNUHash is the header of a DT_GNU_HASH table: its bucket count,
	// the index of the first symbol it hashes, and its bloom filter's size
	// in 64-bit words and shift. The bloom filter, the buckets and the
	// chains follow it.
	elfGNUHash struct {
		nbuckets    uint32
		symoffset   uint32
		bloom_size  uint32
		bloom_shift uint32
	}
)

// Offsets into e_ident.
const (
	elfIdentClass = 4
	elfIdentData  = 5
)

// elfReader reads the fields of an ELF64 little-endian image. A read past
// the image's end returns 0 and sets bad, which the look-up checks before it
// trusts what it read.
type elfReader struct {
	b   []byte
	bad bool
}

// in reports whether n bytes at off lie in the image, setting bad where not.
func (r *elfReader) in(off, n uint64) bool {
	if off > uint64(len(r.b)) || uint64(len(r.b))-off < n {
		r.bad = true
		return false
	}
	return true
}

func (r *elfReader) u8(off uint64) uint8 {
	if !r.in(off, 1) {
		return 0
	}
	return r.b[off]
}

func (r *elfReader) u16(off uint64) uint16 {
	if !r.in(off, 2) {
		return 0
	}
	return binary.LittleEndian.Uint16(r.b[off:])
}

func (r *elfReader) u32(off uint64) uint32 {
	if !r.in(off, 4) {
		return 0
	}
	return binary.LittleEndian.Uint32(r.b[off:])
}

func (r *elfReader) u64(off uint64) uint64 {
	if !r.in(off, 8) {
		return 0
	}
	return binary.LittleEndian.Uint64(r.b[off:])
}

// strIs reports whether the NUL-terminated string at index i of the string
// table of n bytes at off is s.
func (r *elfReader) strIs(off, n, i uint64, s string) bool {
	if i >= n || !r.in(off+i, 0) {
		return false
	}
	str := r.b[off+i:]
	str = str[:min(uint64(len(str)), n-i)]
	return len(str) > len(s) && string(str[:len(s)]) == s && str[len(s)] == 0
}

// ehdr decodes the ELF header, at the image's start.
func (r *elfReader) ehdr() elfEhdr {
	var h elfEhdr
	if r.in(0, elfHeaderSize) {
		copy(h.e_ident[:], r.b)
	}
	h.e_type, h.e_machine, h.e_version = r.u16(16), r.u16(18), r.u32(20)
	h.e_entry, h.e_phoff, h.e_shoff, h.e_flags = r.u64(24), r.u64(32), r.u64(40), r.u32(48)
	h.e_ehsize, h.e_phentsize, h.e_phnum = r.u16(52), r.u16(54), r.u16(56)
	h.e_shentsize, h.e_shnum, h.e_shstrndx = r.u16(58), r.u16(60), r.u16(62)
	return h
}

// phdrAt decodes the program header at off.
func (r *elfReader) phdrAt(off uint64) elfPhdr {
	return elfPhdr{
		p_type: r.u32(off), p_flags: r.u32(off + 4),
		p_offset: r.u64(off + 8), p_vaddr: r.u64(off + 16), p_paddr: r.u64(off + 24),
		p_filesz: r.u64(off + 32), p_memsz: r.u64(off + 40), p_align: r.u64(off + 48),
	}
}

// dynAt decodes the dynamic table's entry at off.
func (r *elfReader) dynAt(off uint64) elfDyn {
	return elfDyn{d_tag: r.u64(off), d_val: r.u64(off + 8)}
}

// symAt decodes the symbol at off.
func (r *elfReader) symAt(off uint64) elfSym {
	return elfSym{
		st_name: r.u32(off), st_info: r.u8(off + 4), st_other: r.u8(off + 5), st_shndx: r.u16(off + 6),
		st_value: r.u64(off + 8), st_size: r.u64(off + 16),
	}
}

// verdefAt decodes the version definition at off.
func (r *elfReader) verdefAt(off uint64) elfVerdef {
	return elfVerdef{
		vd_version: r.u16(off), vd_flags: r.u16(off + 2), vd_ndx: r.u16(off + 4), vd_cnt: r.u16(off + 6),
		vd_hash: r.u32(off + 8), vd_aux: r.u32(off + 12), vd_next: r.u32(off + 16),
	}
}

// verdauxAt decodes the version definition's auxiliary entry at off.
func (r *elfReader) verdauxAt(off uint64) elfVerdaux {
	return elfVerdaux{vda_name: r.u32(off), vda_next: r.u32(off + 4)}
}

// gnuHashAt decodes the header of the DT_GNU_HASH table at off.
func (r *elfReader) gnuHashAt(off uint64) elfGNUHash {
	return elfGNUHash{nbuckets: r.u32(off), symoffset: r.u32(off + 4), bloom_size: r.u32(off + 8), bloom_shift: r.u32(off + 12)}
}

// elfFuncOffset returns the offset into image, a whole ELF64 little-endian
// shared object as mapped, of the function name of version: a global or
// weak symbol, defined, of type function (or no type), whose version is
// version (any, where the image defines no versions), and whose code lies
// in the image's first loadable segment. It returns an error, and reads
// nothing past the image's end, where the image is malformed or the
// function is not there.
//
// It reads in the order the tables point to one another: the program
// headers (elfSegments), the dynamic table (elfDynamicTables), the hash
// table for the symbols' count (elfSymbolCount), the version definitions
// (elfVersionIndex), and the symbols (elfFindFunc).
func elfFuncOffset(image []byte, name, version string) (uint64, error) {
	r := &elfReader{b: image}
	load, dynamic, err := elfSegments(r)
	if err != nil {
		return 0, err
	}
	tabs, err := elfDynamicTables(r, load, dynamic)
	if err != nil {
		return 0, err
	}
	nsyms, ok := elfSymbolCount(r, tabs.hash, tabs.gnuHash)
	if !ok || !r.in(tabs.symtab, nsyms*elfSymSize) {
		return 0, errors.New("counter: the vDSO's symbol table lies outside it")
	}
	ver, err := elfVersionIndex(r, tabs, version)
	if err != nil {
		return 0, err
	}
	return elfFindFunc(r, tabs, nsyms, ver, load, name, version)
}

// elfSegments returns the program headers the look-up needs: the first
// loadable segment, which maps the image from its start and places every
// address the tables give, and the dynamic table's (the last, where there
// are several). Each must lie in the image.
func elfSegments(r *elfReader) (load, dynamic elfPhdr, err error) {
	h := r.ehdr()
	phnum := uint64(h.e_phnum)
	if r.bad || !r.in(h.e_phoff, phnum*elfPhdrSize) {
		return load, dynamic, errors.New("counter: the vDSO's program headers lie outside it")
	}
	var haveLoad, haveDyn bool
	for i := range phnum {
		ph := r.phdrAt(h.e_phoff + i*elfPhdrSize)
		switch ph.p_type {
		case elfPTLoad:
			if !haveLoad {
				load, haveLoad = ph, true
			}
		case elfPTDynamic:
			dynamic, haveDyn = ph, true
		}
	}
	if !haveLoad || !haveDyn || !r.in(load.p_offset, load.p_filesz) || !r.in(dynamic.p_offset, dynamic.p_filesz) {
		return load, dynamic, errors.New("counter: the vDSO has no loadable segment or no dynamic table")
	}
	return load, dynamic, nil
}

// imageOffset returns the image offset of the address a, which load, the
// first loadable segment, places; false where that lies past the image.
func (r *elfReader) imageOffset(load elfPhdr, a uint64) (uint64, bool) {
	if a < load.p_vaddr || a-load.p_vaddr >= uint64(len(r.b))-load.p_offset {
		return 0, false
	}
	return a - load.p_vaddr + load.p_offset, true
}

// elfTables are where the dynamic table puts the tables the look-up reads,
// as offsets into the image: the symbols, their names (strsz bytes of
// them), their hash tables (which give their count) and their versions; 0,
// where the ELF header is, for a table the image lacks.
type elfTables struct {
	symtab, strtab, strsz uint64
	hash, gnuHash         uint64
	versym, verdef        uint64
}

// elfDynamicTables reads the dynamic table, in the segment dynamic, up to
// its DT_NULL, placing each table's address with load. It refuses an
// address past the image, and a table without symbols, their names or a
// hash table.
func elfDynamicTables(r *elfReader, load, dynamic elfPhdr) (elfTables, error) {
	t := elfTables{strsz: uint64(len(r.b))}
	for i := range dynamic.p_filesz / elfDynSize {
		d := r.dynAt(dynamic.p_offset + i*elfDynSize)
		if r.bad || d.d_tag == elfDTNull {
			break
		}
		var dst *uint64
		switch d.d_tag {
		case elfDTStrsz:
			t.strsz = d.d_val
			continue
		case elfDTSymtab:
			dst = &t.symtab
		case elfDTStrtab:
			dst = &t.strtab
		case elfDTHash:
			dst = &t.hash
		case elfDTGNUHash:
			dst = &t.gnuHash
		case elfDTVersym:
			dst = &t.versym
		case elfDTVerdef:
			dst = &t.verdef
		default:
			continue
		}
		off, ok := r.imageOffset(load, d.d_val)
		if !ok || off == 0 {
			return t, errors.New("counter: the vDSO's dynamic table points outside it")
		}
		*dst = off
	}
	if r.bad || t.symtab == 0 || t.strtab == 0 || (t.hash == 0 && t.gnuHash == 0) {
		return t, errors.New("counter: the vDSO's dynamic table has no symbols")
	}
	return t, nil
}

// elfVersionIndex returns the index of the version definition named
// version, other than the file's own, following at most elfMaxVerdefs of
// them; -1 where the image defines no versions, and an error where it
// defines versions but not that one.
func elfVersionIndex(r *elfReader, t elfTables, version string) (int, error) {
	if t.versym == 0 || t.verdef == 0 {
		return -1, nil
	}
	off := t.verdef
	for range elfMaxVerdefs {
		def := r.verdefAt(off)
		if r.bad {
			break
		}
		if def.vd_flags&elfVerFlagBase == 0 { // not the file's own
			name := r.verdauxAt(off + uint64(def.vd_aux)).vda_name
			if r.strIs(t.strtab, t.strsz, uint64(name), version) {
				if r.bad {
					break // the name's index was not the image's
				}
				return int(def.vd_ndx & 0x7fff), nil
			}
		}
		if def.vd_next == 0 {
			break
		}
		off += uint64(def.vd_next)
	}
	return -1, errors.New("counter: the vDSO defines no version " + version)
}

// elfFindFunc returns the image offset of the function name: the first of
// the nsyms symbols that is global or weak, defined, of type function (or
// no type), named name and, where ver is not -1, of version index ver. Its
// code must lie in load.
func elfFindFunc(r *elfReader, t elfTables, nsyms uint64, ver int, load elfPhdr, name, version string) (uint64, error) {
	for i := range nsyms {
		sym := r.symAt(t.symtab + i*elfSymSize)
		if typ, bind := sym.st_info&0xf, sym.st_info>>4; typ != elfSTTFunc && typ != elfSTTNotype || bind != elfSTBGlobal && bind != elfSTBWeak || sym.st_shndx == 0 {
			continue
		}
		if !r.strIs(t.strtab, t.strsz, uint64(sym.st_name), name) {
			continue
		}
		if ver >= 0 && int(r.u16(t.versym+2*i)&0x7fff) != ver {
			continue
		}
		off, ok := r.imageOffset(load, sym.st_value)
		if r.bad || !ok || off < load.p_offset || off-load.p_offset >= load.p_filesz {
			return 0, errors.New("counter: the vDSO's " + name + " lies outside its code")
		}
		return off, nil
	}
	if r.bad {
		return 0, errors.New("counter: the vDSO's symbols lie outside it")
	}
	return 0, errors.New("counter: the vDSO has no " + name + " of version " + version)
}

// elfSymbolCount returns how many symbols the dynamic symbol table holds:
// the chain count of the DT_HASH table at hash where there is one (hash is
// not 0), else the end of the last chain of the DT_GNU_HASH table at
// gnuHash. It is false where the table lies outside the image.
func elfSymbolCount(r *elfReader, hash, gnuHash uint64) (uint64, bool) {
	if hash != 0 {
		n := uint64(r.u32(hash + 4))
		return n, !r.bad
	}
	// The GNU table: nbuckets, the first hashed symbol, the bloom filter's
	// 64-bit words, its shift; then the buckets, each the first symbol of
	// its chain; then one hash a symbol from the first hashed, the last of
	// a chain with its low bit set.
	h := r.gnuHashAt(gnuHash)
	nbuckets, first, bloom := uint64(h.nbuckets), uint64(h.symoffset), uint64(h.bloom_size)
	buckets := gnuHash + 16 + 8*bloom
	if r.bad || !r.in(buckets, 4*nbuckets) {
		return 0, false
	}
	last := uint64(0)
	for i := range nbuckets {
		last = max(last, uint64(r.u32(buckets+4*i)))
	}
	if last < first {
		return first, true // no hashed symbols
	}
	chains := buckets + 4*nbuckets
	for ; ; last++ {
		h := r.u32(chains + 4*(last-first))
		if r.bad {
			return 0, false
		}
		if h&1 != 0 {
			return last + 1, true
		}
	}
}
