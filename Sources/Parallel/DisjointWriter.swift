/// A writable array slot that concurrent workers fill in disjoint ranges (see `ParallelFor`).
public struct DisjointWriter<Element>: @unchecked Sendable {
    private let base: UnsafeMutablePointer<Element>
    public let count: Int

    public init(_ buffer: UnsafeMutableBufferPointer<Element>) {
        base = buffer.baseAddress ?? UnsafeMutablePointer<Element>.allocate(capacity: 0)
        count = buffer.count
    }

    /// Writes one element; workers must write only indices of their own range.
    @inlinable
    public func write(_ value: Element, at index: Int) {
        precondition(index >= 0 && index < count, "index \(index) outside 0..<\(count)")
        baseAddress[index] = value
    }

    /// Replaces one element by a function of itself; workers must touch only indices of their own range.
    @inlinable
    public func update(at index: Int, _ transform: (Element) -> Element) {
        precondition(index >= 0 && index < count, "index \(index) outside 0..<\(count)")
        baseAddress[index] = transform(baseAddress[index])
    }

    @usableFromInline
    var baseAddress: UnsafeMutablePointer<Element> { base }
}

extension Array {
    /// Builds an array of `count` elements whose slots are filled concurrently by `fill` in disjoint ranges. Inlinable,
    /// so the array is made for the caller's element type (unspecialized, each element was copied through a witness).
    @inlinable
    public static func filledConcurrently(count: Int, initial: Element, minimumPerPart: Int,
                                          _ fill: @Sendable (Range<Int>, DisjointWriter<Element>) -> Void) -> [Element] {
        var result = [Element](repeating: initial, count: count)
        result.withUnsafeMutableBufferPointer { buffer in
            let writer = DisjointWriter(buffer)
            ParallelFor.ranges(count: count, minimumPerPart: minimumPerPart) { range in fill(range, writer) }
        }
        return result
    }
}
