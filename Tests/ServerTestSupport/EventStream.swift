import Foundation

/// A viewer's `/v1/me/events` stream read through curl, as a phone would hold it open; ends when dropped.
public final class EventStream {
    private let process = Process()
    private let output = Pipe()
    /// Everything the stream has delivered so far.
    public private(set) var received = ""

    /// Opens `server`'s event stream with `token`.
    public init(server: ServerFixture, token: String) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["-sN", "--max-time", "30", "-H", "Authorization: Bearer \(token)", server.base.absoluteString + "/v1/me/events"]
        process.standardOutput = output
        try process.run()
    }

    deinit {
        process.terminate()
    }

    /// Reads until `marker` has arrived or the stream ends.
    public func read(until marker: String) {
        while !received.contains(marker) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { return }
            received += String(decoding: chunk, as: UTF8.self)
        }
    }
}
