import Foundation
import GeoCore
import LiveMap
import ServerTestSupport
import Testing

@Suite("The visibility rule and the service's checks")
struct RuleAndServiceTests {
    static let t0 = StoreConformance.t0

    static func facts(viewerAsked: Bool = true, personAsked: Bool = true, blocked: Bool = false, ghost: GhostMode = .off,
                      audience: Audience = .friends, fixAge: Double? = 60, viewer: String = "ann") throws -> VisibilityFacts {
        try VisibilityFacts(viewer: PersonID(viewer), person: PersonID("bob"), viewerAsked: viewerAsked, personAsked: personAsked, blocked: blocked,
                            settings: SharingSettings(ghost: ghost, audience: audience),
                            fix: fixAge.map { try LocationFix(lat: 40.7, lon: -73.9, accuracyMeters: 5, takenAt: t0.addingTimeInterval(-$0)) })
    }

    @Test func eachConditionOfTheRuleHides() throws {
        let ann = try PersonID("ann")
        #expect(VisibilityRule.isVisible(try Self.facts(), at: Self.t0))
        #expect(!VisibilityRule.isVisible(try Self.facts(viewer: "bob"), at: Self.t0), "nobody is their own friend")
        #expect(!VisibilityRule.isVisible(try Self.facts(viewerAsked: false), at: Self.t0))
        #expect(!VisibilityRule.isVisible(try Self.facts(personAsked: false), at: Self.t0))
        #expect(!VisibilityRule.isVisible(try Self.facts(blocked: true), at: Self.t0))
        #expect(!VisibilityRule.isVisible(try Self.facts(ghost: .untilTurnedOff), at: Self.t0))
        let timer = GhostMode.timed(hours: 3, until: Self.t0.addingTimeInterval(10))
        #expect(!VisibilityRule.isVisible(try Self.facts(ghost: timer), at: Self.t0))
        #expect(VisibilityRule.isVisible(try Self.facts(ghost: timer), at: Self.t0.addingTimeInterval(10)), "a timer ends by itself")
        #expect(!VisibilityRule.isVisible(try Self.facts(audience: .friendsExcept([ann])), at: Self.t0))
        #expect(!VisibilityRule.isVisible(try Self.facts(audience: .only([])), at: Self.t0))
        #expect(VisibilityRule.isVisible(try Self.facts(audience: .only([ann])), at: Self.t0))
        #expect(!VisibilityRule.isVisible(try Self.facts(fixAge: nil), at: Self.t0))
        #expect(!VisibilityRule.isVisible(try Self.facts(fixAge: 24 * 3600), at: Self.t0), "exactly 24 h old is out: (t − 24 h, t + 60 s]")
        #expect(VisibilityRule.isVisible(try Self.facts(fixAge: 24 * 3600 - 0.001), at: Self.t0))
        #expect(VisibilityRule.isVisible(try Self.facts(fixAge: -60), at: Self.t0), "60 s ahead is in")
        #expect(!VisibilityRule.isVisible(try Self.facts(fixAge: -60.001), at: Self.t0))
    }

    @Test func sha256MatchesTheStandardVectorsAndPython() throws {
        #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        let long = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        #expect(SHA256.hex(long) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        var generator = SystemRandomNumberGenerator()
        let samples = (0..<5).map { length in (0..<(length * 37 + 1)).map { _ in UInt8.random(in: 0...255, using: &generator) } }
        let python = try TestProcess.run(URL(fileURLWithPath: "/usr/bin/python3"),
                                         ["-c", "import hashlib,sys\nfor line in sys.stdin: print(hashlib.sha256(bytes.fromhex(line.strip())).hexdigest())"],
                                         input: Data(samples.map { $0.map { String(format: "%02x", $0) }.joined() + "\n" }.joined().utf8))
        let expected = python.output.split(separator: "\n").map(String.init)
        #expect(samples.map(SHA256.hex) == expected)
        // A token as `Tokens` makes them (64 hex characters) and a message of many blocks, against coreutils' sha256sum.
        for message in [Array(String(repeating: "0123456789abcdef", count: 4).utf8), (0..<100_003).map { UInt8(truncatingIfNeeded: $0 &* 31) }] {
            let sum = try TestProcess.run(program: "sha256sum", [], input: Data(message)).output.prefix(64)
            #expect(SHA256.hex(message) == String(sum))
        }
    }

