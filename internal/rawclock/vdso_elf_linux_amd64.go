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
	le := binary.LittleEndian
	switch {
	case len(hdr) < elfHeaderSize || string(hdr[:4]) != "\x7fELF":
		return 0, errors.New("counter: the vDSO has no ELF header")
	case hdr[4] != elfClass64 || hdr[5] != elfDataLSB || le.Uint16(hdr[16:]) != elfTypeDyn || le.Uint16(hdr[18:]) != elfMachineAMD:
		return 0, errors.New("counter: the vDSO is not an amd64 shared object")
	}
	phoff, phentsize, phnum := le.Uint64(hdr[32:]), le.Uint16(hdr[54:]), le.Uint16(hdr[56:])
	shoff, shentsize, shnum := le.Uint64(hdr[40:]), le.Uint16(hdr[58:]), le.Uint16(hdr[60:])
	if phentsize != elfPhdrSize || shentsize != elfShdrSize || shnum == 0 || phnum == 0 {
		return 0, errors.New("counter: the vDSO's ELF header has no sane table sizes")
	}
	if shoff < elfHeaderSize || shoff > maxVDSOSize || phoff < elfHeaderSize || phoff > maxVDSOSize {
		return 0, errors.New("counter: the vDSO's ELF header has no sane table offsets")
	}
	size := shoff + uint64(shnum)*elfShdrSize
	if size > maxVDSOSize || phoff+uint64(phnum)*elfPhdrSize > size {
		return 0, errors.New("counter: the vDSO's ELF header gives no sane size")
	}
	return int(size), nil
}

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

// elfFuncOffset returns the offset into image, a whole ELF64 little-endian
// shared object as mapped, of the function name of version: a global or
// weak symbol, defined, of type function (or no type), whose version is
// version (any, where the image defines no versions), and whose code lies
// in the image's first loadable segment. It returns an error, and reads
// nothing past the image's end, where the image is malformed or the
// function is not there.
func elfFuncOffset(image []byte, name, version string) (uint64, error) {
	r := &elfReader{b: image}
	size := uint64(len(image))

	// The program headers: the first loadable segment, which maps the image
	// from its start and places every address the tables give, and the
	// dynamic table.
	phoff, phnum := r.u64(32), uint64(r.u16(56))
	if r.bad || !r.in(phoff, phnum*elfPhdrSize) {
		return 0, errors.New("counter: the vDSO's program headers lie outside it")
	}
	var loadOff, loadAddr, loadSize, dynOff, dynSize uint64
	var haveLoad, haveDyn bool
	for i := range phnum {
		ph := phoff + i*elfPhdrSize
		switch r.u32(ph) {
		case elfPTLoad:
			if !haveLoad {
				loadOff, loadAddr, loadSize, haveLoad = r.u64(ph+8), r.u64(ph+16), r.u64(ph+32), true
			}
		case elfPTDynamic:
			dynOff, dynSize, haveDyn = r.u64(ph+8), r.u64(ph+32), true
		}
	}
	if !haveLoad || !haveDyn || !r.in(loadOff, loadSize) || !r.in(dynOff, dynSize) {
		return 0, errors.New("counter: the vDSO has no loadable segment or no dynamic table")
	}

	// offset returns the image offset of the address a, which the first
	// loadable segment places.
	offset := func(a uint64) (uint64, bool) {
		if a < loadAddr || a-loadAddr >= size-loadOff {
			return 0, false
		}
		return a - loadAddr + loadOff, true
	}

	// The dynamic table: where the symbols, their names, their hash table
	// (which gives their count) and their versions are, as offsets into the
	// image; 0, where the ELF header is, for a table the image lacks.
	var symtab, strtab, hash, gnuHash, versym, verdef uint64
	strsz := size
	for i := range dynSize / elfDynSize {
		tag, val := r.u64(dynOff+i*elfDynSize), r.u64(dynOff+i*elfDynSize+8)
		if r.bad || tag == elfDTNull {
			break
		}
		var dst *uint64
		switch tag {
		case elfDTStrsz:
			strsz = val
			continue
		case elfDTSymtab:
			dst = &symtab
		case elfDTStrtab:
			dst = &strtab
		case elfDTHash:
			dst = &hash
		case elfDTGNUHash:
			dst = &gnuHash
		case elfDTVersym:
			dst = &versym
		case elfDTVerdef:
			dst = &verdef
		default:
			continue
		}
		off, ok := offset(val)
		if !ok || off == 0 {
			return 0, errors.New("counter: the vDSO's dynamic table points outside it")
		}
		*dst = off
	}
	if r.bad || symtab == 0 || strtab == 0 || (hash == 0 && gnuHash == 0) {
		return 0, errors.New("counter: the vDSO's dynamic table has no symbols")
	}

	nsyms, ok := elfSymbolCount(r, hash, gnuHash)
	if !ok || !r.in(symtab, nsyms*elfSymSize) {
		return 0, errors.New("counter: the vDSO's symbol table lies outside it")
	}

	// The version's index, where the image defines versions.
	wantVer := -1
	if versym != 0 && verdef != 0 {
		def := verdef
		for range elfMaxVerdefs {
			flags, ndx, aux, next := r.u16(def+2), r.u16(def+4), r.u32(def+12), r.u32(def+16)
			if r.bad {
				break
			}
			if flags&elfVerFlagBase == 0 && r.strIs(strtab, strsz, uint64(r.u32(def+uint64(aux))), version) {
				wantVer = int(ndx & 0x7fff)
				break
			}
			if next == 0 {
				break
			}
			def += uint64(next)
		}
		if r.bad || wantVer < 0 {
			return 0, errors.New("counter: the vDSO defines no version " + version)
		}
	}

	for i := range nsyms {
		sym := symtab + i*elfSymSize
		info, shndx, value := r.u8(sym+4), r.u16(sym+6), r.u64(sym+8)
		if typ, bind := info&0xf, info>>4; typ != elfSTTFunc && typ != elfSTTNotype || bind != elfSTBGlobal && bind != elfSTBWeak || shndx == 0 {
			continue
		}
		if !r.strIs(strtab, strsz, uint64(r.u32(sym)), name) {
			continue
		}
		if wantVer >= 0 && int(r.u16(versym+2*i)&0x7fff) != wantVer {
			continue
		}
		off, ok := offset(value)
		if r.bad || !ok || off < loadOff || off-loadOff >= loadSize {
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
	nbuckets, first, bloom := uint64(r.u32(gnuHash)), uint64(r.u32(gnuHash+4)), uint64(r.u32(gnuHash+8))
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
