import Foundation
import ServerTestSupport
import Testing

/// `/v1/me/orders/{id}/layout.json` and `/frame.png` over HTTP: the customer's tracking map follows a synthetic
/// Dasher driving through the API, nobody else (the Dasher included) learns the order exists, the finished map
/// keeps nothing of the drive, and a block between the two parties changes no byte of the tracking.
@Suite struct TrackingHTTPTests {
    private var server: ServerFixture { get throws { try ServerFixture.shared.get() } }

    private struct Layout: Decodable, Equatable {
        struct Point: Decodable, Equatable { let x, y: Double }
        struct Rect: Decodable, Equatable { let x, y, width, height: Double }
        let state, framing: String
        let margin: Double
        let freeRect: Rect
        let line: [Point]
        let home, store: Point
        let dasher: Point?

        /// Whether `point` lies where framed marks go: inside the free area, `margin` in (to a micro-point).
        func framed(_ point: Point) -> Bool {
            point.x >= freeRect.x + margin - 1e-6 && point.x <= freeRect.x + freeRect.width - margin + 1e-6
                && point.y >= freeRect.y + margin - 1e-6 && point.y <= freeRect.y + freeRect.height - margin + 1e-6
        }
    }

    /// A new order between Lucia's and the seed's home, confirmed: the customer's, the Dasher's and the Dasher's
    /// friend's tokens, and the planned drive (the operator's `orders route`) as `[lon, lat]` pairs with its length.
    private func order(_ server: ServerFixture, _ id: String) throws -> (customer: String, dasher: String, friend: String, line: [[Double]], length: Double) {
        let (customer, dasher, friend) = ("c-\(id)", "d-\(id)", "f-\(id)")
        _ = try server.operate("users", "add", customer, "--name", "Cora \(id)")
        _ = try server.operate("users", "add", dasher, "--name", "Zed Driver")
        _ = try server.operate("users", "add", friend, "--name", "Pal \(id)")
        _ = try server.operate("friends", "add", dasher, friend)
        _ = try server.operate("orders", "create", id, "--customer", customer, "--dasher", dasher, "--merchant", "Lucia's", "--items", "Pie",
                               "--from", OrderHTTPTests.store, "--to", OrderHTTPTests.home)
        _ = try server.operate("orders", "confirm", id)
        let route = try #require(try JSONSerialization.jsonObject(with: Data(server.operate("orders", "route", "--from", OrderHTTPTests.store,
                                                                                               "--to", OrderHTTPTests.home).utf8)) as? [String: Any])
        let line = try #require((route["geometry"] as? [String: Any])?["coordinates"] as? [[Double]])
        return (try server.operate("users", "token", customer), try server.operate("users", "token", dasher),
                try server.operate("users", "token", friend), line, try #require((route["properties"] as? [String: Double])?["lengthMeters"]))
    }

    /// The metres left in each order event of `order` the stream delivered, in turn.
    private static func remaining(_ text: String, _ order: String) -> [Double] {
        text.components(separatedBy: "\n").filter { $0.hasPrefix("data: {") && $0.contains(#""id":"\#(order)""#) }
            .compactMap { (try? JSONSerialization.jsonObject(with: Data($0.dropFirst(6).utf8)) as? [String: Any])?["remainingMeters"] as? Double }
    }

    /// Sends `fixes` as the Dasher's, fix i taken at `start` + 5 i s, then waits until the stream tells the customer
    /// of the last one (the first event with at most the metres it leaves, plus a road's snap).
    private func drive(_ server: ServerFixture, _ fixes: ArraySlice<(lat: Double, lon: Double)>, from start: Date, leaving left: Double,
                       dasher: String, events: EventStream, order: String) async throws {
        for (i, fix) in zip(fixes.indices, fixes) {
            let at = ISO8601DateFormatter().string(from: start.addingTimeInterval(5 * Double(i)))
            let body = Data(#"{"lat":\#(fix.lat),"lon":\#(fix.lon),"accuracyMeters":8,"at":"\#(at)"}"#.utf8)
            #expect(try await server.fetch("/v1/me/location", method: "PUT", body: body, token: dasher).0 == 204, "fix \(i)")
        }
        #expect(events.read(timeout: 120) { Self.remaining($0, order).contains { $0 <= left + 25 } }, "\(events.received)")
    }

    /// The Dasher picks the order up; the first fix of a drive of `count` fixes 5 s apart, ending at the pickup's time.
    private func pickUp(_ server: ServerFixture, _ order: String, dasher: String, count: Int) async throws -> Date {
        let picked = try await server.fetch("/v1/me/orders/\(order)/pickup", method: "POST", token: dasher)
        #expect(picked.0 == 200)
        let entered = try #require((try JSONSerialization.jsonObject(with: picked.2) as? [String: Any])?["entered"] as? [String: String])
        return try #require(ISO8601DateFormatter().date(from: entered["heading"] ?? "")).addingTimeInterval(-5 * Double(count))
    }

    /// The order's tracking layout as its customer gets it; asked again after `Retry-After`, as a phone does, while
    /// the server is still building its street network (the first order of the shared server starts it).
    private func layout(_ server: ServerFixture, _ order: String, _ token: String) async throws -> (Layout, Data) {
        var (status, headers, body) = try await server.fetch("/v1/me/orders/\(order)/layout.json", token: token)
        for _ in 0..<120 where status == 503 {
            try await Task.sleep(for: .seconds(Double(headers["retry-after"].flatMap(Int.init) ?? 1)))
            (status, headers, body) = try await server.fetch("/v1/me/orders/\(order)/layout.json", token: token)
        }
        #expect(status == 200, "\(String(decoding: body, as: UTF8.self))")
        return (try JSONDecoder().decode(Layout.self, from: body), body)
    }

    @Test func theCustomersTrackingMapFollowsTheDriveAndNobodyElseGetsIt() async throws {
        let server = try self.server
        let id = "trk-\(UUID().uuidString.prefix(6).lowercased())"
        let (customer, dasher, friend, line, length) = try order(server, id)
        let base = "/v1/me/orders/\(id)"

        let (planned, _) = try await layout(server, id, customer)
        #expect(planned.state == "preparing" && planned.framing == "route" && planned.margin == 40 && planned.dasher == nil)
        #expect(planned.line.count >= 2 && (planned.line + [planned.home, planned.store]).allSatisfy(planned.framed), "the drive is framed above the sheet")
        let unknown = try await server.fetch("/v1/me/orders/no-such-\(id)/layout.json", token: friend)
        #expect(unknown.0 == 404)
        for answer in ["layout.json", "frame.png"] {
            for token in [dasher, friend] {
                let theirs = try await server.fetch("\(base)/\(answer)", token: token)
                #expect(theirs.0 == 404 && theirs.2 == unknown.2, "the Dasher and anyone else get the unknown order's answer")
            }
        }
        let bad = try await server.fetch("\(base)/frame.png?size=100x100", token: customer)
        #expect(bad.0 == 400 && String(decoding: bad.2, as: UTF8.self).contains(#""parameter":"size""#))

        let events = try EventStream(server: server, token: customer)
        #expect(events.read(until: "event: ready", timeout: 120), "a loaded full run can take long to open a stream")
        let fixes = RouteWalk.along(line, every: length / 15)
        let start = try await pickUp(server, id, dasher: dasher, count: fixes.count)
        let half = fixes.count / 2
        try await drive(server, fixes[..<half], from: start, leaving: length - length / 15 * Double(half - 1), dasher: dasher, events: events, order: id)
        let (driving, _) = try await layout(server, id, customer)
        let first = try await server.fetch("\(base)/frame.png", token: customer)
        let dasherPoint = try #require(driving.dasher)
        #expect(driving.state == "heading" && driving.framing == "route" && driving.line.first == dasherPoint, "the line runs from the Dasher home")
        #expect(first.0 == 200 && first.1["content-type"] == "image/png" && first.2.starts(with: [0x89, 0x50, 0x4E, 0x47]))

        try await drive(server, fixes[half...], from: start, leaving: 0, dasher: dasher, events: events, order: id)
        let (arriving, _) = try await layout(server, id, customer)
        #expect(arriving.state == "nearby" && arriving.framing == "lastStretch" && arriving.margin == 50)
        #expect((arriving.line + [arriving.home]).allSatisfy(arriving.framed) && arriving.dasher.map(arriving.framed) == true)
        let left = Self.remaining(events.received, id)
        #expect(left.count >= 10 && left.last! < left.first! / 4, "\(left)")
        // The Dasher moved: the first frame's tag is stale (a new frame), the new one's current (304).
        let tag = try #require(first.1["etag"])
        let moved = try await server.fetch("\(base)/frame.png", headers: ["If-None-Match": tag], token: customer)
        #expect(moved.0 == 200 && moved.2 != first.2 && moved.1["etag"] != tag)
        #expect(try await server.fetch("\(base)/frame.png", headers: ["If-None-Match": moved.1["etag"] ?? ""], token: customer).0 == 304)

        // Dropped off: no line and no Dasher, and byte for byte the map of an order with the same ends never driven.
        #expect(try await server.fetch("\(base)/dropoff", method: "POST", token: dasher).0 == 200)
        let (done, doneBody) = try await layout(server, id, customer)
        #expect(done.state == "complete" && done.line.isEmpty && done.dasher == nil)
        let never = "\(id)-ref"
        _ = try server.operate("orders", "create", never, "--customer", "c-\(id)", "--dasher", "d-\(id)", "--merchant", "Lucia's", "--items", "Pie",
                               "--from", OrderHTTPTests.store, "--to", OrderHTTPTests.home)
        for event in ["confirm", "pickup", "dropoff"] { _ = try server.operate("orders", event, never) }
        #expect(try await layout(server, never, customer).1 == doneBody)
        let doneFrame = try await server.fetch("\(base)/frame.png", token: customer)
        let neverFrame = try await server.fetch("/v1/me/orders/\(never)/frame.png", token: customer)
        #expect(doneFrame.0 == 200 && doneFrame.2 == neverFrame.2)
    }

    /// What was chosen for blocks: the order still needs tracking, so a block either way between its customer and
    /// its Dasher changes no byte of the order's answers; no answer ever names or identifies the other party.
    @Test func aBlockBetweenCustomerAndDasherChangesNoByteOfTheTrackingAndNamesNobody() async throws {
        let server = try self.server
        let id = "blk-\(UUID().uuidString.prefix(6).lowercased())"
        let (customer, dasher, _, line, length) = try order(server, id)
        let base = "/v1/me/orders/\(id)"
        let events = try EventStream(server: server, token: customer)
        #expect(events.read(until: "event: ready", timeout: 120), "a loaded full run can take long to open a stream")
        let fixes = RouteWalk.along(line, every: length / 10)
        let start = try await pickUp(server, id, dasher: dasher, count: fixes.count)
        try await drive(server, fixes[..<4], from: start, leaving: length - length / 10 * 3, dasher: dasher, events: events, order: id)
        func answers() async throws -> [Data] {
            var bodies: [Data] = []
            for path in [base, "\(base)/layout.json", "\(base)/frame.png"] {
                let (status, _, body) = try await server.fetch(path, token: customer)
                #expect(status == 200, "\(path)")
                bodies.append(body)
            }
            return bodies
        }
        let before = try await answers()
        #expect(try await server.fetch("/v1/me/blocks/d-\(id)", method: "POST", token: customer).0 == 204)
        #expect(try await answers() == before, "the customer's block")
        #expect(try await server.fetch("/v1/me/blocks/d-\(id)", method: "DELETE", token: customer).0 == 204)
        #expect(try await server.fetch("/v1/me/blocks/c-\(id)", method: "POST", token: dasher).0 == 204)
        #expect(try await answers() == before, "the Dasher's block")
        // The drive goes on under the block and the order is delivered.
        try await drive(server, fixes[4...], from: start, leaving: 0, dasher: dasher, events: events, order: id)
        #expect(try await server.fetch(base, token: customer).2 != before[0])
        #expect(try await server.fetch("\(base)/dropoff", method: "POST", token: dasher).0 == 200)
        let text = [events.received] + (try await answers()).prefix(2).map { String(decoding: $0, as: UTF8.self) }
        #expect(text.allSatisfy { !$0.contains("d-\(id)") && !$0.contains("Zed Driver") }, "no answer names the Dasher")
    }
}