    @Test func badInputIsRefusedAndChangesNothing() throws {
        let live = LiveMapService(store: try SQLiteLiveStore(path: SQLiteStoreTests.temporaryPath(), synchronous: false))
        let ann = try live.addPerson(id: "ann", name: "Ann").id
        try live.addPerson(id: "bob", name: "Bob")
        #expect(throws: LiveMapError.invalid(field: "id", message: "must be 1 to 32 characters of a-z, 0-9, _ and -; got \"Ann!\"")) {
            try live.addPerson(id: "Ann!", name: "x")
        }
        #expect(throws: LiveMapError.conflict(message: "id \"ann\" is taken")) { try live.addPerson(id: "ann", name: "Again") }
        #expect { try live.addPerson(id: "eve", name: "Eve\u{7}") } throws: { ($0 as? LiveMapError)?.field == "name" }
        #expect { try live.addPerson(id: "eve", name: String(repeating: "e", count: 65)) } throws: { ($0 as? LiveMapError)?.field == "name" }
        #expect { try live.requestFriend(ann, "ann") } throws: { ($0 as? LiveMapError)?.field == "id" }
        #expect(throws: LiveMapError.notFound(id: "zed")) { try live.requestFriend(ann, "zed") }
        #expect(throws: LiveMapError.notFound(id: "zed")) { try live.block(ann, "zed") }
        #expect { try live.updateLocation(ann, fix: LocationFix(lat: 40.7, lon: -73.9, accuracyMeters: 5, takenAt: Self.t0.addingTimeInterval(61)), now: Self.t0) }
            throws: { ($0 as? LiveMapError)?.field == "at" }
        #expect { try live.updateLocation(ann, fix: LocationFix(lat: 40.7, lon: -73.9, accuracyMeters: 5, takenAt: Self.t0.addingTimeInterval(-86400)), now: Self.t0) }
            throws: { ($0 as? LiveMapError)?.field == "at" }
        #expect { try LocationFix(lat: .nan, lon: 0, accuracyMeters: 5, takenAt: Self.t0) } throws: { ($0 as? LiveMapError)?.field == "lat" }
        #expect { try LocationFix(lat: 40, lon: 190, accuracyMeters: 5, takenAt: Self.t0) } throws: { ($0 as? LiveMapError)?.field == "lon" }
        #expect { try live.setSharing(ann, ghost: "forever", audience: nil, now: Self.t0) } throws: { ($0 as? LiveMapError)?.field == "ghost" }
        #expect { try live.setSharing(ann, ghost: "off", audience: ("some", []), now: Self.t0) } throws: { ($0 as? LiveMapError)?.field == "audience.mode" }
        #expect(try live.sharing(of: ann) == .newPerson, "a refused change changed nothing; new people start with sharing off")
        #expect(try live.store.fix(of: ann) == nil && live.relations(of: ann).isEmpty)
    }

    @Test func tokensAreShownOnceStoredHashedAndRevocable() throws {
        let live = LiveMapService(store: try SQLiteLiveStore(path: SQLiteStoreTests.temporaryPath(), synchronous: false))
        let ann = try live.addPerson(id: "ann", name: "Ann").id
        let token = try live.mintToken(for: "ann")
        let second = try live.mintToken(for: "ann")
        #expect(token.count == 64 && token != second)
        #expect(try live.authenticate(token) == ann)
        #expect(try live.store.tokenOwner(hash: token) == nil, "the token itself is not stored")
        #expect(try live.store.tokenOwner(hash: SHA256.hex(Array(token.utf8))) == ann)
        #expect(try live.authenticate(String(token.dropLast()) + (token.hasSuffix("0") ? "1" : "0")) == nil)
        #expect(try live.revokeTokens(of: "ann") == 2)
        #expect(try live.authenticate(token) == nil)
    }
}
