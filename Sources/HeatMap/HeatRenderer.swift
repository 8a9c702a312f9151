import Foundation
import GeoCore
import Raster

/// Colours the density field of a view: density / maxDensity through the 256-entry ramp, times the
/// opacity, as a premultiplied layer to draw over the base map and under the pins.
public struct HeatRenderer: Sendable {
    public let source: HeatSource
    public let style: HeatStyle

    public init(source: HeatSource, style: HeatStyle) {
        self.source = source
        self.style = style
    }

    /// The kernel's σ in pixels for a view: radius/3 points at the view's scale, or radiusMeters/3 ground
    /// metres at the source's reference latitude, kept within the style's radius range.
    public func sigmaPixels(for view: MapView) -> Double {
        guard let metres = style.radiusMeters else { return style.radius / 3 * view.scale }
        let range = style.radiusRange
        return min(max(wantedSigmaPixels(metres, view), range.lowerBound / 3 * view.scale), range.upperBound / 3 * view.scale)
    }

    /// The weight of each Snap in a view: the intensity, times (σ wanted / σ used)² where the range clamped σ.
    public func intensity(for view: MapView) -> Double {
        guard let metres = style.radiusMeters else { return style.intensity }
        let ratio = wantedSigmaPixels(metres, view) / sigmaPixels(for: view)
        return style.intensity * ratio * ratio
    }

    private func wantedSigmaPixels(_ metres: Double, _ view: MapView) -> Double {
        metres / 3 / cos(source.referenceLatitude * .pi / 180) * view.pixelsPerMetre
    }

    public func density(for view: MapView) -> DensityField {
        DensityField(source: source, view: view, sigmaPixels: sigmaPixels(for: view), intensity: intensity(for: view))
    }

    /// The glow as an image of the view's size (transparent where there is no activity).
    public func render(_ view: MapView) throws(RasterError) -> Image {
        let field = density(for: view)
        let colors = palette(at: view.zoom)
        var pixels = [UInt8](repeating: 0, count: field.width * field.height * 4)
        for (index, value) in field.values.enumerated() where value > 0 {
            let color = colors[rampIndex(value)]
            pixels[4 * index] = color.r
            pixels[4 * index + 1] = color.g
            pixels[4 * index + 2] = color.b
            pixels[4 * index + 3] = color.a
        }
        return try Image(width: field.width, height: field.height, straightRGBA: pixels)
    }

    /// Draws the glow of a view source-over onto a canvas of the view's size: the pixels `render` would
    /// composite, without the image (a band of a large frame holds only its density and ramp indices).
    public func draw(_ view: MapView, into canvas: Canvas) throws(RasterError) {
        let field = density(for: view)
        var indices = [UInt16](repeating: 0, count: field.values.count)
        for (index, value) in field.values.enumerated() where value > 0 { indices[index] = UInt16(rampIndex(value) + 1) }
        try canvas.composite(paletteIndices: indices, width: field.width, height: field.height, palette: palette(at: view.zoom))
    }

    /// The ramp's colours at the style's opacity, none more opaque than the zoom's ceiling: each keeps its colour,
    /// and only the densest (the middle of a hotspot) thin out where the ceiling is low.
    public func palette(at zoom: Double) -> [Color] {
        let ceiling = UInt8((style.opacityCeiling(at: zoom) * 255).rounded())
        return style.ramp.map { color in
            var thinned = color.withOpacity(style.opacity)
            thinned.a = min(thinned.a, ceiling)
            return thinned
        }
    }

    /// The ramp entry of a density.
    private func rampIndex(_ value: Float) -> Int {
        Int(min(value * Float(255 / style.maxDensity), 255).rounded())
    }
}
