@testable import LiveMap
@testable import RedisStore
import Testing

/// The names of a person's keys are what a running cluster holds, so they stay as written, and all of them share the
/// person's slot (one command writes a fact about them).
@Suite("Redis Cluster key names")
struct RedisKeysTests {
    @Test func aPersonsKeysKeepTheirNamesAndShareOneSlot() {
        let id = PersonID(trusted: "maya")
        let keys = [RedisKeys.fix(id), RedisKeys.asks(id), RedisKeys.askedBy(id), RedisKeys.blocks(id), RedisKeys.blockedBy(id),
                    RedisKeys.live(id), RedisKeys.liveFrom(id), RedisKeys.footsteps(id), RedisKeys.footstepPlaces(id), RedisKeys.tokens(id),
                    RedisKeys.orders(id), RedisKeys.dashing(id, "pickedUp"), RedisKeys.dashingStates(id)]
        #expect(keys == ["{p:maya}:fix", "{p:maya}:asks", "{p:maya}:askedby", "{p:maya}:blocks", "{p:maya}:blockedby", "{p:maya}:live",
                         "{p:maya}:livefrom", "{p:maya}:steps", "{p:maya}:stepgeo", "{p:maya}:tokens", "{p:maya}:orders",
                         "{p:maya}:dashing:pickedUp", "{p:maya}:dashing"])
        #expect(Set(keys.map(RedisCluster.slot(of:))) == [RedisCluster.slot(of: RedisKeys.person(id))])
    }
}
