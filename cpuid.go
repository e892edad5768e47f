package counter

// This file decides, from CPUID's answers alone, whether an amd64 counter is
// invariant and what rate the processor or the hypervisor reports for it. It
// builds on every platform, so that its tests replay the recorded answers of
// real CPUs on any host; only discover_amd64.go runs it on a real CPUID.

// The leaves and bits the decision reads, and those detectFeatures
// (cpuid_amd64.go) reads for the reads' sequences.
const (
	leafVendor       = 0x0000_0000 // EAX: the highest basic leaf
	leafFeatures     = 0x0000_0001 // EAX: signature; ECX bit 31: hypervisor; EDX bit 4: TSC
	leafTSC          = 0x0000_0015 // EAX/EBX: TSC to crystal ratio; ECX: crystal Hz
	leafHypervisor   = 0x4000_0000 // EAX: the highest hypervisor leaf
	leafHypervisorHz = 0x4000_0010 // EAX: TSC kHz (VMware's timing leaf, also KVM's and others')
	leafExtended     = 0x8000_0000 // EAX: the highest extended leaf
	leafExtFeatures  = 0x8000_0001 // EDX bit 27: RDTSCP
	leafPower        = 0x8000_0007 // EDX bit 8: invariant TSC

	bitTSC          = 1 << 4  // leaf 1 EDX
	bitHypervisor   = 1 << 31 // leaf 1 ECX
	bitRDTSCP       = 1 << 27 // leaf 0x80000001 EDX
	bitInvariantTSC = 1 << 8  // leaf 0x80000007 EDX
)

// nominalCrystals are the crystal rates of the Intel family-6 models whose
// leaf 0x15 gives the ratio but not the crystal (ECX = 0), as Intel's
// documentation lists them and Linux uses them. Model 0x55 (Skylake-SP and
// its successors) is left out on purpose: its parts differ.
var nominalCrystals = map[uint32]uint64{
	0x4E: 24_000_000, // Skylake mobile
	0x5E: 24_000_000, // Skylake desktop
	0x8E: 24_000_000, // Kaby Lake, Coffee Lake, Whiskey Lake mobile
	0x9E: 24_000_000, // Kaby Lake, Coffee Lake desktop
	0x5C: 19_200_000, // Goldmont (Apollo Lake)
	0x5F: 25_000_000, // Goldmont X (Denverton)
}

// rateFromCPUID decides, from the answers of cpuid, whether the time-stamp
// counter is invariant and what rate CPUID reports for it:
//
//   - ErrNotInvariant unless leaf 1 says there is a TSC and leaf 0x80000007
//     says it is invariant;
//   - else the rate of leaf 0x15, a crystal times a ratio, where the basic
//     maximum reaches it and it gives the ratio, with the crystal from ECX or,
//     where ECX is 0, from the models listed in nominalCrystals;
//   - else the rate of the hypervisor leaf 0x40000010, where leaf 1 says a
//     hypervisor is present and its maximum reaches that leaf;
//   - else hz = 0 and a nil error: CPUID reports no rate, and the caller
//     measures it.
//
// A CPU answers a leaf above its maximum with the data of another leaf, not
// with zeros, so every leaf is read only where its maximum reaches it.
func rateFromCPUID(cpuid func(leaf, subleaf uint32) (eax, ebx, ecx, edx uint32)) (hz uint64, src RateSource, err error) {
	maxBasic, vendorB, vendorC, vendorD := cpuid(leafVendor, 0)
	if maxBasic < leafFeatures {
		return 0, SourceNone, ErrNotInvariant
	}
	signature, _, features, flags := cpuid(leafFeatures, 0)
	if flags&bitTSC == 0 {
		return 0, SourceNone, ErrNotInvariant
	}
	if maxExt, _, _, _ := cpuid(leafExtended, 0); maxExt < leafPower {
		return 0, SourceNone, ErrNotInvariant
	}
	if _, _, _, power := cpuid(leafPower, 0); power&bitInvariantTSC == 0 {
		return 0, SourceNone, ErrNotInvariant
	}

	if maxBasic >= leafTSC {
		denominator, numerator, crystal, _ := cpuid(leafTSC, 0)
		if denominator != 0 && numerator != 0 {
			crystalHz, src := uint64(crystal), SourceCrystal
			intel := vendorB == 0x756e_6547 && vendorD == 0x4965_6e69 && vendorC == 0x6c65_746e // "GenuineIntel"
			if crystalHz == 0 && intel && family(signature) == 6 {
				crystalHz, src = nominalCrystals[model(signature)], SourceNominalCrystal
			}
			if crystalHz != 0 {
				// At most 2³²·2³² / 1: a product of two 32-bit values fits.
				return crystalHz * uint64(numerator) / uint64(denominator), src, nil
			}
		}
	}

	if features&bitHypervisor != 0 {
		if maxHyper, _, _, _ := cpuid(leafHypervisor, 0); maxHyper >= leafHypervisorHz && maxHyper < leafHypervisor+0x1_0000 {
			if kHz, _, _, _ := cpuid(leafHypervisorHz, 0); kHz != 0 {
				return uint64(kHz) * 1000, SourceHypervisor, nil
			}
		}
	}
	return 0, SourceNone, nil
}

// family returns the display family of a leaf 1 signature: the base family,
// plus the extended family where the base is 15.
func family(signature uint32) uint32 {
	f := signature >> 8 & 0xF
	if f == 0xF {
		f += signature >> 20 & 0xFF
	}
	return f
}

// model returns the display model of a leaf 1 signature: the base model,
// with the extended model above it in families 6 and 15.
func model(signature uint32) uint32 {
	m := signature >> 4 & 0xF
	if f := signature >> 8 & 0xF; f == 6 || f == 0xF {
		m |= signature >> 12 & 0xF0
	}
	return m
}
