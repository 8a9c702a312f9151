import Foundation
import GeoCore
import HeatMap
import Raster

/// The scene's glow: the style's look of it, the live aggregate of public Snaps it is drawn from (no friend's
/// location ever feeds it), and the latitude its sizes in metres are measured at (the scene's, fixed, so tiles agree).
/// Drawing takes the time it is given and reads no clock.
public final class SceneGlow: Sendable {
    public let style: HeatStyle
    public let aggregate: SnapAggregate
    public let latitude: Double

    /// An empty glow drawn with `style`, its Snaps counted by the style's settings, its sizes measured at `latitude`.
    public init(style: HeatStyle, latitude: Double) {
        self.style = style
        aggregate = SnapAggregate(settings: .init(halfLifeHours: style.halfLifeHours, minimumPosters: style.minimumPosters,
                                                  maxWeightPerPoster: style.maxWeightPerPoster, epochSeconds: style.epochSeconds))
        self.latitude = latitude
    }

    /// The points that can colour `view` at `now`: those of the snapshot of `now`'s epoch within the kernel's reach
    /// of the view.
    public func points(reaching view: MapView, at now: Date) -> [HeatPoint] {
        let sigma = HeatRenderer(source: HeatSource(points: [], referenceLatitude: latitude), style: style).sigmaPixels(for: view)
        let reach = (DensityField.kernelReach + 1) * max(sigma, DensityField.minimumSigma) / view.pixelsPerMetre
        let bounds = view.mercatorBounds
        return aggregate.points(in: MercatorRect(minX: bounds.minX - reach, minY: bounds.minY - reach, maxX: bounds.maxX + reach,
                                                 maxY: bounds.maxY + reach), at: now)
    }

    /// The glow over `view` at `now`, ready to draw.
    public func renderer(for view: MapView, at now: Date) -> HeatRenderer {
        HeatRenderer(source: HeatSource(points: points(reaching: view, at: now), referenceLatitude: latitude), style: style)
    }

    /// Draws the glow over `view` at `now` into `canvas` (a canvas of that view, or of a band of it).
    public func draw(_ view: MapView, at now: Date, into canvas: Canvas) throws {
        try renderer(for: view, at: now).draw(view, into: canvas)
    }

    /// What changes with the snapshot of `now`'s epoch and nothing else: its digest, as text.
    public func revision(at now: Date) -> String {
        String(aggregate.snapshot(at: now).digest, radix: 16)
    }

    /// A hash of the points that can colour `view` at `now`, empty when none does.
    public func fingerprint(of view: MapView, at now: Date) -> String {
        let points = points(reaching: view, at: now)
        return points.isEmpty ? "" : String(GlowSnapshot.fingerprint(of: points), radix: 16)
    }
}
