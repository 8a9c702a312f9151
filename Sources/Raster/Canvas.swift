import Foundation
import Parallel
import Planar

/// A raster of premultiplied RGBA pixels. Compositing runs in 16 bits a channel so that many translucent
/// layers add up without the drift 8-bit storage has; pixels come out as RGBA8 (`rgba8`, PNG).
/// Not thread-safe: one canvas per render.
public final class Canvas {
    /// The largest side and pixel count a canvas may have.
    public static let maxSide = 8192
    public static let maxPixels = 64_000_000

    public let width: Int
    public let height: Int
    /// The bytes it holds: its pixels (8 a pixel) and, while kept, the grid fills accumulate on (4 a pixel).
    public var byteCount: Int { width * height * (accumulatorStorage == nil ? 8 : 12) }
    /// The row of the whole frame this canvas's first row shows when it is one band of a taller frame (0
    /// otherwise). Drawing takes frame coordinates, and a band gets exactly the pixels of those rows of the frame.
    public var originY: Int {
        didSet { accumulatorStorage = nil }
    }
    /// Premultiplied R, G, B, A per pixel, 0…65535, row-major.
    var storage: [UInt16]
    private var accumulatorStorage: CoverageAccumulator?
    /// The columns of each row drawn since the canvas was copied (only counted for a canvas made anew).
    var touched: TouchedColumns
    /// The canvas this one was copied from, and how many spans had been drawn on that one then.
    private weak var copySource: Canvas?
    private var copySourceMarks = 0

    /// A canvas filled with `background` (rows `originY ..< originY + height` of a frame); refuses sizes
    /// beyond the limits, naming them.
    public init(width: Int, height: Int, background: Color = .clear, originY: Int = 0) throws(RasterError) {
        guard (1...Self.maxSide).contains(width), (1...Self.maxSide).contains(height), width * height <= Self.maxPixels else {
            throw .canvasTooLarge(width: width, height: height, maxSide: Self.maxSide, maxPixels: Self.maxPixels)
        }
        self.width = width
        self.height = height
        self.originY = originY
        touched = TouchedColumns(height: height, tracking: false)
        let p = background.premultiplied16
        if p == .clear {
            storage = [UInt16](repeating: 0, count: width * height * 4)
        } else {
            let pixel = SIMD4<UInt16>(UInt16(p.r), UInt16(p.g), UInt16(p.b), UInt16(p.a))
            storage = [UInt16](unsafeUninitializedCapacity: width * height * 4) { buffer, count in
                buffer.withMemoryRebound(to: SIMD4<UInt16>.self) { pixels in pixels.initialize(repeating: pixel) }
                count = width * height * 4
            }
        }
    }

    /// One canvas made of equally wide bands stacked top to bottom (bands rendered in parallel).
    public convenience init(stacking bands: [Canvas]) throws(RasterError) {
        guard let first = bands.first, bands.allSatisfy({ $0.width == first.width }) else {
            throw .invalid(field: "bands", reason: "need at least one band, all of the same width")
        }
        try self.init(width: first.width, height: bands.reduce(0) { $0 + $1.height })
        var offset = 0
        for band in bands {
            storage.replaceSubrange(offset..<(offset + band.storage.count), with: band.storage)
            offset += band.storage.count
        }
    }

    /// A new canvas with the same pixels (to draw over a shared layer without touching it).
    public func copy() throws(RasterError) -> Canvas {
        let copy = try Canvas(width: width, height: height, originY: originY, storage: storage)
        copy.copySource = self
        copy.copySourceMarks = touched.marks
        return copy
    }

    /// Whether this canvas is a copy of `source` made when `source` looked as it does now, so that the two can
    /// differ only where `touched` says this one was drawn on.
    public func isCopy(of source: Canvas) -> Bool {
        copySource === source && source.touched.marks == copySourceMarks
    }

