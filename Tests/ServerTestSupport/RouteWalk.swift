import Foundation

/// A synthetic Dasher's way along a route the server answered.
public enum RouteWalk {
    /// Points every `spacing` metres along a GeoJSON line (`[lon, lat]` pairs), by an equirectangular measure.
    public static func along(_ line: [[Double]], every spacing: Double) -> [(lat: Double, lon: Double)] {
        var points: [(lat: Double, lon: Double)] = [(line[0][1], line[0][0])]
        var carried = 0.0
        for (a, b) in zip(line, line.dropFirst()) {
            let k = cos(a[1] * .pi / 180) * 111_320.0
            let length = hypot((b[0] - a[0]) * k, (b[1] - a[1]) * 110_540.0)
            var at = spacing - carried
            while at <= length {
                points.append((a[1] + (b[1] - a[1]) * at / length, a[0] + (b[0] - a[0]) * at / length))
                at += spacing
            }
            carried = length - (at - spacing)
        }
        points.append((line[line.count - 1][1], line[line.count - 1][0]))
        return points
    }
}
