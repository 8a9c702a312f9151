import CPrefetch
import GeoCore
/// Friends whose round avatars would overlap by more than the style allows become one group. Greedy, in
/// priority order (as supercluster and MapKit do it): each point not yet grouped starts a group and takes,
/// nearest first, every ungrouped point closer than the threshold to the group's running centre (the mean of
/// its members weighted by how many friends each stands for, where the group's avatar is drawn). Groups that end
/// up closer than the threshold merge, so no two avatars are. Points and groups sit in `CellGrid`s of
/// threshold-wide cells, so a join or a merge reads nine cells; a seed's members are written side by side as it
/// takes them and merged groups are chained, so a merge costs its members' mean and nothing more. Flat arrays
/// throughout: a million points take no allocation each.
enum PinGrouping {
    struct Group {
        /// Indices into the points, in the order they joined (the seed first).
        var members: [Int]
        var centre: ScreenPoint
    }

    /// Groups as flat arrays: group `g` has centre (`x[g]`, `y[g]`), stands for `weight[g]` friends, and holds the
    /// points `members[start[g]..<start[g + 1]]`, in the order they joined.
    struct Flat {
        var x: [Double] = []
        var y: [Double] = []
        var weight: [Int] = []
        var start: [Int] = [0]
        var members: [Int] = []

        var count: Int { weight.count }
    }

    /// Groups of `points` (which come in priority order), in the order of their seeds; `weights` (one per
    /// point, all 1 when empty) weigh the centres.
    static func groups(of points: [ScreenPoint], weights: [Int] = [], threshold: Double) -> [Group] {
        let flat = grouped(x: points.map(\.x), y: points.map(\.y), weights: weights.isEmpty ? [Int](repeating: 1, count: points.count) : weights,
                           threshold: threshold)
        return (0..<flat.count).map { Group(members: Array(flat.members[flat.start[$0]..<flat.start[$0 + 1]]), centre: ScreenPoint(x: flat.x[$0], y: flat.y[$0])) }
    }

    /// A point as the searches read it, in the grid's slot order: its place (at infinity once taken into a group), its
    /// weight and its index, side by side, so that a search and a join read one run of memory.
    private struct Slot: Placed {
        var x: Double, y: Double
        let weight: Int32, point: Int32
    }

    /// The same groups, of the points (`x[i]`, `y[i]`) weighing `weights[i]`, as flat arrays.
    static func grouped(x: [Double], y: [Double], weights: [Int], threshold: Double) -> Flat {
        // A threshold of zero (or less, or not a number) groups nobody.
        guard threshold > 0, threshold.isFinite else {
            return Flat(x: x, y: y, weight: weights, start: Array(0...x.count), members: Array(x.indices))
        }
        precondition(x.count < Int(Int32.max) && weights.allSatisfy { $0 >= 0 && $0 < Int(Int32.max) }, "indices and weights fit in 32 bits")
        var seeds = Flat()
        seeds.members.reserveCapacity(x.count)
        let grid = CellGrid(xs: x, ys: y, cellSize: threshold)
        let squared = threshold * threshold
        // Points are read by their slots in the grid (a cell's points side by side, its row's cells one after
        // another), not by their index: a search then reads three runs of memory, not each point where it lies.
        var open = grid.inSlotOrder(x.indices.map { Slot(x: x[$0], y: y[$0], weight: Int32(weights[$0]), point: Int32($0)) })
        // Whether each slot's point is taken, and whether it has no point closer than the threshold at all (a seed
        // that takes nobody, found for every point in one walk over the cells, needs no search of its own): bits,
        // small enough to stay in cache while the seeds are walked in priority order, at random places.
        var taken = SlotBits(count: x.count)
        var lonely = SlotBits(count: x.count, set: true)
        grid.forEachPair(closerThan: squared, slotted: open) { a, b in
            lonely.clear(a)
            lonely.clear(b)
        }
        let gone = Double.infinity
        // Seeds come at random places: what the first search from a seed `lead` places on reads is asked for ahead
        // (its cells' bounds twice as far on, its slots then), so that those reads overlap this seed's work.
        let lead = 8
        for seed in x.indices {
            if seed + 2 * lead < x.count {
                prefetchSearch(from: seed + 2 * lead, slots: false, grid: grid, open: open, taken: taken, lonely: lonely, x: x, y: y)
            }
            if seed + lead < x.count {
                prefetchSearch(from: seed + lead, slots: true, grid: grid, open: open, taken: taken, lonely: lonely, x: x, y: y)
            }
            let slot = grid.slot(of: seed)
            guard !taken[slot] else { continue }
            taken.set(slot)
            open[slot].x = gone
            open[slot].y = gone
            seeds.members.append(seed)
            guard !lonely[slot] else {
                seeds.x.append(x[seed])
                seeds.y.append(y[seed])
                seeds.weight.append(weights[seed])
                seeds.start.append(seeds.members.count)
                continue
            }
            var (centreX, centreY) = (x[seed], y[seed])
            var weight = Double(weights[seed])
            var (sumX, sumY) = (weight * x[seed], weight * y[seed])
            var total = weights[seed]
            while true {
                // The nearest ungrouped point closer than the threshold (the lower index of two as near).
                var (best, bestDistance) = (-1, squared)
                let near = grid.around(centreX, centreY)
                // The three rows' runs are found first, so that their reads overlap.
                let first = grid.slots(row: near.rows.lowerBound, columns: near.columns)
                let second = near.rows.count > 1 ? grid.slots(row: near.rows.lowerBound + 1, columns: near.columns) : 0..<0
                let third = near.rows.count > 2 ? grid.slots(row: near.rows.upperBound, columns: near.columns) : 0..<0
                for row in 0..<3 {
                    for slot in row == 0 ? first : row == 1 ? second : third {
                        let (dx, dy) = (open[slot].x - centreX, open[slot].y - centreY)
                        let distance = dx * dx + dy * dy
                        if distance < bestDistance || (distance == bestDistance && best >= 0 && open[slot].point < open[best].point) {
                            (best, bestDistance) = (slot, distance)
                        }
                    }
                }
                guard best >= 0 else { break }
                let found = open[best]
                open[best].x = gone
                open[best].y = gone
                taken.set(best)
                seeds.members.append(Int(found.point))
                let w = Double(found.weight)
                (sumX, sumY, weight, total) = (sumX + w * found.x, sumY + w * found.y, weight + w, total + Int(found.weight))
                (centreX, centreY) = (sumX / weight, sumY / weight)
            }
            seeds.x.append(centreX)
            seeds.y.append(centreY)
            seeds.weight.append(total)
            seeds.start.append(seeds.members.count)
        }
        return merged(seeds, x: x, y: y, weights: weights, threshold: threshold)
    }

