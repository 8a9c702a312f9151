import BaseMap
import Foundation
import GeoCore

extension Router {
    /// The router over a base map's streets at the speeds of a speeds file (`Data/routing/speeds.json`): the one way
    /// the server, the order commands and the benchmarks make their street network.
    public init(streets: FeatureTable, speedsFile: URL) throws(BadField) {
        self.init(graph: RoadGraph(lines: StreetLine.lines(of: streets), speeds: try StreetSpeeds(contentsOf: speedsFile)))
    }
}
