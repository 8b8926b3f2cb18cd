/// One way of doing a case's work: ours, or a bare C baseline.
struct Contender {
    var name: String
    var run: () throws -> Void
    /// Runs before every run, warm-up included, outside the timing: what must be fresh
    /// for each run but is not the work measured (a new manager with empty caches).
    var prepare: () throws -> Void = {}
}

/// A piece of work measured for several contenders in the same run.
struct BenchmarkCase {
    var section: Section
    var name: String
    /// The first is ours, the second the bare C call the ratio is taken against;
    /// any further ones are extra variants shown beside them.
    var contenders: [Contender]
    /// Images decoded by one run of a contender (for images per second).
    var imagesPerRun: Int = 1
    /// Rounds for this case; `nil` uses the suite's.
    var rounds: Int? = nil
    /// The report's rows for this case: by default ours beside the second contender, by
    /// time, with no goal.
    var comparisons: [Comparison] = [.time()]
}

/// What a case measured: every sample of every contender, in seconds.
struct CaseResult {
    var section: Section
    var name: String
    var imagesPerRun: Int
    var contenders: [String]
    var samples: [[Double]]
    var comparisons: [Comparison]

    var medians: [Double] { samples.map(Self.median) }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}

/// Interleaved A/B timing: warm-up, then rounds in which every contender runs once,
/// the order reversing each round, so that drift in machine load (other processes,
/// frequency, cache state) falls on both sides alike rather than on whichever ran
/// second. Wall-clock medians, not means, so that one preempted run does not count.
struct Harness {
    var rounds: Int
    var warmUp: Int
    /// Only the contenders whose name contains this run, when set (`--contender`).
    var contenderFilter: String?

    func measure(_ benchmark: BenchmarkCase) throws -> CaseResult {
        var benchmark = benchmark
        if let contenderFilter {
            benchmark.contenders = benchmark.contenders.filter { $0.name.contains(contenderFilter) }
        }
        let clock = ContinuousClock()
        for _ in 0..<warmUp {
            for contender in benchmark.contenders {
                try contender.prepare()
                try contender.run()
            }
        }
        var samples = Array(repeating: [Double](), count: benchmark.contenders.count)
        for round in 0..<(benchmark.rounds ?? rounds) {
            let order =
                round % 2 == 0
                ? Array(benchmark.contenders.indices)
                : Array(benchmark.contenders.indices.reversed())
            for index in order {
                try benchmark.contenders[index].prepare()
                let start = clock.now
                try benchmark.contenders[index].run()
                samples[index].append(Self.seconds(clock.now - start))
            }
        }
        return CaseResult(
            section: benchmark.section, name: benchmark.name, imagesPerRun: benchmark.imagesPerRun,
            contenders: benchmark.contenders.map(\.name), samples: samples, comparisons: benchmark.comparisons
        )
    }

    static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
    }
}

/// Keeps a result alive and observable so the optimiser cannot drop the work.
@inline(never)
func consume<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
