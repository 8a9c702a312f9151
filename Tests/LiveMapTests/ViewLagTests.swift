import Foundation
@testable import LiveMap
import Testing

/// Readiness's "degraded" reason for a view that does not answer: the service says why exactly while its view is
/// not current, and nothing once it is or when it keeps no view.
@Suite struct ViewLagTests {
    @Test func aViewThatIsNotLoadedSaysTheStoreAnswersUntilItIs() throws {
        let path = SQLiteStoreTests.temporaryPath()
        let view = LiveView(store: try SQLiteLiveStore(path: path, synchronous: false))
        let service = LiveMapService(store: view)
        #expect(!view.isCurrent)
        #expect(service.viewLag?.contains("the store answers") == true, "\(service.viewLag ?? "nil")")
        try view.load()
        #expect(view.isCurrent && service.viewLag == nil, "\(service.viewLag ?? "nil")")
        #expect(LiveMapService(store: try SQLiteLiveStore(path: path, synchronous: false)).viewLag == nil, "no view, no view lag")
    }
}
