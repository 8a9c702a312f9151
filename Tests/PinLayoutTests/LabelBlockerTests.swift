import GeoCore
import Testing
@testable import PinLayout

/// A label's candidate boxes are checked for fewer blockers once one is found and the rest are already known: the
/// full search is the reference.
@Suite("Label blockers")
struct LabelBlockerTests {
    /// Random avatars (half with a pose's box), labels and candidate boxes, on and off the screen: with any known
    /// blockers, a box fits exactly when the full search finds nothing, and the reasons joined with the known ones
    /// are the full search's joined with them.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func skippingKnownBlockersChangesNeitherTheFitNorTheReasons(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let style = PinStyle()
        var placement = SymbolPlacement(style: style, free: ScreenRect(x: 0, y: 59, width: 393, height: 710))
        func box(width: ClosedRange<Double>, height: ClosedRange<Double>) -> ScreenRect {
            ScreenRect(x: .random(in: -40...400, using: &random), y: .random(in: 20...800, using: &random),
                       width: .random(in: width, using: &random), height: .random(in: height, using: &random))
        }
        let avatars = 40
        for _ in 0..<avatars {
            let centre = ScreenPoint(x: .random(in: -20...413, using: &random), y: .random(in: 40...790, using: &random))
            let extent = Bool.random(using: &random) ? box(width: 40...150, height: 20...150) : nil
            placement.placeAvatar(at: centre, extent: extent)
        }
        for _ in 0..<30 { placement.placeLabel(box(width: 30...120, height: style.labelHeight...style.labelHeight)) }
        let all: [LabelBlockers] = [.edge, .label, .avatar, .nearer]
        var (fits, fewer) = (0, 0)
        for _ in 0..<3000 {
            let rect = box(width: 8...120, height: 4...style.labelHeight)
            let owner = Int.random(in: 0..<avatars, using: &random)
            let known = LabelBlockers(all.filter { _ in Bool.random(using: &random) })
            let full = placement.blockers(of: rect, owner: owner)
            let found = placement.blockers(of: rect, owner: owner, besides: known)
            #expect(found.isEmpty == full.isEmpty && found.isSubset(of: full) && found.union(known) == full.union(known), "\(rect) \(known): \(found) of \(full)")
            fits += full.isEmpty ? 1 : 0
            fewer += found != full ? 1 : 0
        }
        #expect(fits > 0 && fewer > 0, "the sample has boxes that fit (\(fits)) and searches cut short (\(fewer))")
    }

    /// A dropped label's reason names its blockers in alphabetical order, each once.
    @Test func reasonsAreNamedInAlphabeticalOrder() {
        let names = LabelBlockers.names.map(\.name)
        #expect(LabelBlockers([.edge, .label, .avatar, .nearer]).description == names.sorted().joined(separator: ", ") && Set(names).count == 4)
        #expect(LabelBlockers([.edge, .avatar]).description == "avatars, the screen edge" && LabelBlockers().description.isEmpty)
    }
}
