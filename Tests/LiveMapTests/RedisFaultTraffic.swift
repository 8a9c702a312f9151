import Foundation
import LiveMap
import RedisStore

/// Location updates from several people at once, each on a thread of its own, through one replica's service,
/// recording every call: when it started, how long it took, and whether it was acknowledged. Each person's
/// fixes carry their step in the latitude, so the stored fix tells which acknowledged update survived.
final class WriteTraffic: @unchecked Sendable {
    struct Call {
        let person: PersonID
        let step: Int
        let started: Date
        let seconds: Double
        /// nil when acknowledged, else why it was refused.
        let refusal: String?
    }

    static let baseLatitude = 40.70
    static let stepDegrees = 1e-6

    let people: [PersonID]
    private let service: LiveMapService
    private let pause: Double
    private let lock = NSLock()
    private var recorded: [Call] = []
    private var running = true
    private var finished = 0

    init(service: LiveMapService, people: [PersonID], pause: Double = 0.05) {
        self.service = service
        self.people = people
        self.pause = pause
        for person in people {
            let thread = Thread { [self] in self.send(as: person) }
            thread.name = "fault-traffic-\(person.rawValue)"
            thread.start()
        }
    }

    /// Stops every sender and waits for their last calls.
    func stop() {
        lock.withLock { running = false }
        while lock.withLock({ finished < people.count }) { usleep(10_000) }
    }

    var calls: [Call] { lock.withLock { recorded } }

    /// The last step of `person` that was acknowledged.
    func lastAcknowledged(_ person: PersonID) -> Int? {
        calls.last { $0.person == person && $0.refusal == nil }?.step
    }

    /// The step a stored fix was sent at, its latitude counted from `base`.
    static func step(of fix: LocationFix?, base: Double = baseLatitude) -> Int? {
        fix.map { Int((($0.coordinate.lat - base) / stepDegrees).rounded()) }
    }

    /// Polls until `condition` holds over the calls so far, for at most `seconds`; whether it held.
    func wait(seconds: Double, until condition: ([Call]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition(calls) { return true }
            usleep(20_000)
        }
        return condition(calls)
    }

    private func send(as person: PersonID) {
        var step = 0
        while lock.withLock({ running }) {
            step += 1
            let started = Date()
            var refusal: String?
            do {
                let fix = try LocationFix(lat: Self.baseLatitude + Double(step) * Self.stepDegrees, lon: -73.95, accuracyMeters: 5, takenAt: started, place: nil)
                _ = try service.updateLocation(person, fix: fix, now: started)
            } catch {
                refusal = "\(error)"
            }
            let call = Call(person: person, step: step, started: started, seconds: Date().timeIntervalSince(started), refusal: refusal)
            lock.withLock { recorded.append(call) }
            Thread.sleep(forTimeInterval: pause)
        }
        lock.withLock { finished += 1 }
    }
}

/// Two snapmap replicas in this process (a service with its view and a bus each, on clients of their own, as
/// `serve` runs them) and what the second one's observers received, with when.
final class TwoReplicas: @unchecked Sendable {
    let first: LiveMapService
    let second: LiveMapService
    private let buses: [RedisChangeBus]
    private let lock = NSLock()
    private var heard: [(PersonID, Date)] = []

    init(url: String) throws {
        let clusters = try (0..<2).map { _ in try RedisCluster(seeds: RedisCluster.seeds(from: url)) }
        first = LiveMapService(store: LiveView(store: RedisLiveStore(cluster: clusters[0])))
        second = LiveMapService(store: LiveView(store: RedisLiveStore(cluster: clusters[1])))
        buses = clusters.map { RedisChangeBus(cluster: $0) }
        first.attach(buses[0])
        second.attach(buses[1])
        second.observe { [self] change in
            guard case .person(let id) = change else { return }
            lock.withLock { heard.append((id, Date())) }
        }
    }

    func close() {
        for bus in buses { bus.close() }
    }

    /// Moves `person` through the first replica and returns how long the second took to hear of it after the write
    /// was acknowledged (the write's own time is the call bound's; nil: not heard within a second).
    func delivery(of person: PersonID, step: Int) throws -> Double? {
        let sent = Date()
        let fix = try LocationFix(lat: WriteTraffic.baseLatitude + Double(step) * WriteTraffic.stepDegrees, lon: -73.9, accuracyMeters: 5, takenAt: sent, place: nil)
        guard try first.updateLocation(person, fix: fix, now: sent) else { return nil }
        let acknowledged = Date()
        let deadline = acknowledged.addingTimeInterval(1)
        while Date() < deadline {
            if let arrival = lock.withLock({ heard.last { $0.0 == person && $0.1 >= sent }?.1 }) { return max(0, arrival.timeIntervalSince(acknowledged)) }
            usleep(1000)
        }
        return nil
    }
}

extension LocalRedisCluster {
    /// How many connections are subscribed to each bus channel on the master that owns it now.
    func busSubscribers() throws -> [Int] {
        let owners = try slotOwners()
        return try Set(owners).sorted().flatMap { port in
            let channels = owners.indices.filter { owners[$0] == port }.map { RedisChangeBus.channels[$0] }
            let reply = try RedisConnection(host: "127.0.0.1", port: port).command(["PUBSUB", "SHARDNUMSUB"] + channels)
            return stride(from: 1, to: reply.elements.count, by: 2).map { reply.elements[$0].integer ?? 0 }
        }
    }

    /// Polls until every bus channel has `count` subscribers on its owner; the seconds it took, nil past `seconds`.
    func waitForBusSubscribers(_ count: Int, seconds: Double) -> Double? {
        let started = Date()
        while Date().timeIntervalSince(started) < seconds {
            if (try? busSubscribers())?.allSatisfy({ $0 == count }) == true { return Date().timeIntervalSince(started) }
            usleep(20_000)
        }
        return nil
    }
}
