import Foundation
import Testing

/// `snapmap orders route`: a drive on the streets as GeoJSON, and its refusals.
extension CLITests {
    @Test func ordersRoutePrintsALineStringFeatureWithItsLengthAndDuration() throws {
        let result = try run("orders", "route", "--from", "40.6795,-73.9810", "--to", "40.67015,-73.98549")
        #expect(result.status == 0, "\(result.stderr)")
        let json = try result.json()
        let geometry = try #require(json["geometry"] as? [String: Any])
        let properties = try #require(json["properties"] as? [String: Double])
        let line = try #require(geometry["coordinates"] as? [[Double]])
        #expect(json["type"] as? String == "Feature" && geometry["type"] as? String == "LineString")
        let length = try #require(properties["lengthMeters"]), duration = try #require(properties["durationSeconds"])
        // The line's own length on a sphere of the mean radius (within 0.5% of the ellipsoid in NYC).
        func metres(_ a: [Double], _ b: [Double]) -> Double {
            let (lat1, lat2) = (a[1] * .pi / 180, b[1] * .pi / 180), dLon = (b[0] - a[0]) * .pi / 180
            let h = pow(sin((lat2 - lat1) / 2), 2) + cos(lat1) * cos(lat2) * pow(sin(dLon / 2), 2)
            return 2 * 6_371_008.8 * asin(h.squareRoot())
        }
        let measured = zip(line, line.dropFirst()).reduce(0) { $0 + metres($1.0, $1.1) }
        #expect(abs(measured - length) <= 0.005 * length, "lengthMeters \(length) against the line's \(measured)")
        #expect(duration > length / (40 / 3.6) && duration < length / (10 / 3.6), "between the fastest and slowest street speeds")
        let again = try run("orders", "route", "--from", "40.6795,-73.9810", "--to", "40.67015,-73.98549")
        #expect(again.stdout == result.stdout, "the same route gives the same bytes")
    }

    @Test func ordersRouteRefusesAnEndOffTheStreetsOrOutOfRange() throws {
        let harbour = try run("orders", "route", "--from", "40.60,-74.05", "--to", "40.67015,-73.98549")
        #expect(harbour.status == 2 && harbour.stdout.isEmpty)
        #expect(harbour.stderr.contains("--from") && harbour.stderr.contains("500 m"), "\(harbour.stderr)")
        let outOfRange = try run("orders", "route", "--from", "40.6795,-73.9810", "--to", "91,-73.98549")
        #expect(outOfRange.status == 2 && outOfRange.stdout.isEmpty && outOfRange.stderr.contains("to"), "\(outOfRange.stderr)")
        let unknown = try run("orders", "fly")
        #expect(unknown.status == 2 && unknown.stdout.isEmpty)
    }
}

/// `snapmap demo-delivery`: the seed's order replayed as JSON lines.
extension CLITests {
    @Test func demoDeliveryPlaysTheOrderToItsDoor() throws {
        let result = try run("demo-delivery", "--order", "lucias")
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try result.stdout.split(separator: "\n").map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(lines.first?["state"] as? String == "confirming" && lines.last?["state"] as? String == "complete")
        #expect(lines.contains { $0["state"] as? String == "nearby" && $0["dasher"] != nil && ($0["arrives"] as? String)?.hasPrefix("Arrives ") == true })
        let framings = lines.compactMap { ($0["map"] as? [String: Any])?["framing"] as? String }
        #expect(framings.count == lines.count && framings.first == "route" && framings.contains("lastStretch"), "each moment's tracking layout")
        let unknown = try run("demo-delivery", "--order", "nowhere")
        #expect(unknown.status == 2 && unknown.stdout.isEmpty && unknown.stderr.contains("--order"))
    }
}