    /// Asks the cache for what the first search from `point` reads, when it is still a seed to come that is not
    /// lonely: its cells' bounds, or (once those are in) the first and last slot of each row's run. A hint only.
    @inline(__always) private static func prefetchSearch(from point: Int, slots: Bool, grid: CellGrid, open: [Slot], taken: SlotBits, lonely: SlotBits,
                                                         x: [Double], y: [Double]) {
        let slot = grid.slot(of: point)
        guard !taken[slot], !lonely[slot] else { return }
        let near = grid.around(x[point], y[point])
        for row in near.rows {
            guard slots else {
                grid.prefetchBounds(row: row, columns: near.columns)
                continue
            }
            let run = grid.slots(row: row, columns: near.columns)
            guard !run.isEmpty else { continue }
            open.withUnsafeBufferPointer {
                snapmap_prefetch($0.baseAddress! + run.lowerBound)
                snapmap_prefetch($0.baseAddress! + run.upperBound - 1)
            }
        }
    }

    /// One bit per grid slot.
    private struct SlotBits {
        private var words: [UInt64]

        init(count: Int, set: Bool = false) { words = [UInt64](repeating: set ? ~0 : 0, count: (count + 63) / 64) }

        subscript(_ index: Int) -> Bool { words[index >> 6] & (1 << UInt64(index & 63)) != 0 }
        mutating func set(_ index: Int) { words[index >> 6] |= 1 << UInt64(index & 63) }
        mutating func clear(_ index: Int) { words[index >> 6] &= ~(1 << UInt64(index & 63)) }
    }

    /// Each group's members as a linked list of the seeds' groups (each a run of `Flat.members`), so that two groups
    /// join in constant time.
    private struct Chains {
        var next: [Int]
        var tail: [Int]

        init(count: Int) {
            next = [Int](repeating: -1, count: count)
            tail = Array(0..<count)
        }

        /// Appends group `b`'s members to group `a`'s.
        mutating func join(_ a: Int, _ b: Int) {
            next[tail[a]] = b
            tail[a] = tail[b]
        }
    }

