import Foundation

extension Canvas {
    /// Fills a path with a paint by exact-area coverage; curves are flattened after `transform`.
    public func fill(_ path: Path, paint: Paint, rule: FillRule = .nonZero, transform: AffineTransform = .identity, opacity: Double = 1) {
        let device = transform == .identity ? path : path.transformed(by: transform)
        fill(contours: PathFlattener.contours(of: device), paint: paint, rule: rule, opacity: opacity)
    }

    /// Fills already-flattened contours (in pixels) with a paint.
    public func fill(contours: [Contour], paint: Paint, rule: FillRule = .nonZero, opacity: Double = 1) {
        fill(rings: PolygonRings(contours), paint: paint, rule: rule, opacity: opacity)
    }

    /// Fills closed rings (in pixels) with a paint.
    public func fill(rings: PolygonRings, paint: Paint, rule: FillRule = .nonZero, opacity: Double = 1) {
        let accumulator = accumulator
        accumulator.add(rings)
        composite(accumulator, paint: paint, rule: rule, opacity: opacity)
    }

    /// Sweeps the accumulator and blends the paint source-over through the coverage it holds.
    func composite(_ accumulator: CoverageAccumulator, paint: Paint, rule: FillRule, opacity: Double) {
        let scale = Float(min(max(opacity, 0), 1))
        let width = width
        // A copy that tracks its touched columns marks each span; other canvases only count them, once per fill
        // (the property is not accessed, with its exclusivity check, at every span).
        let tracking = touched.isTracking
        var spans = 0
        defer { touched.count(spans) }
        storage.withUnsafeMutableBufferPointer { pixels in
            accumulator.sweep(rule: rule) { row, columns, uniform in
                if tracking { touched.mark(row: row, columns: columns) } else { spans += 1 }
                let coverage = accumulator.coverage
                let rowBase = row * width
                let frameRow = Double(row + originY)
                switch paint {
                case .solid(let color):
                    let source = color.premultiplied16
                    guard source.a > 0 else { return }
                    if source.a == 65535 && scale == 1 && (uniform ?? 1) >= 1 {
                        if uniform != nil {
                            Self.fillOpaqueRun(source, columns: columns, into: pixels, rowBase: rowBase)
                        } else {
                            Self.fillOpaqueRow(source, coverage: coverage, columns: columns, into: pixels, rowBase: rowBase)
                        }
                    } else {
                        for column in columns {
                            Self.blend(source, coverage: (uniform ?? coverage[column]) * scale, into: pixels, at: (rowBase + column) * 4)
                        }
                    }
                case .radialGradient(let gradient):
                    for column in columns {
                        let source = gradient.color(x: Double(column) + 0.5, y: frameRow + 0.5)
                        Self.blend(source, coverage: (uniform ?? coverage[column]) * scale, into: pixels, at: (rowBase + column) * 4)
                    }
                case .image(let image, let rect):
                    let sx = Double(image.width) / rect.width
                    let sy = Double(image.height) / rect.height
                    for column in columns {
                        let amount = uniform ?? coverage[column]
                        guard amount > 0 else { continue }
                        let source = image.sampleBilinear(x: (Double(column) + 0.5 - rect.x) * sx, y: (frameRow + 0.5 - rect.y) * sy)
                        Self.blend(source, coverage: amount * scale, into: pixels, at: (rowBase + column) * 4)
                    }
                }
            }
        }
    }

    /// An opaque colour over a run of full coverage: whole pixels stored.
    @inline(__always)
    static func fillOpaqueRun(_ source: Premultiplied16, columns: Range<Int>, into pixels: UnsafeMutableBufferPointer<UInt16>, rowBase: Int) {
        guard let base = pixels.baseAddress else { return }
        let pattern = SIMD4<UInt16>(UInt16(source.r), UInt16(source.g), UInt16(source.b), 65535)
        let row = UnsafeMutableRawPointer(base + rowBase * 4).assumingMemoryBound(to: SIMD4<UInt16>.self)
        (row + columns.lowerBound).update(repeating: pattern, count: columns.count)
    }

    /// An opaque colour through a row of coverage: runs of full coverage are stored as whole pixels, the
    /// anti-aliased edges between them are blended.
    @inline(__always)
    static func fillOpaqueRow(_ source: Premultiplied16, coverage: UnsafeMutablePointer<Float>, columns: Range<Int>,
                              into pixels: UnsafeMutableBufferPointer<UInt16>, rowBase: Int) {
        guard let base = pixels.baseAddress else { return }
        let pattern = SIMD4<UInt16>(UInt16(source.r), UInt16(source.g), UInt16(source.b), 65535)
        let row = UnsafeMutableRawPointer(base + rowBase * 4).assumingMemoryBound(to: SIMD4<UInt16>.self)
        var column = columns.lowerBound
        while column < columns.upperBound {
            if coverage[column] >= 1 {
                var end = column + 1
                while end < columns.upperBound && coverage[end] >= 1 { end += 1 }
                (row + column).update(repeating: pattern, count: end - column)
                column = end
            } else {
                blend(source, coverage: coverage[column], into: pixels, at: (rowBase + column) * 4)
                column += 1
            }
        }
    }

