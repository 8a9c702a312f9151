import GeoCore
import Testing

/// FNV-1a against the published 64-bit test vectors of its authors (Fowler, Noll, Vo: `test_fnv.c`).
@Suite("FNV-1a")
struct FNV1aTests {
    @Test(arguments: [("", 0xCBF2_9CE4_8422_2325 as UInt64), ("a", 0xAF63_DC4C_8601_EC8C), ("foobar", 0x8594_4171_F739_67E8)])
    func publishedVectors(text: String, expected: UInt64) {
        #expect(FNV1a.hash(Array(text.utf8)) == expected)
    }

    @Test func addingInPiecesIsHashingTheWhole() {
        var hasher = FNV1a()
        hasher.add(Array("foo".utf8))
        for byte in "bar".utf8 { hasher.add(byte) }
        #expect(hasher.value == FNV1a.hash(Array("foobar".utf8)))
        var bits = FNV1a()
        bits.add(bitsOf: 1.5)
        #expect(bits.value == FNV1a.hash(withUnsafeBytes(of: (1.5).bitPattern.littleEndian) { Array($0) }))
    }

    /// Contiguous bytes (hashed in one loop) and bytes that are not (stepped one at a time) hash alike, against the
    /// formula written out here.
    @Test func contiguousAndSteppedBytesHashAlike() {
        let bytes = (0..<4_099).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 3) }
        let formula = bytes.reduce(FNV1a.offsetBasis) { ($0 ^ UInt64($1)) &* FNV1a.prime }
        #expect(FNV1a.hash(bytes) == formula)
        #expect(FNV1a.hash(bytes[7...]) == bytes[7...].reduce(FNV1a.offsetBasis) { ($0 ^ UInt64($1)) &* FNV1a.prime })
        #expect(FNV1a.hash(bytes.lazy.map { $0 }) == formula, "a lazy sequence has no contiguous storage")
        #expect(bytes.lazy.map { $0 }.withContiguousStorageIfAvailable { _ in () } == nil)
        var pieces = FNV1a()
        pieces.add(bytes[..<1_000])
        pieces.add(bytes[1_000...].lazy.map { $0 })
        #expect(pieces.value == formula)
    }
}
