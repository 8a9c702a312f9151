import LiveMap
import Orders

/// Order events: the customer's open streams are told each state their order enters, as an `order` event whose
/// data is the order as `GET /v1/me/orders/{id}` answers it. Nobody else's stream hears of it.
extension EventHub {
    /// Sends `body` (the JSON of `order`'s view) to its customer's streams, in turn with every other change, except
    /// to a stream already sent a later state of the order: an order only moves forward on a stream.
    func orderChanged(_ order: Order, _ body: String) {
        queue.async {
            for id in self.byViewer[order.customer] ?? [] {
                // A server that lost the race to move the order (a drive's fix re-read it just before another server
                // turned it nearby) sends what it read after the bus brought the newer state.
                guard self.subscribers[id]?.orders.admit(order.id, order.state) == true, let stream = self.subscribers[id]?.stream else { continue }
                if !stream.send("event: order\ndata: " + body + "\n\n") { self.drop(id) }
            }
        }
    }
}

/// The latest state each order was sent in on one stream, for at most `limit` orders (past it, finished orders are
/// forgotten first, then the one sent longest ago).
struct SentOrderStates {
    static let limit = 64
    private var latest: [OrderID: (state: OrderState, turn: Int)] = [:]
    private var turn = 0

    /// Whether `order` may be sent in `state` (no later state of it was sent), taking note of it when it may.
    mutating func admit(_ order: OrderID, _ state: OrderState) -> Bool {
        if let sent = latest[order]?.state, state < sent { return false }
        turn += 1
        latest[order] = (state, turn)
        if latest.count > Self.limit, let oldest = latest.min(by: { Self.keep($0.value) < Self.keep($1.value) })?.key {
            latest[oldest] = nil
        }
        return true
    }

    /// Orders are forgotten in this order, smallest first: finished before unfinished, then by when last sent.
    private static func keep(_ sent: (state: OrderState, turn: Int)) -> Int {
        (sent.state.isFinal ? 0 : 1) << 48 + sent.turn
    }

    /// How many orders are remembered (for tests).
    var count: Int { latest.count }
}