    /// Source-over of a premultiplied colour at a coverage, with exact rounding in 16 bits, four lanes at once.
    @inline(__always)
    static func blend(_ source: Premultiplied16, coverage: Float, into pixels: UnsafeMutableBufferPointer<UInt16>, at index: Int) {
        blend(source, amount: Blend.coverage16(coverage), into: pixels, at: index)
    }

    /// Source-over of a colour at a 16-bit coverage amount (0…65535).
    @inline(__always)
    static func blend(_ source: Premultiplied16, amount: UInt32, into pixels: UnsafeMutableBufferPointer<UInt16>, at index: Int) {
        guard amount > 0 else { return }
        var s = SIMD4<UInt32>(source.r, source.g, source.b, source.a)
        if amount != 65535 { s = Blend.divide65535(s &* amount) }
        blend(scaled: s, into: pixels, at: index)
    }

    /// Source-over of a premultiplied colour already scaled by its coverage (`blend` scales, then calls this).
    @inline(__always)
    static func blend(scaled s: SIMD4<UInt32>, into pixels: UnsafeMutableBufferPointer<UInt16>, at index: Int) {
        guard let base = pixels.baseAddress else { return }
        let raw = UnsafeMutableRawPointer(base + index)
        if s[3] == 65535 {
            raw.storeBytes(of: SIMD4<UInt16>(truncatingIfNeeded: s), as: SIMD4<UInt16>.self)
            return
        }
        let destination = SIMD4<UInt32>(truncatingIfNeeded: raw.load(as: SIMD4<UInt16>.self))
        let result = s &+ Blend.divide65535(destination &* (65535 - s[3]))
        raw.storeBytes(of: SIMD4<UInt16>(truncatingIfNeeded: result), as: SIMD4<UInt16>.self)
    }
}

extension Canvas {
    /// Source-over of an image placed pixel for pixel with its top-left corner at (x, y) (a layer of the
    /// same grid, such as the glow).
    public func composite(_ image: Image, x: Int = 0, y frameY: Int = 0) {
        let y = frameY - originY
        guard x < width, y < height, x + image.width > 0, y + image.height > 0 else { return }
        let columns = max(0, x)..<min(width, x + image.width)
        let rows = max(0, y)..<min(height, y + image.height)
        let canvasWidth = width
        touched.mark(rows: rows, columns: columns)
        storage.withUnsafeMutableBufferPointer { pixels in
            for row in rows {
                for column in columns {
                    let source = ((row - y) * image.width + column - x) * 4
                    guard image.premultiplied[source + 3] > 0 else { continue }
                    let color = Premultiplied16(r: UInt32(image.premultiplied[source]), g: UInt32(image.premultiplied[source + 1]),
                                                b: UInt32(image.premultiplied[source + 2]), a: UInt32(image.premultiplied[source + 3]))
                    Self.blend(color, coverage: 1, into: pixels, at: (row * canvasWidth + column) * 4)
                }
            }
        }
    }
}

extension Canvas {
    /// Source-over of a paletted layer of the canvas's grid placed at the top-left corner: index 0 is
    /// transparent, index i is `palette[i - 1]` (the same pixels as compositing the layer as an image).
    public func composite(paletteIndices indices: [UInt16], width layerWidth: Int, height layerHeight: Int, palette: [Color]) throws(RasterError) {
        guard indices.count == layerWidth * layerHeight, indices.allSatisfy({ Int($0) <= palette.count }) else {
            throw .invalid(field: "paletteIndices", reason: "expected \(layerWidth * layerHeight) indices of at most \(palette.count)")
        }
        let colors = palette.map(\.premultiplied16)
        let (columns, rows, canvasWidth) = (min(width, layerWidth), min(height, layerHeight), width)
        touched.mark(rows: 0..<rows, columns: 0..<columns)
        storage.withUnsafeMutableBufferPointer { pixels in
            for row in 0..<rows {
                for column in 0..<columns {
                    let index = Int(indices[row * layerWidth + column])
                    guard index > 0, colors[index - 1].a > 0 else { continue }
                    Self.blend(colors[index - 1], coverage: 1, into: pixels, at: (row * canvasWidth + column) * 4)
                }
            }
        }
    }
}
