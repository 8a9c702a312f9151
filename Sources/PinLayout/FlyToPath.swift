import Foundation
import GeoCore

/// One frame of a camera animation.
public struct FlyFrame: Hashable, Sendable, Codable {
    /// Seconds from the start.
    public let time: Double
    public let center: Coordinate
    public let zoom: Double
}

/// van Wijk and Nuij's smooth zoom and pan ("Smooth and efficient zooming and panning", 2003), as MapLibre's
/// flyTo uses it: ρ = 1.42, a duration from a speed of 1.2 screenfuls per second, eased with MapLibre's
/// default curve, sampled at 60 frames per second.
public enum FlyToPath {
    public static let rho = 1.42
    public static let speed = 1.2
    public static let framesPerSecond = 60.0
    /// Paths never take longer than this, in seconds.
    public static let maxDuration = 8.0

    public static func frames(from start: Camera, to end: Camera, viewportSize: ScreenSize) -> (duration: Double, frames: [FlyFrame]) {
        let startPoint = WebMercator.projectUnchecked(lat: start.center.lat, lon: start.center.lon)
        let endPoint = WebMercator.projectUnchecked(lat: end.center.lat, lon: end.center.lon)
        let pointsPerMetre = Viewport.tileSize * pow(2, start.zoom) / WebMercator.worldSize
        let w0 = max(viewportSize.width, viewportSize.height)
        let w1 = w0 / pow(2, end.zoom - start.zoom)
        let u1 = hypot(endPoint.x - startPoint.x, endPoint.y - startPoint.y) * pointsPerMetre
        let rho2 = rho * rho
        func r(_ i: Double) -> Double {
            let b = (w1 * w1 - w0 * w0 + (i == 0 ? 1 : -1) * rho2 * rho2 * u1 * u1) / (2 * (i == 0 ? w0 : w1) * rho2 * u1)
            return log((b * b + 1).squareRoot() - b)
        }
        var length: Double
        var widthAt: (Double) -> Double
        var along: (Double) -> Double
        if u1 < 1e-6 {
            length = abs(log(w1 / w0)) / rho
            let k = w1 < w0 ? -1.0 : 1.0
            widthAt = { s in exp(k * rho * s) }
            along = { _ in 0 }
        } else {
            let r0 = r(0)
            length = (r(1) - r0) / rho
            widthAt = { s in cosh(r0) / cosh(r0 + rho * s) }
            along = { s in w0 * ((cosh(r0) * tanh(r0 + rho * s) - sinh(r0)) / rho2) / u1 }
        }
        guard length.isFinite, length > 0 else { return (0, [FlyFrame(time: 0, center: end.center, zoom: end.zoom)]) }
        let duration = min(length / speed, maxDuration)
        let count = max(1, Int((duration * framesPerSecond).rounded(.up)))
        let frames = (0...count).map { step -> FlyFrame in
            let time = min(Double(step) / framesPerSecond, duration)
            let s = UnitBezier.ease(time / duration) * length
            let fraction = step == count ? 1 : along(s)
            let zoom = step == count ? end.zoom : start.zoom + log2(1 / widthAt(s))
            let point = MercatorPoint(x: startPoint.x + (endPoint.x - startPoint.x) * fraction, y: startPoint.y + (endPoint.y - startPoint.y) * fraction)
            let center = step == 0 ? start.center : step == count ? end.center : WebMercator.unprojectUnchecked(point)
            return FlyFrame(time: time, center: center, zoom: step == 0 ? start.zoom : zoom)
        }
        return (duration, frames)
    }
}

/// MapLibre's default easing, the CSS cubic Bézier (0.25, 0.1, 0.25, 1), solved for x by Newton's method.
enum UnitBezier {
    static let (x1, y1, x2, y2) = (0.25, 0.1, 0.25, 1.0)

    static func ease(_ x: Double) -> Double {
        guard x > 0 else { return 0 }
        guard x < 1 else { return 1 }
        var t = x
        for _ in 0..<8 {
            let error = curve(t, x1, x2) - x
            let slope = derivative(t, x1, x2)
            if abs(error) < 1e-9 || slope == 0 { break }
            t = min(max(t - error / slope, 0), 1)
        }
        return curve(t, y1, y2)
    }

    private static func curve(_ t: Double, _ a: Double, _ b: Double) -> Double {
        3 * a * (1 - t) * (1 - t) * t + 3 * b * (1 - t) * t * t + t * t * t
    }

    private static func derivative(_ t: Double, _ a: Double, _ b: Double) -> Double {
        3 * a * (1 - t) * (1 - t) + 6 * (b - a) * (1 - t) * t + 3 * (1 - b) * t * t
    }
}
