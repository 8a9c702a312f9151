import CPrefetch
import Foundation
import GeoCore

/// A friend as the layout sees them. Ghosted friends never become subjects.
public struct PinSubject: Hashable, Sendable {
    public let id: String
    public let name: String
    public let coordinate: Coordinate
    public let lastSeen: Date
    public let snapstreak: Int
    public let bestFriend: Bool
    /// The Actionmoji pose's name ("standing" when none), which the layout passes on for a phone to draw.
    public let pose: String

    public init(id: String, name: String, coordinate: Coordinate, lastSeen: Date, snapstreak: Int, bestFriend: Bool, pose: String = "standing") {
        self.pose = pose
        self.id = id
        self.name = name
        self.coordinate = coordinate
        self.lastSeen = lastSeen
        self.snapstreak = snapstreak
        self.bestFriend = bestFriend
    }

    /// The first word of the name ("Jordan"), spaces before it skipped; the project's one rule for a first name.
    public var firstName: String {
        // ASCII names, nearly all, by their bytes (each byte a character there); others by characters.
        let ascii: String?? = name.utf8.withContiguousStorageIfAvailable { bytes in
            Self.asciiFirstWord(bytes).map { String(decoding: UnsafeBufferPointer(rebasing: bytes[$0]), as: UTF8.self) }
        }
        if let ascii = ascii ?? nil { return ascii }
        guard let from = name.firstIndex(where: { $0 != " " }) else { return name }
        let rest = name[from...]
        return String(rest[..<(rest.firstIndex(of: " ") ?? rest.endIndex)])
    }

    /// Where the first word of an ASCII name lies in its bytes; nil for a name with other characters or no word.
    static func asciiFirstWord(_ bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        guard bytes.allSatisfy({ $0 < 0x80 }), let from = bytes.firstIndex(where: { $0 != 0x20 }) else { return nil }
        return from..<(bytes[from...].firstIndex(of: 0x20) ?? bytes.endIndex)
    }
}

/// "now" under a minute, then "2m", "3h", "4d": the time since a friend was last seen, from a `now` the
/// caller passes (rendering never reads the clock). A time after `now` reads "now".
public enum LastSeenText {
    public static func text(lastSeen: Date, now: Date) -> String {
        guard let (value, unit) = amount(lastSeen: lastSeen, now: now) else { return "now" }
        return String(value) + String(UnicodeScalar(unit))
    }

    /// The number and its unit's letter ("m", "h" or "d", as a byte); nil under a minute ("now").
    static func amount(lastSeen: Date, now: Date) -> (Int, UInt8)? {
        let seconds = now.timeIntervalSince(lastSeen)
        let minutes = Int((seconds / 60).rounded(.down))
        switch minutes {
        case ..<1: return nil
        case ..<60: return (minutes, UInt8(ascii: "m"))
        case ..<(24 * 60): return (minutes / 60, UInt8(ascii: "h"))
        default: return (minutes / (24 * 60), UInt8(ascii: "d"))
        }
    }
}

/// "Live · until 9:41 PM": a Live Location share's end on New York's clock (where the map is), for the card.
public enum LiveUntilText {
    public static let timeZone = TimeZone(identifier: "America/New_York")!

    public static func text(until: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "h:mm a"
        return "Live · until " + formatter.string(from: until)
    }
}

