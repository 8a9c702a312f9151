import Foundation
import GeoCore
import HeatMap
import MapScene
import Raster
import Testing
@testable import MapEngine

/// The glow at street zoom: a hotspot keeps its colours but thins in its middle, so the street names under it keep
/// their contrast. Contrast is WCAG 2's ratio of relative luminances, measured on the frame's own pixels.
@Suite("The glow at street zoom")
struct GlowLegibilityTests {
    /// WCAG's relative luminance of an opaque sRGB colour.
    static func luminance(_ color: Color) -> Double {
        func linear(_ channel: UInt8) -> Double {
            let c = Double(channel) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(color.r) + 0.7152 * linear(color.g) + 0.0722 * linear(color.b)
    }

    static func contrast(_ a: Color, _ b: Color) -> Double {
        let (la, lb) = (luminance(a), luminance(b))
        return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
    }

    /// The street names' contrast in a frame of the demo's glow at Domino Park: for each pixel the base map inks in
    /// the street names' colour and the glow covers, against the nearest pixel of its white halo, in the frame with the
    /// glow. Returns the contrasts and the strongest glow alpha drawn.
    static func streetNameContrasts(zoom: Double) throws -> (contrasts: [Double], strongestGlow: UInt8) {
        let engine = try GlowTests.engine()
        let now = engine.scene.capturedAt
        for snap in try SnapsFile.read(engine.paths.dataDirectory.appendingPathComponent(SnapsFile.demoFile)) { engine.glow.aggregate.add(LiveGlow.posted(snap)) }
        let viewport = try Viewport(center: Coordinate(lat: 40.7142, lon: -73.9679), zoom: zoom, size: ScreenSize(width: 393, height: 852), scale: 2)
        let base = try engine.renderFrame(viewport, layers: [.base], now: now).canvas
        let glowing = try engine.renderFrame(viewport, layers: [.base, .heat], now: now).canvas
        let view = MapView(viewport: viewport)
        let glow = try engine.glow.renderer(for: view, at: now).render(view)
        let ink = engine.baseMap.style.labels.color
        let halo = engine.baseMap.style.labels.halo
        var contrasts: [Double] = []
        var strongest: UInt8 = 0
        for y in 0..<base.height {
            for x in 0..<base.width {
                let alpha = glow.straightRGBA[4 * (y * glow.width + x) + 3]
                strongest = max(strongest, alpha)
                guard alpha > 0, base.pixel(x: x, y: y) == ink else { continue }
                var nearest: (distance: Int, color: Color)?
                for dy in -4...4 {
                    for dx in -4...4 where (0..<base.width).contains(x + dx) && (0..<base.height).contains(y + dy) {
                        guard base.pixel(x: x + dx, y: y + dy) == halo, dx * dx + dy * dy < nearest?.distance ?? .max else { continue }
                        nearest = (dx * dx + dy * dy, glowing.pixel(x: x + dx, y: y + dy))
                    }
                }
                if let nearest { contrasts.append(contrast(glowing.pixel(x: x, y: y), nearest.color)) }
            }
        }
        return (contrasts, strongest)
    }

    /// At z17 the Domino Park glow was a red disc at 70% over the streets (street names at 1.7:1); now every street
    /// name pixel under it keeps at least 3:1 against its halo, and the glow still shows.
    @Test func streetNamesUnderTheGlowKeepAThreeToOneContrastAtZoom17() throws {
        let (contrasts, strongest) = try Self.streetNameContrasts(zoom: 17)
        #expect(contrasts.count > 200, "street names lie under the glow, so the bound means something: \(contrasts.count) pixels")
        let worst = contrasts.min() ?? 0
        #expect(worst >= 3, "the weakest street name pixel under the glow: \(worst):1 over \(contrasts.count) pixels")
        #expect(strongest >= 50, "the hotspot still glows: its strongest alpha is \(strongest)")
    }

    /// Thinning changes opacity only: every entry of the ramp has the same colour at street zoom as zoomed out,
    /// and zoomed out (z ≤ 15) the glow is as opaque as the style's opacity makes it.
    @Test func aPlaceKeepsItsColourAndThinsOnlyAtStreetZoom() throws {
        let engine = try GlowTests.engine()
        let renderer = HeatRenderer(source: HeatSource(points: [], referenceLatitude: 40.7), style: engine.glow.style)
        let near: [Color] = renderer.palette(at: 17)
        let far: [Color] = renderer.palette(at: 14)
        let sameColours = zip(near, far).allSatisfy { (a: Color, b: Color) in a.r == b.r && a.g == b.g && a.b == b.b }
        #expect(sameColours)
        let unthinned: [Color] = engine.glow.style.ramp.map { $0.withOpacity(engine.glow.style.opacity) }
        #expect(far == unthinned)
        let (nearest, farthest) = (near.map { $0.a }.max() ?? 0, far.map { $0.a }.max() ?? 0)
        #expect(nearest < farthest, "the middle of a hotspot thins at z17: \(nearest) against \(farthest)")
        #expect(near.prefix(20) == far.prefix(20), "the faint edges keep their opacity")
    }

    /// A ceiling out of range or out of order is refused naming the stop and what is allowed.
    @Test(arguments: [("[[15, 1.0], [17, 1.5]]", "heat.maxOpacity[1][1]", "0 … 1"), ("[[17, 1.0], [15, 0.3]]", "heat.maxOpacity[1][0]", "ascending"),
                      ("[[15]]", "heat.maxOpacity[0]", "[zoom, opacity]")])
    func badCeilingsAreNamed(stops: String, field: String, allowed: String) throws {
        let style = try String(contentsOf: SceneLoaderTests.dataDirectory.appendingPathComponent("styles/snapmap.json"), encoding: .utf8)
        let edited = style.replacingOccurrences(of: "\"maxOpacity\": [[15, 1.0], [16, 0.45], [17, 0.26]]", with: "\"maxOpacity\": \(stops)")
        #expect(edited != style)
        let file = EngineFixture.temporaryURL("style.json")
        try edited.write(to: file, atomically: true, encoding: .utf8)
        #expect { try EngineStyle(contentsOf: file) } throws: { error in
            guard let error = error as? DataFileError else { return false }
            return error.path == field && error.message.contains(allowed)
        }
    }
}
