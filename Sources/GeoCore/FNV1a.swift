/// FNV-1a, 64 bits: the one non-cryptographic hash of the project (tags, fingerprints, checksums, derived looks).
/// The same bytes give the same value on every machine and in every run.
public struct FNV1a: Sendable {
    public static let offsetBasis: UInt64 = 0xCBF2_9CE4_8422_2325
    public static let prime: UInt64 = 0x0000_0100_0000_01B3

    /// The hash of everything added so far.
    public private(set) var value: UInt64

    public init(seed: UInt64 = FNV1a.offsetBasis) {
        value = seed
    }

    /// The hash of `bytes`, from the offset basis.
    public static func hash(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hasher = FNV1a()
        hasher.add(bytes)
        return hasher.value
    }

    public mutating func add(_ byte: UInt8) {
        add(word: UInt64(byte))
    }

    /// Adds `bytes` in order. Contiguous bytes (an array, a buffer) are hashed in one tight loop: called from another
    /// module this function is not specialized, and stepping a generic iterator cost a served layout a third of its time.
    public mutating func add(_ bytes: some Sequence<UInt8>) {
        var hash = value
        let contiguous: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            for byte in buffer { hash = (hash ^ UInt64(byte)) &* Self.prime }
        }
        guard contiguous == nil else { value = hash; return }
        for byte in bytes { add(word: UInt64(byte)) }
    }

    /// Adds the bits of `number`, low byte first.
    public mutating func add(bitsOf number: Double) {
        let bits = number.bitPattern
        for shift in stride(from: 0, to: 64, by: 8) { add(word: (bits >> UInt64(shift)) & 0xFF) }
    }

    /// One FNV-1a step over a whole 64-bit word (a checksum's lane, taken as one unit).
    public mutating func add(word: UInt64) {
        value ^= word
        value &*= Self.prime
    }
}