    /// Makes this canvas a copy of `source` (of the same size) again, in place and in memory already in use: when
    /// it is a copy of `source` as that is now, only the spans drawn since are copied back, otherwise every pixel.
    public func reset(to source: Canvas) throws(RasterError) {
        guard source.width == width, source.height == height else {
            throw .invalid(field: "source", reason: "is \(source.width)×\(source.height), not \(width)×\(height)")
        }
        let (partial, width, touched) = (isCopy(of: source), width, touched)
        storage.withUnsafeMutableBufferPointer { target in
            source.storage.withUnsafeBufferPointer { from in
                guard partial else {
                    target.baseAddress!.update(from: from.baseAddress!, count: from.count)
                    return
                }
                for row in 0..<height where touched.isTouched(row) {
                    for columns in touched.columns(of: row) {
                        let start = (row * width + columns.lowerBound) * 4
                        (target.baseAddress! + start).update(from: from.baseAddress! + start, count: columns.count * 4)
                    }
                }
            }
        }
        self.touched = TouchedColumns(height: height, tracking: true)
        // Set only when it moves: setting it drops the accumulator, which the next fill would make again.
        if originY != source.originY { originY = source.originY }
        copySource = source
        copySourceMarks = source.touched.marks
    }

    /// Copies the whole pixels of `rect` (in frame coordinates, clipped to the canvas) from `source`, a canvas of
    /// the same frame rows, as they are there.
    public func copyPixels(from source: Canvas, in rect: Rect) throws(RasterError) {
        guard source.width == width, source.height == height, source.originY == originY else {
            throw .invalid(field: "source", reason: "is not a canvas of the same rows")
        }
        let columns = max(0, Int(rect.minX.rounded(.down)))..<max(0, min(width, Int(rect.maxX.rounded(.up))))
        let rows = max(0, Int(rect.minY.rounded(.down)) - originY)..<max(0, min(height, Int(rect.maxY.rounded(.up)) - originY))
        guard !columns.isEmpty, !rows.isEmpty else { return }
        touched.mark(rows: rows, columns: columns)
        let width = width
        storage.withUnsafeMutableBufferPointer { target in
            source.storage.withUnsafeBufferPointer { from in
                for row in rows {
                    let start = (row * width + columns.lowerBound) * 4
                    (target.baseAddress! + start).update(from: from.baseAddress! + start, count: columns.count * 4)
                }
            }
        }
    }

    private init(width: Int, height: Int, originY: Int, storage: [UInt16]) throws(RasterError) {
        self.width = width
        self.height = height
        self.originY = originY
        self.storage = storage
        touched = TouchedColumns(height: height, tracking: true)
    }

    /// Frees the grid fills accumulate on (made again at the next fill): for a canvas kept but not drawn on.
    public func releaseScratch() { accumulatorStorage = nil }

    /// The accumulation grid for fills, made on first use and reused.
    var accumulator: CoverageAccumulator {
        if let accumulatorStorage { return accumulatorStorage }
        let made = CoverageAccumulator(width: width, height: height, originY: originY)
        accumulatorStorage = made
        return made
    }

    /// The straight-alpha colour of one pixel, rounded to 8 bits.
    public func pixel(x: Int, y: Int) -> Color {
        let index = (y * width + x) * 4
        return Self.straight8(r: storage[index], g: storage[index + 1], b: storage[index + 2], a: storage[index + 3])
    }

    /// Whether every pixel is fully opaque.
    public var isOpaque: Bool {
        storage.withUnsafeBufferPointer { pixels in
            var alpha: UInt16 = 65535
            for index in stride(from: 3, to: pixels.count, by: 4) { alpha &= pixels[index] }
            return alpha == 65535
        }
    }

    /// Rows converted per task when converting to 8 bits on every core.
    static let conversionRowsPerTask = 256

    /// Straight (un-premultiplied) 8-bit RGBA, or RGB when `dropAlpha`, row-major; bands of rows are converted
    /// on every core. `knownOpaque` skips the check for callers that made it already.
    public func straightRGBA8(dropAlpha: Bool = false, knownOpaque: Bool? = nil) -> [UInt8] {
        let opaque = dropAlpha && (knownOpaque ?? isOpaque)
        let channels = dropAlpha ? 3 : 4
        let (width, height) = (width, height)
        let tasks = (height + Self.conversionRowsPerTask - 1) / Self.conversionRowsPerTask
        return [UInt8](unsafeUninitializedCapacity: width * height * channels) { buffer, initialized in
            storage.withUnsafeBufferPointer { source in
                let input = SharedPixels(source: source.baseAddress!, output: buffer.baseAddress!)
                ParallelFor.each(tasks) { task in
                    let rows = (task * Self.conversionRowsPerTask)..<min(height, (task + 1) * Self.conversionRowsPerTask)
                    if dropAlpha && opaque {
                        _ = PNGCodec.rgb8(opaque: input.source + rows.lowerBound * width * 4, pixels: rows.count * width,
                                          into: input.output + rows.lowerBound * width * 3)
                        return
                    }
                    for index in (rows.lowerBound * width)..<(rows.upperBound * width) {
                        let color = Self.straight8(r: input.source[4 * index], g: input.source[4 * index + 1],
                                                   b: input.source[4 * index + 2], a: input.source[4 * index + 3])
                        input.output[channels * index] = color.r
                        input.output[channels * index + 1] = color.g
                        input.output[channels * index + 2] = color.b
                        if !dropAlpha { input.output[channels * index + 3] = color.a }
                    }
                }
            }
            initialized = width * height * channels
        }
    }

