import Foundation
import GeoCore
import LiveMap
import MapEngine
import MapScene
import MapServer
import Testing

/// The public glow changes in epochs, and a private frame's ETag covers the glow it draws (issue 25, finding 6).
@Suite("The glow's epochs over HTTP")
struct GlowEpochTests {
    static let mcCarren = "{\"lat\": 40.7207, \"lon\": -73.9515}"

    /// Half a minute into the hour after the demo's last Snap: the epoch ending next ends within the same hour, so
    /// decay changes nothing between the two and only new Snaps can.
    static func start(after snaps: [PublicSnap]) throws -> Date {
        let last = try #require(snaps.map(\.takenAt).max()).timeIntervalSince1970
        return Date(timeIntervalSince1970: (last / 3600).rounded(.up) * 3600 + 30)
    }

    /// Finding 6: the frame's tag did not cover the glow, so after new Snaps a revalidation answered 304 while a fresh
    /// GET had other bytes. Within an epoch the glow does not change (so a 304 is right); in the next it does, and
    /// the revalidation must get the new bytes.
    @Test func aRevalidatedFrameSeesTheGlowOfANewEpoch() async throws {
        let demo = try InProcessMap.demoSnaps()
        let start = try Self.start(after: demo)
        let map = try InProcessMap(snaps: demo, at: start)
        let epoch = TimeInterval(map.engine.glow.style.epochSeconds)
        let boundary = (start.timeIntervalSince1970 / epoch).rounded(.up) * epoch
        let frame = ["layers": "base,heat", "center": "40.7207,-73.9515", "zoom": "15", "size": "256x256", "scale": "1"]
        let first = await map.fetch("/v1/me/frame.png", query: frame)
        let tag = try #require(first.header("ETag"))
        #expect(first.status == 200 && first.body.count > 1000)
        for _ in 0..<3 { #expect(await map.fetch("/v1/me/snaps", method: "POST", body: Self.mcCarren).status == 204) }
        map.clock.set(Date(timeIntervalSince1970: boundary - 1))
        let sameEpoch = await map.fetch("/v1/me/frame.png", query: frame)
        #expect(sameEpoch.body == first.body, "new Snaps change no byte of the epoch's frame")
        #expect(await map.fetch("/v1/me/frame.png", query: frame, ifNoneMatch: tag).status == 304)
        map.clock.set(Date(timeIntervalSince1970: boundary + 1))
        let fresh = await map.fetch("/v1/me/frame.png", query: frame)
        #expect(fresh.body != first.body, "the next epoch draws the new Snaps")
        let revalidated = await map.fetch("/v1/me/frame.png", query: frame, ifNoneMatch: tag)
        #expect(revalidated.status == 200 && revalidated.body == fresh.body && revalidated.header("ETag") != tag)
    }

    /// Two Snaps posted during an epoch change no byte or tag of a heat tile until the next epoch; the next shows
    /// them, as a world where they were posted before it began does; a tile far from them keeps its tag.
    @Test func snapsPostedDuringAnEpochShowInTheNext() async throws {
        let demo = try InProcessMap.demoSnaps()
        let start = try Self.start(after: demo)
        let map = try InProcessMap(snaps: demo, at: start)
        let epoch = TimeInterval(map.engine.glow.style.epochSeconds)
        let boundary = (start.timeIntervalSince1970 / epoch).rounded(.up) * epoch
        let near = "/heat/15/9652/12319.png", far = "/heat/15/9650/12320.png"
        let before = await map.fetch(near)
        let farTag = try #require(await map.fetch(far).header("ETag"))
        let tag = try #require(before.header("ETag"))
        #expect(before.status == 200 && before.body.count > 100 && before.header("Cache-Control") == "public, max-age=60")
        let postedAt = [start.addingTimeInterval(10), Date(timeIntervalSince1970: boundary - 40)]
        for time in postedAt {
            map.clock.set(time)
            #expect(await map.fetch("/v1/me/snaps", method: "POST", body: Self.mcCarren).status == 204)
            map.clock.set(time.addingTimeInterval(20))
            let during = await map.fetch(near)
            #expect(during.body == before.body && during.header("ETag") == tag, "\(time): nothing changed within the epoch")
            #expect(await map.fetch(near, ifNoneMatch: tag).status == 304)
        }
        map.clock.set(Date(timeIntervalSince1970: boundary))
        let after = await map.fetch(near, ifNoneMatch: tag)
        #expect(after.status == 200 && after.header("ETag") != tag && after.body != before.body, "the next epoch shows them")
        #expect(await map.fetch(far, ifNoneMatch: farTag).status == 304, "a tile far from them did not change")
        let sam = try DemoSeed.viewerID(map.engine.scene)
        let posted = try postedAt.map { try PublicSnap(person: sam, coordinate: Coordinate(lat: 40.7207, lon: -73.9515), takenAt: $0) }
        let reference = try InProcessMap(snaps: demo + posted, at: Date(timeIntervalSince1970: boundary))
        let expected = await reference.fetch(near)
        #expect(expected.body == after.body && expected.header("ETag") == after.header("ETag"), "as if they were posted before the epoch began")
    }
}
