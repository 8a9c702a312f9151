import Foundation

/// One HTTP request made and timed by curl, outside this process: its time is the server's and the network's,
/// never a wait for a thread of the test process (Swift Testing's pool is shared by every test in a run).
public struct TimedRequest: Sendable, CustomStringConvertible {
    public let status: Int
    public let headers: [String: String]
    /// curl's `time_total`: from starting to connect until the last byte of the answer.
    public let seconds: Double

    public var description: String { "\(status) in \(String(format: "%.3f", seconds)) s, Retry-After \(headers["retry-after"] ?? "none")" }

    /// Sends `method` to `url` with `body` and `token`, giving up after `limit` seconds (status 0 then).
    public static func send(_ method: String, _ url: URL, token: String, body: String? = nil, limit: Double = 60) throws -> TimedRequest {
        var arguments = ["-s", "-o", "/dev/null", "-D", "-", "-X", method, "--max-time", String(limit),
                         "-H", "Authorization: Bearer " + token, "-w", "\ntime_total %{time_total}\n"]
        if let body { arguments += ["-H", "Content-Type: application/json", "--data-binary", body] }
        let result = try TestProcess.run(URL(fileURLWithPath: "/usr/bin/curl"), arguments + [url.absoluteString])
        let lines = result.output.split(whereSeparator: \.isNewline).map(String.init)
        let status = lines.first.flatMap { $0.split(separator: " ").dropFirst().first }.flatMap { Int($0) } ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let seconds = lines.last { $0.hasPrefix("time_total ") }.flatMap { Double($0.dropFirst("time_total ".count)) } ?? .infinity
        return TimedRequest(status: status, headers: headers, seconds: seconds)
    }
}
