import Foundation

/// A friend's full label, "Jordan · 2m", written as one string from the name's bytes and the time's digits: the
/// text of `firstName + " · " + LastSeenText.text`, without making the parts (a layout makes one for every friend).
enum FriendLabel {
    static func text(_ subject: PinSubject, now: Date) -> String {
        let seen = LastSeenText.amount(lastSeen: subject.lastSeen, now: now)
        let written: String?? = subject.name.utf8.withContiguousStorageIfAvailable { name in
            guard let first = PinSubject.asciiFirstWord(name) else { return nil }
            // The name, " · " (the dot is two bytes), then "now" or at most 19 digits and the unit's letter.
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: first.count + 24) { out in
                var end = 0
                func put(_ byte: UInt8) {
                    out[end] = byte
                    end += 1
                }
                for index in first { put(name[index]) }
                for byte in " · ".utf8 { put(byte) }
                if let (value, unit) = seen {
                    let from = end
                    var rest = value
                    repeat {
                        put(UInt8(truncatingIfNeeded: 0x30 + rest % 10))
                        rest /= 10
                    } while rest > 0
                    out[from..<end].reverse()
                    put(unit)
                } else {
                    for byte in "now".utf8 { put(byte) }
                }
                return String(decoding: UnsafeBufferPointer(rebasing: out[0..<end]), as: UTF8.self)
            }
        }
        return (written ?? nil) ?? subject.firstName + " · " + LastSeenText.text(lastSeen: subject.lastSeen, now: now)
    }
}
