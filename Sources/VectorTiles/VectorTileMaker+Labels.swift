import BaseMap
import Foundation
import GeoCore

extension VectorTileMaker {
    /// Streets of the classes the raster style shows by the end of this zoom, one feature per class and name
    /// (the source's many pieces of one street merged); names from the zoom street names start at.
    func streets(_ frame: TileFrame) -> VectorTileLayer {
        var layer = VectorTileLayer(name: "streets", extent: Self.extent)
        let zooms = frame.styleZooms
        let named = style.labels.minZoom < zooms.until
        let table = store.streets
        var slots: [String: Int] = [:]
        var merged: [(street: StreetClass, name: String, encoder: CommandEncoder)] = []
        for feature in BaseMapStore.features(of: table, grid: store.streetGrid, in: frame.area) {
            guard let street = StreetClass(rank: table.classes[feature]), style.street(street).minZoom < zooms.until else { continue }
            let bounds = table.bounds(of: feature)
            guard max(bounds.width, bounds.height) * frame.unitsPerMetre >= frame.unitsPerPixel else { continue }
            let lines = table.parts(of: feature).flatMap { frame.lines(table, part: $0) }
            guard !lines.isEmpty else { continue }
            let name = named && street >= style.labels.minClass ? table.names[feature] : ""
            let key = street.rawValue + "\u{1F}" + name
            let slot = slots[key] ?? merged.count
            if slot == merged.count {
                slots[key] = slot
                merged.append((street, name, CommandEncoder()))
            }
            for line in lines { merged[slot].encoder.addLine(line) }
        }
        for entry in merged {
            var properties: [(String, VectorValue)] = [("class", .string(entry.street.rawValue))]
            if !entry.name.isEmpty { properties.append(("name", .string(entry.name))) }
            layer.add(properties: properties, type: .lineString, geometry: entry.encoder.integers)
        }
        return layer
    }

    /// Label points of the places the raster map names at the zooms the tile is drawn at: `minzoom` is the
    /// MapLibre zoom from which it does (its kind's first zoom, or later for a place too small on screen or a water
    /// name that would reach land at its first spot),
    /// `angle` the direction of its text in degrees clockwise from east.
    func places(_ frame: TileFrame) -> VectorTileLayer {
        var layer = VectorTileLayer(name: "places", extent: Self.extent)
        guard let places = style.places else { return layer }
        let zooms = frame.styleZooms
        let table = store.places
        for feature in BaseMapStore.features(of: table, grid: store.placeGrid, in: frame.area) {
            guard let kind = PlaceKind(rawValue: table.classes[feature]), kind != .station else { continue }
            let look = places.layer(kind)
            var from = max(look.minZoom, Self.zoom(showing: table.values[feature], atLeast: look.minAreaPoints))
            if kind == .water {
                guard let onWater = waterZooms[feature] else { continue }
                from = max(from, onWater)
            }
            guard from < zooms.until, look.maxZoom >= zooms.from else { continue }
            let first = table.points(ofPart: table.parts(of: feature).lowerBound).lowerBound
            let (x, y) = frame.point(x: table.xs[first], y: table.ys[first])
            let limit = Double(Self.buffer)
            guard x >= -limit, y >= -limit, x <= Double(Self.extent) + limit, y <= Double(Self.extent) + limit else { continue }
            let angle = Self.readable(atan2(table.ys[first] - table.ys[first + 1], table.xs[first + 1] - table.xs[first]) * 180 / .pi)
            var encoder = CommandEncoder()
            encoder.addPoints([TilePoint(x: Int32(x.rounded()), y: Int32(y.rounded()))])
            let area = table.values[feature] * Self.groundScale(atY: table.ys[first])
            layer.add(id: UInt64(feature + 1), properties: [
                ("kind", .string(Self.kindNames[Int(kind.rawValue)])), ("name", .string(table.names[feature])),
                ("area", .int(Int64(area.rounded()))), ("minzoom", .double(((from - MapLibreStyle.zoomOffset) * 100).rounded() / 100)), ("angle", .double(angle.rounded())),
            ], type: .point, geometry: encoder.integers)
        }
        return layer
    }

    /// Subway stations from the zooms the raster map marks them: `name`, and `minzoom`, the MapLibre zoom from which
    /// the raster map writes the name beside the mark.
    func transit(_ frame: TileFrame) -> VectorTileLayer {
        var layer = VectorTileLayer(name: "transit", extent: Self.extent)
        guard let places = style.places else { return layer }
        let (mark, names) = (places.stationMark, places.layer(.station))
        guard mark.minZoom < frame.styleZooms.until else { return layer }
        let table = store.places
        let limit = Double(Self.buffer)
        for feature in BaseMapStore.features(of: table, grid: store.placeGrid, in: frame.area) where table.classes[feature] == PlaceKind.station.rawValue {
            let first = table.points(ofPart: table.parts(of: feature).lowerBound).lowerBound
            let (x, y) = frame.point(x: table.xs[first], y: table.ys[first])
            guard x >= -limit, y >= -limit, x <= Double(Self.extent) + limit, y <= Double(Self.extent) + limit else { continue }
            var encoder = CommandEncoder()
            encoder.addPoints([TilePoint(x: Int32(x.rounded()), y: Int32(y.rounded()))])
            layer.add(id: UInt64(feature + 1), properties: [
                ("kind", .string("subway")), ("name", .string(table.names[feature])),
                ("minzoom", .double(((names.minZoom - MapLibreStyle.zoomOffset) * 100).rounded() / 100)),
            ], type: .point, geometry: encoder.integers)
        }
        return layer
    }

    /// `PlaceKind` names in the tiles, in its order.
    public static let kindNames = ["neighbourhood", "park", "water", "station"]

    /// The raster style's zoom from which an area (square mercator metres) covers `points` square points on screen.
    public static func zoom(showing area: Double, atLeast points: Double) -> Double {
        guard points > 0 else { return 0 }
        guard area > 0 else { return .infinity }
        let pointsPerMetreAtZero = 256 / WebMercator.worldSize
        return log2(points / (area * pointsPerMetreAtZero * pointsPerMetreAtZero)) / 2
    }

    /// An angle in degrees turned so that text along it reads left to right (within ±90°).
    static func readable(_ degrees: Double) -> Double {
        var turned = remainder(degrees, 360)
        if turned > 90 { turned -= 180 }
        if turned <= -90 { turned += 180 }
        return turned
    }
}
