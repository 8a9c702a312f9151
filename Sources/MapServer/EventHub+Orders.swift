import LiveMap

/// Order events: the customer's open streams are told each state their order enters, as an `order` event whose
/// data is the order as `GET /v1/me/orders/{id}` answers it. Nobody else's stream hears of it.
extension EventHub {
    /// Sends `order` (the JSON of the order's view) to `customer`'s streams, in turn with every other change.
    func orderChanged(_ order: String, for customer: PersonID) {
        queue.async {
            for id in self.byViewer[customer] ?? [] {
                guard let stream = self.subscribers[id]?.stream else { continue }
                if !stream.send("event: order\ndata: " + order + "\n\n") { self.drop(id) }
            }
        }
    }
}
