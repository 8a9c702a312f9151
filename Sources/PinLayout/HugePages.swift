#if canImport(Glibc)
import Glibc
#endif

/// Arrays so large that filling them is mostly page faults (a million laid-out pins, 250 MB): their storage is asked
/// to be backed by 2 MB pages where Linux allows it (transparent huge pages on request), one fault per 2 MB instead
/// of one per 4 KB. A hint only: the elements are the same, and elsewhere nothing changes.
enum HugePages {
    /// `(0..<count).map(element)`, in storage asked to be backed by huge pages.
    static func map<Element>(_ count: Int, _ element: (Int) -> Element) -> [Element] {
        Array(unsafeUninitializedCapacity: count) { buffer, initialized in
            advise(UnsafeMutableRawBufferPointer(buffer))
            for index in 0..<count {
                (buffer.baseAddress! + index).initialize(to: element(index))
                initialized = index + 1
            }
        }
    }

    /// Asks for the whole 2 MB pages inside `memory`, not yet touched, to be huge pages.
    private static func advise(_ memory: UnsafeMutableRawBufferPointer) {
        #if os(Linux)
        guard let base = memory.baseAddress else { return }
        let page = 2 << 20
        let start = (Int(bitPattern: base) + page - 1) & ~(page - 1)
        let end = (Int(bitPattern: base) + memory.count) & ~(page - 1)
        guard end > start else { return }
        _ = madvise(UnsafeMutableRawPointer(bitPattern: start), end - start, MADV_HUGEPAGE)
        #endif
    }
}
