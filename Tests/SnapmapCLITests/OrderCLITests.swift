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
        let unknown = try run("demo-delivery", "--order", "nowhere")
        #expect(unknown.status == 2 && unknown.stdout.isEmpty && unknown.stderr.contains("--order"))
    }
}
