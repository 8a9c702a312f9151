import Foundation
import ServerTestSupport
import SnapMapClient
import Testing

/// The order endpoints through `SnapMapClient` against a live server: the Dasher picks up and drops off, the
/// customer reads each state, and anyone else (a friend of the Dasher's) is told the order does not exist.
@Suite("SnapMapClient: a delivery order")
struct ClientOrderTests {
    @Test func aDasherMovesAnOrderItsCustomerReadsAndNobodyElseFindsIt() async throws {
        let server = try ServerFixture()
        for id in ["orderer", "driver", "driverpal"] { _ = try server.operate("users", "add", id, "--name", id) }
        _ = try server.operate("friends", "add", "driver", "driverpal")
        let (customer, dasher, stranger) = try (SnapMapClient(baseURL: server.base, token: server.operate("users", "token", "orderer")),
                                                SnapMapClient(baseURL: server.base, token: server.operate("users", "token", "driver")),
                                                SnapMapClient(baseURL: server.base, token: server.operate("users", "token", "driverpal")))
        _ = try server.operate("orders", "create", "client-1", "--customer", "orderer", "--dasher", "driver", "--merchant", "Lucia's",
                               "--items", "Margherita pie;Garlic knots", "--from", "40.6795,-73.9810", "--to", "40.67015,-73.98549")
        _ = try server.operate("orders", "confirm", "client-1")
        let preparing = try await customer.order("client-1")
        #expect(preparing.state == "preparing" && preparing.store == "Lucia's" && preparing.items == ["Margherita pie", "Garlic knots"])
        #expect(Set(preparing.entered.keys) == ["confirming", "preparing"] && preparing.dasher == nil)
        // The customer's tracking map: the planned drive framed above the sheet, kept while nothing moved; the
        // Dasher's phone and anyone else are told it does not exist.
        let tracking = try await customer.trackingLayout("client-1")
        #expect(tracking.value.state == "preparing" && tracking.value.framing == "route" && tracking.value.line.count >= 2 && tracking.value.dasher == nil)
        #expect(try await customer.trackingLayout("client-1").notModified)
        let frame = try await customer.trackingFrame("client-1", size: "390x844", scale: 2)
        #expect(frame.value.starts(with: [0x89, 0x50, 0x4E, 0x47]) && frame.tag != nil)
        for attempt in [{ _ = try await dasher.trackingLayout("client-1") }, { _ = try await stranger.trackingFrame("client-1") }] as [@Sendable () async throws -> Void] {
            do {
                try await attempt()
                Issue.record("a tracking map someone may not have was answered")
            } catch let error as SnapMapError {
                guard case .notFound = error else { Issue.record("\(error)"); continue }
            }
        }
        let picked = try await dasher.pickUp("client-1")
        #expect(picked.state == "heading" && picked.dasher == nil, "the Dasher is never shown their own position here")
        #expect(try await customer.order("client-1").state == "heading")
        for attempt in [{ _ = try await stranger.order("client-1") }, { _ = try await customer.order("no-such-order") }] as [@Sendable () async throws -> Void] {
            do {
                try await attempt()
                Issue.record("an order someone may not read was answered")
            } catch let error as SnapMapError {
                guard case .notFound = error else { Issue.record("\(error)"); continue }
            }
        }
        let done = try await dasher.dropOff("client-1")
        #expect(done.state == "complete" && Set(done.entered.keys) == ["confirming", "preparing", "heading", "complete"])
        #expect(try await customer.order("client-1") == done)
    }
}
