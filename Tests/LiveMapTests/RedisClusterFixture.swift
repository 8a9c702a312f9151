import RedisStore
import ServerTestSupport

/// The cluster the Redis tests share, started on first use and stopped when the test process ends.
enum RedisClusterFixture {
    static let shared = Result { () throws -> LocalRedisCluster in
        let cluster = try LocalRedisCluster(launch: TestProcess.launch)
        try cluster.waitForGoodReplicas()
        return cluster
    }
}
