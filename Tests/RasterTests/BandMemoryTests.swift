import Foundation
import Testing
import Parallel
@testable import Raster

/// What the banded encoders make is freed with them: a PNGBands held by nothing leaves nothing behind (the slots
/// the bands are made in once kept every band's bytes and parse for ever: 16 MB a phone frame, every request).
@Suite("Banded encodings free what they made")
struct BandMemoryTests {
    private final class Probe: Sendable {}

    @Test func theResultsOfABandedMapAreFreedWithTheirCopies() {
        weak var first: Probe?
        weak var last: Probe?
        do {
            let made = ParallelFor.map(6) { _ in Probe() }
            (first, last) = (made.first, made.last)
            #expect(first != nil && last != nil)
        }
        #expect(first == nil && last == nil)
    }

    /// A kept parse lives exactly as long as the encoding that owns it.
    @Test func aKeptParseIsFreedWithItsEncoding() throws {
        let canvas = try Canvas(width: 300, height: 700, background: Color(r: 40, g: 90, b: 160))
        weak var parse: PNGBands.KeptParse?
        do {
            let bands = try PNGBands(canvas)
            parse = bands.bands.first?.kept
            #expect(parse != nil, "an opaque canvas keeps its parse (else this checks nothing)")
        }
        #expect(parse == nil)
    }
}