/// `snapmap orders create|show|confirm|pickup|nearby|dropoff|cancel`: the operator's orders in the live store.
extension CLITests {
    @Test func anOperatorsOrderMovesThroughItsLifeAndGoesWithItsCustomer() throws {
        let database = FileManager.default.temporaryDirectory.appendingPathComponent("snapmap-orders-\(UUID().uuidString)/live.db").path
        func snapmap(_ arguments: String...) throws -> Result { try runArray(arguments, database: database) }
        for (id, name) in [("cora", "Cora"), ("dash", "Dash")] { #expect(try snapmap("users", "add", id, "--name", name).status == 0) }
        let clock = ["--clock", "2026-06-05T22:30:00Z"]
        let created = try runArray(["orders", "create", "o-1", "--customer", "cora", "--dasher", "dash", "--merchant", "Lucia's",
                                    "--items", "Margherita pie;Garlic knots", "--from", "40.6795,-73.9810", "--to", "40.67015,-73.98549"] + clock, database: database)
        #expect(created.status == 0, "\(created.stderr)")
        let json = try created.json()
        #expect(json["state"] as? String == "confirming" && json["items"] as? [String] == ["Margherita pie", "Garlic knots"])
        #expect(json["entered"] as? [String: String] == ["confirming": "2026-06-05T22:30:00Z"])
        #expect(json["from"] as? [String: Double] == ["lat": 40.6795, "lon": -73.9810] && json["to"] as? [String: Double] == ["lat": 40.67015, "lon": -73.98549])
        #expect(try snapmap("orders", "show", "o-1").stdout == created.stdout, "show answers what create stored")

        let early = try runArray(["orders", "pickup", "o-1"] + clock, database: database)
        #expect(early.status == 2 && early.stdout.isEmpty && early.stderr.contains("is confirming"), "\(early.stderr)")
        #expect(try snapmap("orders", "show", "o-1").stdout == created.stdout, "a refused event changes nothing")
        var last = created
        for event in ["confirm", "pickup", "nearby", "dropoff"] {
            last = try runArray(["orders", event, "o-1"] + clock, database: database)
            #expect(last.status == 0, "\(event): \(last.stderr)")
        }
        #expect(try last.json()["state"] as? String == "complete")
        #expect(try (last.json()["entered"] as? [String: String])?.keys.sorted() == ["complete", "confirming", "heading", "nearby", "preparing"])

        let herself = try snapmap("orders", "create", "o-2", "--customer", "cora", "--dasher", "cora", "--merchant", "Lucia's", "--items", "Pie", "--from", "40.6795,-73.9810", "--to", "40.67015,-73.98549")
        #expect(herself.status == 2 && herself.stderr.contains("dasher"), "\(herself.stderr)")
        let nobody = try snapmap("orders", "create", "o-2", "--customer", "nobody", "--dasher", "dash", "--merchant", "Lucia's", "--items", "Pie", "--from", "40.6795,-73.9810", "--to", "40.67015,-73.98549")
        #expect(nobody.status != 0 && nobody.stderr.contains("\"nobody\""), "\(nobody.stderr)")
        let tooMany = try snapmap("orders", "create", "o-2", "--customer", "cora", "--dasher", "dash", "--merchant", "Lucia's",
                                  "--items", Array(repeating: "Pie", count: 51).joined(separator: ";"),
                                  "--from", "40.6795,-73.9810", "--to", "40.67015,-73.98549")
        #expect(tooMany.status == 2 && tooMany.stderr.contains("items") && tooMany.stderr.contains("1 to 50"), "\(tooMany.stderr)")
        #expect(try snapmap("orders", "show", "o-2").stderr.contains("no order \"o-2\""))

        #expect(try snapmap("users", "remove", "cora").status == 0)
        let gone = try snapmap("orders", "show", "o-1")
        // An id the store does not hold is a runtime error (1), as for a person (`users token nobody`), not usage (2).
        #expect(gone.status == 1 && gone.stdout.isEmpty && gone.stderr.contains("no order \"o-1\""), "\(gone.stderr)")
        #expect(try snapmap("users", "token", "nobody-here").status == 1)
    }
}
