import Foundation
import GeoCore
import Raster

extension BaseMapRenderer {
    /// For each named water (by its index in the places table), the first zoom, in steps of 0.05, from which its name
    /// at its first spot stays on the water, halo included; a water that never fits within its layer's zooms is left
    /// out. Vector tiles carry it as the name's `minzoom`, so MapLibre too writes it only on the water.
    public func waterNameZooms() -> [Int: Double] {
        guard let places = style.places else { return [:] }
        let layer = places.layer(.water)
        let table = store.places
        var zooms: [Int: Double] = [:]
        for index in 0..<table.count where table.classes[index] == PlaceKind.water.rawValue {
            let first = table.points(ofPart: table.parts(of: index).lowerBound).map { MercatorPoint(x: table.xs[$0], y: table.ys[$0]) }
            guard let spot = WaterSpot(points: first), layer.maxZoom >= layer.minZoom else { continue }
            let text = layer.uppercase ? table.names[index].uppercased() : table.names[index]
            for step in 0...Int(((layer.maxZoom - layer.minZoom) * 20).rounded(.down)) {
                let zoom = layer.minZoom + Double(step) / 20
                let size = layer.size.value(at: zoom)
                guard let layout = try? labelFont.layout(text, size: size), !layout.glyphs.isEmpty else { break }
                let name = NameOutline(layout: layout, spacing: layer.letterSpacing * size, italic: layer.italic, anchor: Point(0, 0), angle: 0)
                // At scale 1 the halo stroked under a name is twice the style's width: half of it lies outside the glyphs.
                let half = name.halfExtents(halo: places.haloWidth)
                let pointsPerMetre = 256 * pow(2, zoom) / WebMercator.worldSize
                if spot.fits(halfLength: half.length / pointsPerMetre, halfHeight: half.height / pointsPerMetre) {
                    zooms[index] = zoom
                    break
                }
            }
        }
        return zooms
    }
}
