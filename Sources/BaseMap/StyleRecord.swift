import Foundation
import GeoCore
import Raster

/// `snapmap.json` as written, before validation.
struct StyleRecord: Decodable {
    struct Parks: Decodable { let color: String; let minZoom: Double }
    struct Street: Decodable { let color: String; let minZoom: Double; let width: [[Double]] }
    struct Streets: Decodable { let casingColor: String; let casingWidth: [[Double]]; let classes: [String: Street] }
    struct Labels: Decodable {
        let minZoom: Double; let minClass: String; let size: [[Double]]; let color: String; let halo: String
        let haloWidth: Double; let spacing: Double; let maxTurnDegrees: Double
    }
    struct Generalization: Decodable { let tolerance: Double; let minArea: Double }
    struct PlaceLayer: Decodable {
        let color: String; let minZoom: Double; let maxZoom: Double; let size: [[Double]]; let minAreaPoints: Double
        let letterSpacing: Double; let uppercase: Bool; let italic: Double
        /// The station layer's mark.
        let mark: Mark?
    }
    struct Mark: Decodable { let minZoom: Double; let radius: [[Double]]; let fill: String; let ring: String; let ringWidth: Double; let gap: Double }
    struct Footsteps: Decodable { let color: String }
    struct Attribution: Decodable { let text: String; let size: Double; let ink: String; let plate: String; let margin: Double }
    struct Places: Decodable {
        let halo: String; let haloWidth: Double; let padding: Double
        let neighbourhood: PlaceLayer; let park: PlaceLayer; let water: PlaceLayer; let station: PlaceLayer
    }

    let name: String
    let water: String
    let land: String
    let parks: Parks
    let streets: Streets
    let labels: Labels
    let generalization: Generalization
    /// Place names; a style without them names no places.
    let places: Places?
    /// The credit frames carry; a style without it draws none.
    let attribution: Attribution?
    /// The tint of the streets a person has visited, in their own frames; a style without it tints none.
    let footsteps: Footsteps?

