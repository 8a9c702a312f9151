import Parallel

/// Pictures drawn a part at a time on every core: a canvas band by band, a PNG stream band by band, an animation
/// frame by frame. Parts come out in index order whatever finishes first, so the bytes never depend on the cores.
extension Canvas {
    /// The `count` bands `draw` makes, drawn on every core and stacked top to bottom in index order (a single band is
    /// returned as drawn); the first error, in band order, is thrown.
    public static func stacking(bands count: Int, drawnBy draw: @Sendable (Int) throws -> Canvas) throws -> Canvas {
        let bands = try ParallelFor.map(Array(0..<count), draw).map { try $0.get() }
        return bands.count == 1 ? bands[0] : try Canvas(stacking: bands)
    }
}

extension PNGStreamEncoder {
    /// Hands over the `count` bands `draw` makes, taken top to bottom by at most `inFlight` threads at once (so at
    /// most that many bands are held); the first error stops the drawing and is thrown.
    public func append(bands count: Int, inFlight: Int, drawnBy draw: @Sendable (Int) throws -> Canvas) throws {
        try ParallelFor.forEach(count, workers: inFlight) { index in try self.append(draw(index)) }
    }
}

extension APNG {
    /// The `count` frames `draw` makes, drawn on every core, in index order; the first error, in that order, is thrown.
    public static func frames(_ count: Int, drawnBy draw: @Sendable (Int) throws -> Frame) throws -> [Frame] {
        try ParallelFor.map(Array(0..<count), draw).map { try $0.get() }
    }
}
