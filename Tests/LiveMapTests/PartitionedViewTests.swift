import Foundation
import GeoCore
@testable import LiveMap
import RedisStore
import Testing

/// Views partitioned by viewer (`ViewPartition`) against the store they stand in front of: the partition map against
/// Redis Cluster's own slot function, and three replicas over one store file after a random stream of changes, each
/// answering its own viewers exactly as the store, holding only their people, and sending every other viewer's
/// questions to the store.
@Suite("Partitioned view")
struct PartitionedViewTests {
    @Test func aViewersPartitionIsTheRangeOfTheSlotOfTheirKeys() throws {
        var random = SplitMix64(seed: 31)
        let ids = (0..<2000).map { index in PersonID(trusted: "p\(index)-\(random.next() % 1_000_000)") }
        for id in ids { #expect(ViewPartition.slot(of: id) == RedisCluster.slot(of: "{p:\(id.rawValue)}:fix"), "\(id)") }
        for count in [1, 2, 3, 4, 7, 1000, ViewPartition.slotCount] {
            let partitions = try (0..<count).map { try ViewPartition(index: $0, count: count) }
            // The ranges tile the slots in order, none empty.
            #expect(partitions.first?.slots.lowerBound == 0 && partitions.last?.slots.upperBound == ViewPartition.slotCount)
            #expect(zip(partitions, partitions.dropFirst()).allSatisfy { $0.slots.upperBound == $1.slots.lowerBound })
            #expect(partitions.allSatisfy { !$0.slots.isEmpty })
            for id in ids.prefix(300) {
                let serving = partitions.filter { $0.serves(id) }
                #expect(serving.count == 1 && serving.first == partitions[0].serving(id), "\(id) of \(count)")
            }
        }
    }

    @Test(arguments: ["3/3", "0/0", "-1/2", "1/16385", "1", "a/b", "1/2/3", ""])
    func aBadPartitionIsRefusedNamingTheFieldAndTheRange(_ text: String) {
        do {
            let partition = try ViewPartition(parsing: text, field: "--partition")
            Issue.record("\"\(text)\" was taken as \(partition)")
        } catch {
            guard case .invalid(let bad) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(bad.field == "--partition" && bad.message.contains(" to "), "\(bad.message)")
        }
    }

    /// Three replicas over one store file, each following the change log, after each change of a random stream (made
    /// through them and through a fourth process without a view): friendships only within groups of three, so a
    /// partition's viewers ask a part of the world.
    @Test func replicasAnswerTheirViewersAsTheStoreAfterARandomStreamOfChanges() throws {
        let path = SQLiteStoreTests.temporaryPath()
        let reference = LiveMapService(store: try SQLiteLiveStore(path: path, synchronous: false))
        let replicas = try (0..<3).map { index in
            let store = try SQLiteLiveStore(path: path, synchronous: false)
            let view = LiveView(store: store, partition: try ViewPartition(index: index, count: 3))
            let service = LiveMapService(store: view)
            let feed = store.makeChangeFeed()
            service.attach(feed)
            return (view: view, service: service, feed: feed)
        }
        let ids = (0..<48).map { "q\($0)" }
        let people = ids.map(PersonID.init(trusted:))
        for replica in replicas { #expect(people.contains(where: replica.view.serves), "each partition serves someone of \(ids.count)") }
        var random = SplitMix64(seed: 283)
        var now = LiveViewTests.t0
        for id in ids { try reference.addPerson(id: id, name: "Person \(id)") }
        for id in ids { try reference.setSharing(PersonID(trusted: id), ghost: "off", audience: nil, now: now) }
        let pick = { (random: inout SplitMix64) in ids[Int(random.next() % UInt64(ids.count))] }
        let groupmate = { (random: inout SplitMix64, id: String) in ids[(Int(id.dropFirst())! / 3) * 3 + Int(random.next() % 3)] }
        var compared = 0
        for step in 0..<150 {
            let writers = [reference] + replicas.map(\.service)
            let writer = writers[Int(random.next() % UInt64(writers.count))]
            let a = pick(&random)
            let b = groupmate(&random, a)
            try RandomLiveChange.make(by: writer, a, b, random: &random, now: now, listedMost: 3, other: { groupmate(&$0, a) })
            for replica in replicas { try LiveViewTests.waitForFeed(replica.feed) }
            now = now.addingTimeInterval(Double(random.next() % 240))
            let later: [Double] = step % 25 == 0 ? [0, 3 * 3600 + 1, 24 * 3600 + 1] : [0]
            for (index, replica) in replicas.enumerated() {
                #expect(replica.view.isCurrent, "step \(step): replica \(index) must answer, not the store")
                for viewer in people where replica.view.serves(viewer) {
                    for offset in later {
                        let at = now.addingTimeInterval(offset)
                        let expected = try LiveViewTests.seen(reference, viewer, at: at)
                        #expect(try LiveViewTests.seen(replica.service, viewer, at: at) == expected, "step \(step), replica \(index), \(viewer) at +\(offset) s")
                        compared += expected.count
                    }
                    #expect(Set(try replica.view.candidates(of: viewer)) == Set(try reference.store.candidates(of: viewer)), "step \(step): \(viewer)")
                    #expect(replica.view.answerStamp(of: viewer) != nil)
                }
                for person in people {
                    let served = Set(try reference.store.viewers(of: person).filter { replica.view.serves($0.facts.viewer) })
                    #expect(Set(try replica.view.viewers(of: person)) == served, "step \(step), replica \(index): viewers of \(person)")
                }
            }
            if step % 10 == 0 { try expectForeignViewersGoToTheStore(replicas.map(\.view), people, reference.store) }
        }
        #expect(compared > 100, "the random world shows people")
        // Loaded again (by the store's whole reads, and by its reads of each person), each replica holds exactly its
        // viewers and the people at the other end of their asks: fewer than everyone.
        for (index, replica) in replicas.enumerated() {
            let viewers = try reference.store.people(after: nil, limit: 1000).map(\.id).filter(replica.view.serves)
            let asked = Set(viewers).union(try viewers.flatMap { try reference.store.candidates(of: $0).map(\.person.id) })
            let askedOrAsking = asked.union(try viewers.flatMap { try reference.store.viewers(of: $0).map(\.facts.viewer) })
            for byPages in [false, true] {
                if byPages { try replica.view.loadByPages() } else { try replica.view.load() }
                let held = replica.view.stateLock.read { Set(replica.view.state.slots.keys) }
                #expect(replica.view.heldPeople == held.count && held.count < ids.count, "replica \(index) holds a part of the world")
                // The whole reads hold everyone at an ask's other end; the reads of each person (a viewer's own asks) may
                // leave out someone who asked a viewer who did not ask back: the store answers for them.
                if byPages {
                    #expect(asked.isSubset(of: held) && held.isSubset(of: askedOrAsking), "replica \(index), by pages")
                } else {
                    #expect(held == askedOrAsking, "replica \(index) holds its viewers and their people")
                }
                for viewer in people where replica.view.serves(viewer) {
                    #expect(try LiveViewTests.seen(replica.service, viewer, at: now) == LiveViewTests.seen(reference, viewer, at: now))
                    #expect(Set(try replica.view.candidates(of: viewer)) == Set(try reference.store.candidates(of: viewer)), "\(viewer), by pages: \(byPages)")
                }
            }
        }
    }

    /// A viewer another partition serves is answered by the store, whatever the view holds, and has no answer stamp
    /// (so no answer of theirs is kept from a partial view).
    func expectForeignViewersGoToTheStore(_ views: [LiveView], _ people: [PersonID], _ store: any LiveStore) throws {
        for view in views {
            for viewer in people where !view.serves(viewer) {
                #expect(Set(try view.candidates(of: viewer)) == Set(try store.candidates(of: viewer)))
                #expect(view.answerStamp(of: viewer) == nil)
                for person in people.prefix(6) { #expect(try view.candidate(viewer: viewer, person: person) == store.candidate(viewer: viewer, person: person)) }
            }
        }
    }
}