    /// The weighted mean of the points of group `head`'s chain, in chain order (`x`, `y`, `weights` by point).
    private static func mean(of head: Int, chains: Chains, seeds: Flat, x: [Double], y: [Double], weights: [Int]) -> (x: Double, y: Double) {
        var (sumX, sumY, total) = (0.0, 0.0, 0.0)
        var group = head
        while group >= 0 {
            for member in seeds.members[seeds.start[group]..<seeds.start[group + 1]] {
                let w = Double(weights[member])
                (sumX, sumY, total) = (sumX + w * x[member], sumY + w * y[member], total + w)
            }
            group = chains.next[group]
        }
        return (sumX / total, sumY / total)
    }

    /// The weighted mean of some of the points.
    static func mean(_ members: [Int], points: [ScreenPoint], weights: [Int]) -> ScreenPoint {
        var (x, y, total) = (0.0, 0.0, 0.0)
        for member in members {
            let w = Double(weights[member])
            (x, y, total) = (x + w * points[member].x, y + w * points[member].y, total + w)
        }
        return ScreenPoint(x: x / total, y: y / total)
    }

    /// Merges groups whose centres are closer than the threshold, until none are: always the first such pair in
    /// order (the later into the earlier). The groups with a pair after them are queued; a merge moves only the
    /// merged group, so only it and the groups before it that are now close to it can have a new pair to start:
    /// those are queued too, and the lowest queued group is always the next to look at (every group before it
    /// has no pair). Groups sit in a grid of their first
    /// centres; one that moved is looked for in `moved`, by the cell of its new centre, instead.
    private static func merged(_ seeds: Flat, x: [Double], y: [Double], weights: [Int], threshold: Double) -> Flat {
        var (centreX, centreY, weight) = (seeds.x, seeds.y, seeds.weight)
        var grid = CellGrid(xs: centreX, ys: centreY, cellSize: threshold)
        var chains = Chains(count: seeds.count)
        let squared = threshold * threshold
        var alive = [Bool](repeating: true, count: seeds.count)
        var movedTo = [Int](repeating: -1, count: seeds.count)
        var moved: [Int: [Int]] = [:]
        /// Calls `body` with every live group other than `index` closer to it than the threshold.
        func forEachClose(to index: Int, _ body: (Int) -> Void) {
            func consider(_ other: Int) {
                guard other != index, alive[other] else { return }
                let (dx, dy) = (centreX[other] - centreX[index], centreY[other] - centreY[index])
                if dx * dx + dy * dy < squared { body(other) }
            }
            let near = grid.around(centreX[index], centreY[index])
            for row in near.rows {
                for cell in (row * grid.columns + near.columns.lowerBound)...(row * grid.columns + near.columns.upperBound) {
                    for slot in grid.live(cell) { consider(grid.item(slot)) }
                    if !moved.isEmpty, let there = moved[cell] { there.forEach(consider) }
                }
            }
        }
        func leave(_ group: Int) {
            if movedTo[group] >= 0 { moved[movedTo[group]]?.removeAll { $0 == group } } else { grid.remove(group) }
        }
        // Only a group with a pair after it can start a merge: those are found in one walk over the cells.
        var paired = [Bool](repeating: false, count: seeds.count)
        grid.forEachPair(closerThan: squared, slotted: grid.inSlotOrder(centreX.indices.map { MercatorPoint(x: centreX[$0], y: centreY[$0]) })) { a, b in
            paired[min(grid.item(a), grid.item(b))] = true
        }
        var queue = MinQueue(count: seeds.count, initial: paired.indices.filter { paired[$0] })
        while let index = queue.pop() {
            guard alive[index] else { continue }
            var first = Int.max
            forEachClose(to: index) { if $0 > index { first = min(first, $0) } }
            guard first < Int.max else { continue }
            chains.join(index, first)
            weight[index] += weight[first]
            (centreX[index], centreY[index]) = mean(of: index, chains: chains, seeds: seeds, x: x, y: y, weights: weights)
            alive[first] = false
            leave(first)
            leave(index)
            movedTo[index] = grid.cell(centreX[index], centreY[index])
            moved[movedTo[index], default: []].append(index)
            queue.push(index)
            forEachClose(to: index) { if $0 < index { queue.push($0) } }
        }
        var result = Flat()
        for group in 0..<seeds.count where alive[group] {
            result.x.append(centreX[group])
            result.y.append(centreY[group])
            result.weight.append(weight[group])
            var chained = group
            while chained >= 0 {
                result.members.append(contentsOf: seeds.members[seeds.start[chained]..<seeds.start[chained + 1]])
                chained = chains.next[chained]
            }
            result.start.append(result.members.count)
        }
        return result
    }
}

extension MercatorPoint: Placed {}

