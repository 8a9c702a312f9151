import Foundation

extension MapAPI {
    /// `/openapi.json`: the API contract, `Data/api/openapi.json` as it is in the data directory (read per request,
    /// so it is never older than the file), tagged with its hash.
    func contract(_ request: HTTPRequest) throws -> HTTPResponse {
        let url = engine.paths.dataDirectory.appendingPathComponent("api/openapi.json")
        return tagged(request, json: [UInt8](try Data(contentsOf: url)), cacheControl: "public, max-age=300")
    }
}