    func validated(file: String) throws(DataFileError) -> MapStyle {
        func color(_ text: String, _ path: String) throws(DataFileError) -> Color {
            do { return try Color(hex: text) } catch { throw DataFileError(file: file, path: path, message: error.description) }
        }
        func number(_ value: Double, _ path: String, _ range: ClosedRange<Double>) throws(DataFileError) -> Double {
            guard value.isFinite, range.contains(value) else {
                throw DataFileError(file: file, path: path, message: "\(value) is out of range: allowed \(range.lowerBound) … \(range.upperBound)")
            }
            return value
        }
        var layers: [MapStyle.StreetLayer] = []
        for street in StreetClass.allCases {
            let path = "streets.classes.\(street.rawValue)"
            guard let layer = streets.classes[street.rawValue] else { throw DataFileError(file: file, path: path, message: "missing street class") }
            layers.append(MapStyle.StreetLayer(color: try color(layer.color, path + ".color"), minZoom: try number(layer.minZoom, path + ".minZoom", 0...24),
                                               width: try ZoomStops(layer.width, field: path + ".width", file: file)))
        }
        if let unknown = streets.classes.keys.sorted().first(where: { StreetClass(rawValue: $0) == nil }) {
            throw DataFileError(file: file, path: "streets.classes.\(unknown)", message: "unknown street class; allowed: \(StreetClass.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard let minClass = StreetClass(rawValue: labels.minClass) else {
            throw DataFileError(file: file, path: "labels.minClass", message: "unknown street class \"\(labels.minClass)\"")
        }
        let labelStyle = MapStyle.Labels(
            minZoom: try number(labels.minZoom, "labels.minZoom", 0...24), minClass: minClass,
            size: try ZoomStops(labels.size, field: "labels.size", file: file), color: try color(labels.color, "labels.color"),
            halo: try color(labels.halo, "labels.halo"), haloWidth: try number(labels.haloWidth, "labels.haloWidth", 0...10),
            spacing: try number(labels.spacing, "labels.spacing", 20...2000),
            maxTurnDegrees: try number(labels.maxTurnDegrees, "labels.maxTurnDegrees", 0...90))
        var placeStyle: MapStyle.Places?
        if let places {
            placeStyle = try validatedPlaces(places, color: color, number: number, file: file)
        }
        var credit: MapStyle.Attribution?
        if let attribution {
            guard !attribution.text.isEmpty, attribution.text.count <= 200 else {
                throw DataFileError(file: file, path: "attribution.text", message: "must be 1 to 200 characters")
            }
            credit = MapStyle.Attribution(text: attribution.text, size: try number(attribution.size, "attribution.size", 4...40),
                                          ink: try color(attribution.ink, "attribution.ink"), plate: try color(attribution.plate, "attribution.plate"),
                                          margin: try number(attribution.margin, "attribution.margin", 0...100))
        }
        var tint: Color?
        if let footsteps { tint = try color(footsteps.color, "footsteps.color") }
        return MapStyle(name: name, water: try color(water, "water"), land: try color(land, "land"),
                        park: try color(parks.color, "parks.color"), parkMinZoom: try number(parks.minZoom, "parks.minZoom", 0...24),
                        casingColor: try color(streets.casingColor, "streets.casingColor"),
                        casingWidth: try ZoomStops(streets.casingWidth, field: "streets.casingWidth", file: file),
                        streets: layers, labels: labelStyle, places: placeStyle, attribution: credit,
                        footsteps: tint,
                        tolerance: try number(generalization.tolerance, "generalization.tolerance", 0.01...2),
                        minArea: try number(generalization.minArea, "generalization.minArea", 0...100))
    }

    private func validatedPlaces(_ places: Places, color: (String, String) throws(DataFileError) -> Color,
                                 number: (Double, String, ClosedRange<Double>) throws(DataFileError) -> Double,
                                 file: String) throws(DataFileError) -> MapStyle.Places {
        var placeLayers: [MapStyle.PlaceLayer] = []
        for (kind, layer) in [(PlaceKind.neighbourhood, places.neighbourhood), (.park, places.park), (.water, places.water),
                                 (.station, places.station)] {
            let path = "places.\(kind)"
            placeLayers.append(MapStyle.PlaceLayer(
                color: try color(layer.color, path + ".color"), minZoom: try number(layer.minZoom, path + ".minZoom", 0...24),
                maxZoom: try number(layer.maxZoom, path + ".maxZoom", 0...24), size: try ZoomStops(layer.size, field: path + ".size", file: file),
                minAreaPoints: try number(layer.minAreaPoints, path + ".minAreaPoints", 0...1e9),
                letterSpacing: try number(layer.letterSpacing, path + ".letterSpacing", 0...1), uppercase: layer.uppercase,
                italic: try number(layer.italic, path + ".italic", 0...0.5)))
        }
        guard let mark = places.station.mark else { throw DataFileError(file: file, path: "places.station.mark", message: "missing: a station needs a mark") }
        let stationMark = MapStyle.StationMark(
            minZoom: try number(mark.minZoom, "places.station.mark.minZoom", 0...24),
            radius: try ZoomStops(mark.radius, field: "places.station.mark.radius", file: file), fill: try color(mark.fill, "places.station.mark.fill"),
            ring: try color(mark.ring, "places.station.mark.ring"), ringWidth: try number(mark.ringWidth, "places.station.mark.ringWidth", 0...10),
            gap: try number(mark.gap, "places.station.mark.gap", 0...50))
        return MapStyle.Places(halo: try color(places.halo, "places.halo"), haloWidth: try number(places.haloWidth, "places.haloWidth", 0...10),
                               padding: try number(places.padding, "places.padding", 0...100), layers: placeLayers, stationMark: stationMark)
    }
}