    /// Straight 8-bit RGB(A) of some rows, as `straightRGBA8` converts them (RGB is written only for opaque rows).
    func straightRGBA8(rows: Range<Int>, dropAlpha: Bool) -> [UInt8] {
        if dropAlpha { return converted(rows: rows).rgb }
        var output = [UInt8](repeating: 0, count: rows.count * width * 4)
        var out = 0
        for index in (rows.lowerBound * width)..<(rows.upperBound * width) {
            let color = Self.straight8(r: storage[4 * index], g: storage[4 * index + 1], b: storage[4 * index + 2], a: storage[4 * index + 3])
            output[out] = color.r
            output[out + 1] = color.g
            output[out + 2] = color.b
            output[out + 3] = color.a
            out += 4
        }
        return output
    }

    /// 8-bit RGB of some rows, as `straightRGBA8` converts opaque pixels; nil when one of them is not opaque.
    func opaqueRGB8(rows: Range<Int>) -> [UInt8]? {
        let (rgb, opaque) = converted(rows: rows)
        return opaque ? rgb : nil
    }

    /// Some rows as 8-bit RGB (for opaque pixels premultiplied equals straight, so each channel only changes
    /// scale, rounded as (v·255 + 32767) / 65535), and whether every pixel was opaque.
    private func converted(rows: Range<Int>) -> (rgb: [UInt8], opaque: Bool) {
        var opaque = true
        let rgb = [UInt8](unsafeUninitializedCapacity: rows.count * width * 3) { target, initialized in
            storage.withUnsafeBufferPointer { source in
                opaque = PNGCodec.rgb8(opaque: source.baseAddress! + rows.lowerBound * width * 4, pixels: rows.count * width, into: target.baseAddress!)
            }
            initialized = rows.count * width * 3
        }
        return (rgb, opaque)
    }

    /// Whether rows `from..<to` hold the same pixels in both canvases (of the same width).
    func rowsEqual(_ other: Canvas, from: Int, to: Int) -> Bool {
        guard other.width == width, to <= height, to <= other.height, from < to else { return from >= to }
        let range = (from * width * 4)..<(to * width * 4)
        return storage.withUnsafeBufferPointer { mine in
            other.storage.withUnsafeBufferPointer { theirs in
                memcmp(mine.baseAddress! + range.lowerBound, theirs.baseAddress! + range.lowerBound, range.count * 2) == 0
            }
        }
    }

    /// A snapshot of the canvas as an image.
    public func image() -> Image {
        Image(uncheckedWidth: width, height: height, straightRGBA: straightRGBA8())
    }

    /// The source and destination of a conversion that tasks fill in disjoint rows.
    private struct SharedPixels: @unchecked Sendable {
        let source: UnsafePointer<UInt16>
        let output: UnsafeMutablePointer<UInt8>
    }

    @inline(__always)
    static func straight8(r: UInt16, g: UInt16, b: UInt16, a: UInt16) -> Color {
        let alpha = UInt32(a)
        if alpha == 65535 {
            func opaque(_ value: UInt16) -> UInt8 { UInt8((UInt32(value) * 255 + 32767) / 65535) }
            return Color(r: opaque(r), g: opaque(g), b: opaque(b), a: 255)
        }
        guard alpha > 0 else { return .clear }
        func channel(_ value: UInt16) -> UInt8 {
            UInt8(min((UInt32(value) * 255 + alpha / 2) / alpha, 255))
        }
        return Color(r: channel(r), g: channel(g), b: channel(b), a: UInt8((alpha * 255 + 32767) / 65535))
    }
}