/// MapKit-like display priority: the selected friend first, then best friends by Snapstreak (longest first),
/// then everyone else by most recently seen; ties broken by id so the order is stable.
public enum PinPriority {
    public static func sorted(_ subjects: [PinSubject], selected: String?) -> [PinSubject] {
        // One pass splits the subjects by rank (the selected friend, then best friends; each best friend first); within
        // a rank, the Snapstreak (best friends') and the time last seen are each an integer that orders as the rule
        // does, then the id and the place in `subjects` break ties: the order is total, and subjects (with their
        // strings) are moved only once, into it.
        var ranks = [[Key]](repeating: [], count: 4)
        for index in subjects.indices {
            let subject = subjects[index]
            ranks[(subject.id == selected ? 0 : 2) + (subject.bestFriend ? 0 : 1)]
                .append(Key(streak: subject.bestFriend ? descending(subject.snapstreak) : 0,
                            seen: descending(subject.lastSeen.timeIntervalSinceReferenceDate), index: index))
        }
        var ordered: [PinSubject] = []
        ordered.reserveCapacity(subjects.count)
        for var keys in ranks {
            // By the two integers, keeping the order of `subjects` among equals; then each run of equal integers by id.
            radixSort(&keys)
            var from = 0
            while from < keys.count {
                var to = from + 1
                while to < keys.count, keys[to].streak == keys[from].streak, keys[to].seen == keys[from].seen { to += 1 }
                if to - from > 1 {
                    keys[from..<to].sort { x, y in
                        let (a, b) = (subjects[x.index].id, subjects[y.index].id)
                        return a != b ? a < b : x.index < y.index
                    }
                }
                from = to
            }
            // Subjects are read at random places: each is asked for (both its cache lines) some keys ahead, so that
            // the reads overlap instead of waiting one after another.
            subjects.withUnsafeBufferPointer { subjects in
                let lead = 8
                for (at, key) in keys.enumerated() {
                    if at + lead < keys.count {
                        let ahead = UnsafeRawPointer(subjects.baseAddress! + keys[at + lead].index)
                        snapmap_prefetch(ahead)
                        snapmap_prefetch(ahead + MemoryLayout<PinSubject>.stride - 1)
                    }
                    ordered.append(subjects[key.index])
                }
            }
        }
        return ordered
    }

    private struct Key {
        let streak: UInt64, seen: UInt64, index: Int
    }

    /// Sorts `keys` by streak, then time, keeping the order of equals: a least-significant-digit radix sort of 11-bit
    /// digits, skipping each digit that all keys share (times a day apart differ in their low bits only).
    private static func radixSort(_ keys: inout [Key]) {
        let (bits, digits) = (11, 6)
        let buckets = 1 << bits
        guard keys.count > 64 else {
            keys.sort { x, y in x.streak != y.streak ? x.streak < y.streak : x.seen != y.seen ? x.seen < y.seen : x.index < y.index }
            return
        }
        // Counts of every digit of both integers, in one pass: the time's digits first, then the streak's.
        var counts = [Int](repeating: 0, count: 2 * digits * buckets)
        for key in keys {
            for digit in 0..<digits {
                let shift = UInt64(digit * bits)
                counts[digit * buckets + Int((key.seen >> shift) & UInt64(buckets - 1))] += 1
                counts[(digits + digit) * buckets + Int((key.streak >> shift) & UInt64(buckets - 1))] += 1
            }
        }
        var spare = keys
        for pass in 0..<(2 * digits) {
            let base = pass * buckets
            guard !counts[base..<(base + buckets)].contains(keys.count) else { continue }
            var offset = 0
            for bucket in base..<(base + buckets) {
                (counts[bucket], offset) = (offset, offset + counts[bucket])
            }
            let shift = UInt64((pass % digits) * bits)
            let streak = pass >= digits
            for key in keys {
                let bucket = base + Int(((streak ? key.streak : key.seen) >> shift) & UInt64(buckets - 1))
                spare[counts[bucket]] = key
                counts[bucket] += 1
            }
            swap(&keys, &spare)
        }
    }

    /// An integer whose order is the reverse of `value`'s.
    private static func descending(_ value: Int) -> UInt64 { ~(UInt64(bitPattern: Int64(value)) ^ (1 << 63)) }

    /// An integer whose order is the reverse of `value`'s (a time, never NaN; zeros of either sign alike).
    private static func descending(_ value: Double) -> UInt64 {
        let bits = (value == 0 ? 0.0 : value).bitPattern
        return ~(bits >> 63 == 0 ? bits | (1 << 63) : ~bits)
    }
}
