import Foundation
import GeoCore
import HeatMap

/// Reads `williamsburg/activity.json` (made by `snapmap generate-activity`) into heat points; errors name
/// the file and the point.
public enum ActivityLoader {
    public static let activityFile = "williamsburg/activity.json"
    public static let hotspotsFile = "williamsburg/hotspots.json"
    public static let weightRange: ClosedRange<Double> = 0...1000

    public static func load(dataDirectory: URL) throws(FixtureError) -> [HeatPoint] {
        let url = dataDirectory.appendingPathComponent(activityFile)
        guard let data = try? Data(contentsOf: url) else {
            throw FixtureError(file: url.path, path: "", message: "cannot read the file (make it with snapmap generate-activity)")
        }
        let activity: ActivityGenerator.Activity
        do {
            activity = try JSONDecoder().decode(ActivityGenerator.Activity.self, from: data)
        } catch {
            throw FixtureError.from(error, file: activityFile)
        }
        var points: [HeatPoint] = []
        for (index, snap) in activity.points.enumerated() {
            let path = "points[\(index)]"
            do {
                try GeoError.check(snap.weight, "weight", in: weightRange)
                points.append(try HeatPoint(coordinate: Coordinate(lat: snap.lat, lon: snap.lon), weight: snap.weight))
            } catch {
                throw FixtureError(file: activityFile, path: path, message: error.description)
            }
        }
        return points
    }
}
