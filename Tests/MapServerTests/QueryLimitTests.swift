import Foundation
import ServerTestSupport
import Testing

/// Requests made to hurt: however many query parameters (500 once held their connection for the 10 s request
/// timeout with no answer, MHD's per-connection memory spent), the answer is a prompt 400 and the server serves on.
@Suite("Hostile requests: query limits")
struct QueryLimitTests {
    static let promptly = 2.0

    /// Sends one request and reads the status and the seconds it took by curl's own clock (nil: no answer); timed in
    /// this process beside the whole suite, a prompt 414 once read 2 s.
    private func ask(_ server: ServerFixture, _ target: String) throws -> (Int?, Double) {
        let text = try TestProcess.run(URL(fileURLWithPath: "/usr/bin/curl"),
                                       ["-s", "-o", "/dev/null", "-w", "%{http_code} %{time_total}", "--max-time", "15", server.base.absoluteString + target]).output
        let fields = text.split(separator: " ")
        let status = fields.first.flatMap { Int($0) }.flatMap { $0 == 0 ? nil : $0 }
        return (status, fields.dropFirst().first.flatMap { Double($0) } ?? .infinity)
    }

    /// Past the connection's 32 KiB a request line is MHD's own 414 (6,000 parameters), as prompt.
    @Test(arguments: [(17, 400), (65, 400), (200, 400), (500, 400), (2000, 400), (6000, 414)])
    func manyQueryParametersGetAPromptRefusal(count: Int, expected: Int) throws {
        let server = try ServerFixture.shared.get()
        let query = (0..<count).map { "p\($0)=1" }.joined(separator: "&")
        let (status, seconds) = try ask(server, "/healthz?" + query)
        #expect(status == expected && seconds < Self.promptly, "\(count) parameters: \(String(describing: status)) after \(seconds) s")
        #expect(try ask(server, "/healthz/live").0 == 200)
    }

    @Test func aLongQueryGetsAPrompt400() throws {
        let server = try ServerFixture.shared.get()
        let (status, seconds) = try ask(server, "/healthz?center=" + String(repeating: "4", count: 9000))
        #expect(status == 400 && seconds < Self.promptly)
        let (fine, _) = try ask(server, "/healthz/live?note=" + String(repeating: "4", count: 4000))
        #expect(fine == 200, "a query within 8 KiB and 16 parameters is taken")
    }
}
