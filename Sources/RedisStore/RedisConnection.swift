import CHiredis
import Foundation

/// A Redis reply, parsed out of hiredis's structure.
public indirect enum RedisReply: Equatable, Sendable {
    case string([UInt8])
    case integer(Int)
    case array([RedisReply])
    case null
    case status(String)
    case error(String)

    public var text: String? {
        switch self {
        case .string(let bytes): return String(decoding: bytes, as: UTF8.self)
        case .status(let text): return text
        default: return nil
        }
    }

    public var integer: Int? {
        if case .integer(let value) = self { return value }
        return text.flatMap(Int.init)
    }

    public var elements: [RedisReply] {
        if case .array(let items) = self { return items }
        return []
    }
}

/// A failure talking to Redis: the connection (to retry elsewhere) or an error reply.
public struct RedisFailure: Error, CustomStringConvertible, Sendable {
    public let description: String

    public init(description: String) {
        self.description = description
    }
}

/// One connection to one Redis node through hiredis, used by one thread at a time. Commands are pipelined:
/// `pipeline` writes them all, then reads every reply. The only Swift code that touches hiredis.
public final class RedisConnection {
    public let host: String
    public let port: Int
    private var context: UnsafeMutablePointer<redisContext>?

    /// hiredis writes with `write`, which raises SIGPIPE on a connection the node closed (a restarted node, a killed
    /// client): the signal is ignored in this process once a connection is opened, and the write fails instead.
    private static let brokenPipesIgnored: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

    /// Connects, waiting at most `timeout` seconds (and as long for each reply, until `setTimeout` changes it).
    public init(host: String, port: Int, timeout: Double = 2) throws(RedisFailure) {
        Self.brokenPipesIgnored
        self.host = host
        self.port = port
        context = redisConnectWithTimeout(host, Int32(port), Self.interval(timeout))
        guard let context, context.pointee.err == 0 else {
            let message = context.map { Self.message($0) } ?? "cannot allocate a context"
            redisFree(context)
            self.context = nil
            throw RedisFailure(description: "\(host):\(port): \(message)")
        }
        redisSetTimeout(context, Self.interval(timeout))
    }

    /// How long a reply may take from now on; past it the connection breaks.
    public func setTimeout(_ seconds: Double) {
        guard let context, context.pointee.err == 0 else { return }
        redisSetTimeout(context, Self.interval(seconds))
    }

    private static func interval(_ seconds: Double) -> timeval {
        let clamped = max(seconds, 0.001)
        let whole = Int(clamped)
        return timeval(tv_sec: whole, tv_usec: Int(((clamped - Double(whole)) * 1e6).rounded()))
    }

    deinit {
        redisFree(context)
    }

    /// Whether the connection is still usable (a network error breaks it for good).
    public var isBroken: Bool { context == nil || context!.pointee.err != 0 }

    /// Whether an idle connection is still open: the server has not closed it (a restarted node's old
    /// connections read as closed) and nothing unexpected waits on it.
    public var isOpen: Bool {
        do {
            return try reply(within: 0) == nil
        } catch {
            return false
        }
    }

    /// Sends one command and reads its reply.
    public func command(_ arguments: [String]) throws(RedisFailure) -> RedisReply {
        try pipeline([arguments])[0]
    }

    /// The next reply (a pushed message on a subscribed connection) if one comes within `seconds`; nil when none
    /// did, and the connection stays usable.
    public func reply(within seconds: Double) throws(RedisFailure) -> RedisReply? {
        guard let context, context.pointee.err == 0 else { throw RedisFailure(description: "\(host):\(port): connection broken") }
        var raw: UnsafeMutableRawPointer?
        switch chiredis_reply_within(context, Int32(max(0, seconds * 1000)), &raw) {
        case 0: return nil
        case 1:
            guard let raw else { return nil }
            defer { freeReplyObject(raw) }
            return Self.parse(raw.assumingMemoryBound(to: redisReply.self))
        default: throw RedisFailure(description: "\(host):\(port): \(Self.message(context))")
        }
    }

    /// Writes a command without reading its reply (which arrives among a subscribed connection's messages).
    public func send(_ arguments: [String]) throws(RedisFailure) {
        guard let context, context.pointee.err == 0 else { throw RedisFailure(description: "\(host):\(port): connection broken") }
        let status = Self.withArgv(arguments) { count, pointers, lengths in chiredis_send(context, count, pointers, lengths) }
        guard status == 0 else { throw RedisFailure(description: "\(host):\(port): \(Self.message(context))") }
    }

    /// Sends every command, then reads every reply, in order.
    public func pipeline(_ commands: [[String]]) throws(RedisFailure) -> [RedisReply] {
        guard let context, context.pointee.err == 0 else { throw RedisFailure(description: "\(host):\(port): connection broken") }
        for arguments in commands {
            let status = Self.withArgv(arguments) { count, pointers, lengths in redisAppendCommandArgv(context, count, pointers, lengths) }
            guard status == REDIS_OK else { throw RedisFailure(description: "\(host):\(port): \(Self.message(context))") }
        }
        var replies: [RedisReply] = []
        replies.reserveCapacity(commands.count)
        for _ in commands {
            var raw: UnsafeMutableRawPointer?
            guard redisGetReply(context, &raw) == REDIS_OK, let raw else {
                throw RedisFailure(description: "\(host):\(port): \(Self.message(context))")
            }
            let reply = raw.assumingMemoryBound(to: redisReply.self)
            replies.append(Self.parse(reply))
            freeReplyObject(raw)
        }
        return replies
    }

    /// Calls `body` with a command's arguments as hiredis takes them: a count, pointers and lengths.
    private static func withArgv(_ arguments: [String], _ body: (Int32, UnsafeMutablePointer<UnsafePointer<CChar>?>, [Int]) -> Int32) -> Int32 {
        var joined: [UInt8] = []
        var lengths: [Int] = []
        for argument in arguments {
            joined += argument.utf8
            lengths.append(argument.utf8.count)
        }
        joined.append(0)
        return joined.withUnsafeBufferPointer { buffer in
            let base = UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self)
            var offset = 0
            var pointers: [UnsafePointer<CChar>?] = lengths.map { length in
                defer { offset += length }
                return base + offset
            }
            return body(Int32(lengths.count), &pointers, lengths)
        }
    }

    private static func parse(_ reply: UnsafeMutablePointer<redisReply>) -> RedisReply {
        let value = reply.pointee
        func bytes() -> [UInt8] {
            guard let str = value.str, value.len > 0 else { return [] }
            return Array(UnsafeRawBufferPointer(start: str, count: Int(value.len)).bindMemory(to: UInt8.self))
        }
        switch value.type {
        case REDIS_REPLY_STRING: return .string(bytes())
        case REDIS_REPLY_INTEGER: return .integer(Int(value.integer))
        case REDIS_REPLY_ARRAY: return .array((0..<Int(value.elements)).map { parse(value.element[$0]!) })
        case REDIS_REPLY_STATUS: return .status(String(decoding: bytes(), as: UTF8.self))
        case REDIS_REPLY_ERROR: return .error(String(decoding: bytes(), as: UTF8.self))
        default: return .null
        }
    }

    private static func message(_ context: UnsafeMutablePointer<redisContext>) -> String {
        withUnsafeBytes(of: context.pointee.errstr) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
