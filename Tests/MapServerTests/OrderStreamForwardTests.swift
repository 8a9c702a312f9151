import Foundation
import LiveMap
import MapScene
import Orders
import ServerTestSupport
import Testing
@testable import MapServer

/// An order only moves forward on its customer's stream. Two servers track every drive (one from the Dasher's phone,
/// the other from the bus): the one that lost the race to turn the order nearby may have read it as "heading" just
/// before, and hands that to its streams after the bus brought "nearby". The interleaving is forced here by handing
/// the hub the states in that order, and the stream is read as a phone reads it (curl, through the HTTP server).
@Suite struct OrderStreamForwardTests {
    @Test func aStateReadBeforeALaterOneWasSentIsNeverSentAfterIt() throws {
        let map = try InProcessMap(snaps: [], at: Date(timeIntervalSince1970: 1_800_000_000))
        let server = try HTTPServer(host: "127.0.0.1", port: 0, threads: 2) { map.api.handle($0) }
        let stream = try EventStream(base: try #require(URL(string: "http://127.0.0.1:\(server.port)")), token: map.token)
        #expect(stream.read(until: "event: ready", timeout: 60), "\(stream.received)")

        let customer = try DemoSeed.viewerID(map.engine.scene)
        let at = map.clock.now
        func order(_ id: String, _ events: [OrderEvent]) throws -> Order {
            var order = try Order(id: OrderID(id), storeName: "Lucia's", customer: customer, dasher: PersonID(trusted: "dasher"), items: ["Pie"], at: at)
            for event in events { try order.apply(event, at: at) }
            return order
        }
        let heading = try order("race", [.confirm, .pickup])
        let other = try order("other", [.confirm, .pickup])
        let sent = [heading, try order("race", [.confirm, .pickup, .nearby]), heading, other, heading, try order("race", [.confirm, .pickup, .nearby, .dropoff])]
        for each in sent { map.api.events.orderChanged(each, String(decoding: try MapAPI.encoded(OrderView(each, nil)), as: UTF8.self)) }

        #expect(stream.read(until: #""state":"complete""#, timeout: 60), "\(stream.received)")
        let states = stream.received.components(separatedBy: "\n").filter { $0.hasPrefix("data: {") && $0.contains(#""store""#) }
            .map { line in ["race", "other"].first { line.contains(#""id":"\#($0)""#) }! + ":" + (OrderState.allCases.first { line.contains(#""state":"\#($0.rawValue)""#) }?.rawValue ?? "?") }
        #expect(states == ["race:heading", "race:nearby", "other:heading", "race:complete"])
        withExtendedLifetime(server) {}
    }

    /// The states kept for one stream stay within their bound, finished orders forgotten first.
    @Test func theStatesKeptAreBoundedAndFinishedOrdersGoFirst() throws {
        var states = SentOrderStates()
        let open = try OrderID("open")
        var admitted = [states.admit(open, .nearby)]
        for index in 0..<SentOrderStates.limit { admitted.append(states.admit(try OrderID("done-\(index)"), .complete)) }
        #expect(admitted.allSatisfy { $0 } && states.count == SentOrderStates.limit)
        let again = [states.admit(open, .heading), states.admit(open, .nearby), states.admit(open, .complete)]
        #expect(again == [false, true, true], "the unfinished order outlived the finished ones, and moves forward")
    }
}
