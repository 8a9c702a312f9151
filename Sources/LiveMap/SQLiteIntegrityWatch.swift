import Foundation
import SQLiteKit

/// Reads the whole file now and then (`PRAGMA quick_check`, on a connection opened for each check, so no cached page
/// hides a change), so damage in a page no request has read yet is found while serving and not at the next start:
/// the store then takes no writes and reports it. A check runs every `interval`, or less often when checks take
/// long, so that checking takes at most `share` of one core.
final class SQLiteIntegrityWatch: @unchecked Sendable {
    static let share = 0.05
    private let path: String
    private let interval: Duration
    private let health: SQLiteFileHealth
    private let timer: DispatchSourceTimer

    init(path: String, interval: Duration, health: SQLiteFileHealth) {
        self.path = path
        self.interval = interval
        self.health = health
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "snapmap-sqlite-integrity", qos: .utility))
        timer.setEventHandler { [weak self] in self?.check() }
        timer.schedule(deadline: .now() + Self.seconds(interval))
        timer.resume()
    }

    func stop() {
        timer.cancel()
    }

    private func check() {
        let started = ContinuousClock.now
        if health.lastingFault == nil, let findings = try? SQLiteLiveStore.quickCheck(path), !findings.isEmpty {
            health.damaged(findings)
        }
        let took = ContinuousClock.now - started
        timer.schedule(deadline: .now() + Self.seconds(max(interval, took / Self.share)))
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
