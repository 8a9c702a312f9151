import Foundation
import GeoCore
import LiveMap
import Orders
import Testing

/// The order's life and the one rule for who sees its Dasher, against a model that replays the event log.
@Suite struct OrderLifeTests {
    static let people = try! ["ana", "ben", "cat", "dev"].map { try PersonID($0) }

    /// The model: the events that were accepted, replayed from the start; the Dasher shows to the customer
    /// exactly when a pickup was accepted and no drop-off or cancel came after it.
    static func modelSeesDasher(_ viewer: PersonID, customer: PersonID, dasher: PersonID, accepted: [OrderEvent]) -> Bool {
        guard viewer == customer, let pickup = accepted.lastIndex(of: .pickup) else { return false }
        return !accepted[pickup...].contains(.dropoff) && !accepted[pickup...].contains(.cancel)
    }

    @Test func theDasherShowsToTheCustomerOnlyFromPickupToDropOff() throws {
        var random = SplitMix64(seed: 30)
        for round in 0..<500 {
            let customer = Self.people[Int(random.next() % 4)]
            let dasher = Self.people.filter { $0 != customer }[Int(random.next() % 3)]
            var now = Date(timeIntervalSince1970: 1_800_000_000)
            var order = try Order(id: OrderID("o\(round)"), storeName: "Lucia's", customer: customer, dasher: dasher, items: ["Margherita"], at: now)
            var accepted: [OrderEvent] = []
            for _ in 0..<Int(random.next() % 7) {
                let event = OrderEvent.allCases[Int(random.next() % UInt64(OrderEvent.allCases.count))]
                now = now.addingTimeInterval(Double(random.next() % 600))
                let before = order
                do {
                    try order.apply(event, at: now)
                    accepted.append(event)
                    #expect(order.entered[order.state] == now)
                } catch {
                    #expect(order == before, "a refused \(event) changes nothing")
                    #expect(Order.transition(event).from.contains(before.state) == false)
                }
                for viewer in Self.people {
                    #expect(DasherRule.seesDasher(viewer, of: order)
                            == Self.modelSeesDasher(viewer, customer: customer, dasher: dasher, accepted: accepted),
                            "\(viewer) after \(accepted) (customer \(customer), Dasher \(dasher))")
                }
            }
            #expect(!DasherRule.seesDasher(dasher, of: order), "a Dasher is never shown to themselves through an order")
        }
    }

    @Test func theStatesFollowTheSheetsSteps() throws {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        var order = try Order(id: OrderID("o1"), storeName: "Lucia's", customer: PersonID("ana"), dasher: PersonID("ben"), items: ["Margherita"], at: start)
        for (offset, event) in [OrderEvent.confirm, .pickup, .nearby, .dropoff].enumerated() {
            try order.apply(event, at: start.addingTimeInterval(Double(offset + 1) * 60))
        }
        #expect(order.state == .complete)
        #expect(order.entered.keys.sorted() == [.confirming, .preparing, .heading, .nearby, .complete])
        #expect(throws: LiveMapError.conflict(message: "order o1 is complete; cancel needs it confirming or preparing or heading or nearby")) {
            try order.apply(.cancel, at: start.addingTimeInterval(600))
        }
    }

    @Test func aBadOrderIsRefusedNamingTheField() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let (ana, ben) = (try PersonID("ana"), try PersonID("ben"))
        #expect(throws: LiveMapError.invalid(field: "dasher", message: "must not be the order's customer")) {
            try Order(id: OrderID("o1"), storeName: "Lucia's", customer: ana, dasher: ana, items: ["Margherita"], at: now)
        }
        #expect(throws: LiveMapError.invalid(field: "items", message: "must be 1 to 50 items, got 0")) {
            try Order(id: OrderID("o1"), storeName: "Lucia's", customer: ana, dasher: ben, items: [], at: now)
        }
        #expect { try Order(id: OrderID("o1"), storeName: "Lucia's", customer: ana, dasher: ben, items: ["a\u{202E}b"], at: now) } throws: {
            ($0 as? LiveMapError)?.field == "items[0]"
        }
        #expect(throws: LiveMapError.self) { try OrderID("Order 1") }
    }
}
