import Foundation
import GeoCore

/// Who is looking at the map.
public struct Viewer: Hashable, Sendable, Codable {
    public let name: String
    public let username: String
}

/// How the map reacts to a selected friend: the zoom it flies to and the card it leaves room for.
public struct SelectionSettings: Hashable, Sendable, Codable {
    public static let cardHeightRange: ClosedRange<Double> = 0...2000

    /// The zoom a selection flies in to (never out from a closer zoom).
    public let zoom: Double
    /// The largest zoom any fitting may reach.
    public let maxZoom: Double
    /// The height of the card that slides up, in points.
    public let cardHeight: Double
}

/// `scene.json` as written, before validation.
struct SceneRecord: Decodable {
    let viewer: Viewer
    /// The viewer's own cartoon look.
    let viewerLook: AvatarLook?
    let capturedAt: String
    /// As written: checked by `validatedViewport`, through the validating initializer.
    let viewport: Viewport
    let selection: SelectionSettings

    func validatedViewport(file: String) throws(DataFileError) -> Viewport {
        do {
            return try Viewport(center: viewport.center, zoom: viewport.zoom, size: viewport.size,
                                scale: viewport.scale, insets: viewport.insets)
        } catch {
            throw DataFileError(file: file, path: "viewport", message: error.description)
        }
    }

    func validatedCapturedAt(file: String) throws(DataFileError) -> Date {
        guard let date = ISO8601Time.date(from: capturedAt) else {
            throw DataFileError(file: file, path: "capturedAt", message: "expected an ISO 8601 time such as \(ISO8601Time.example)")
        }
        return date
    }

    func validatedSelection(file: String) throws(DataFileError) -> SelectionSettings {
        let zooms = Viewport.zoomRange
        let checks: [(String, Double, ClosedRange<Double>)] = [
            ("zoom", selection.zoom, zooms), ("maxZoom", selection.maxZoom, zooms),
            ("cardHeight", selection.cardHeight, SelectionSettings.cardHeightRange),
        ]
        for (name, value, range) in checks {
            do {
                try BadField.check(value, name, in: range)
            } catch {
                throw DataFileError(file: file, path: "selection.\(name)", message: error.description)
            }
        }
        return selection
    }
}
