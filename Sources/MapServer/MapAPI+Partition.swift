import LiveMap

/// Routing by partition: a replica started with `--partition K/P` answers `/v1/me/…` only for the viewers it serves.
/// Another viewer's request (one a load balancer sent to the wrong replica) is refused with 421 Misdirected Request
/// before it reads or changes anything, naming the partition that serves the viewer in `Snapmap-Partition` and the
/// body: HTTP defines 421 as "this server is not the one to answer", which a proxy may retry elsewhere whatever the
/// method (nothing was done), so the balancer re-routes by the header; an answer from the store instead would hide a
/// wrong routing table, and an event stream held open here would hear nothing of friends this replica does not hold.
extension MapAPI {
    /// The 421 for a viewer this replica's partition does not serve; nil when it serves them (or is not partitioned).
    func misdirected(_ viewer: PersonID) -> HTTPResponse? {
        guard let partition = (live.store as? LiveView)?.partition, !partition.serves(viewer) else { return nil }
        let serving = partition.serving(viewer)
        return Self.json(421, ["error": "this replica serves partition \(partition); viewer \(viewer) is served by partition \(serving)",
                               "partition": serving.description], headers: [("Snapmap-Partition", serving.description)])
    }
}
