// WebImageBenchmarks: our hot paths beside the bare C library calls or a peer,
// interleaved in one run, reported as ratios against their goals. See Benchmarks/README.md.
import Foundation
import Synchronization
import WebImageTestServer

#if canImport(Glibc)
    import Glibc
#endif

do {
    let options = try Options(Array(CommandLine.arguments.dropFirst()))
    if let probe = options.budgetProbe {
        try BudgetMemoryCase.runChild(
            input: probe.file, loads: probe.loads, budget: probe.budget, pixelSize: options.probePixelSize,
            walksFrames: options.probeWalksFrames)
        exit(0)
    }
    if let input = options.animatedThumbnailInput {
        try AnimatedThumbnailCase.runChild(input: input)
        exit(0)
    }
    if let mode = options.memoryMode {
        guard let input = options.memoryInput else { throw Baseline.Failure(description: Options.usage) }
        try MemoryProbe.runChild(mode, input: input)
        exit(0)
    }
    #if DEBUG
        print("warning: a debug build; run `swift run -c release WebImageBenchmarks` (make bench) for real figures\n")
    #endif
    // The date is read in RunReport.swift: Foundation's Date named in this file's top-level
    // code made the C library's stat and timespec resolve through CoreFoundation, which the
    // files that use them do not import.
    let startedAt = RunReport.Run.timestamp()
    let started = ContinuousClock.now
    let rounds = options.quick ? 3 : 15
    let harness = Harness(rounds: rounds, warmUp: options.quick ? 1 : 2, contenderFilter: options.contender)
    if let directory = options.fixturesDirectory {
        try BenchmarkFixtures(smallCount: 1).write(to: directory)
        exit(0)
    }
    let fixtures = try BenchmarkFixtures(smallCount: 1000)
    Report.printFixtures(fixtures)
    fflush(nil)
    try Cases.verify(fixtures)
    try WebPCases.verify(fixtures)
    print("Ours against the baseline's pixels (max / mean absolute difference per sample):")
    for item in try Cases.pixelDifferences(fixtures) {
        print("  \(Report.pad(item.name, 18)) \(item.maximum) / \(String(format: "%.4f", item.mean))")
    }
    print("")

    var results: [CaseResult] = []
    // The network cases come last, against a loopback server started for them, so that
    // its threads (and the clients') exist for them alone.
    let selected = { (name: String) in options.only.map { name.contains($0) } ?? true }
    let networkNames =
        TransportCases.names + [ColdLoadCases.name] + ManagerHitCases.names + [FetchThumbnailCase.name, EncodedThumbnailCase.name]
    let wantsNetwork = networkNames.contains(where: selected)
    var server: LoopbackServer?
    for pass in 0..<2 {
        var cases: [BenchmarkCase]
        if pass == 0 {
            cases =
                Cases.all(fixtures, rounds: rounds) + WebPCases.all(fixtures) + MemoryCacheCases.all() + (try DiskCacheCases.all())
                + CoalescingCases.registryCases() + CoalescingCases.queueCases()
            // Encoding's inputs are large pictures: made only when the cases will run.
            if EncodeCases.names.contains(where: selected) { cases += try EncodeCases.all() }
            if AVIFCases.names.contains(where: selected) { cases += try AVIFCases.all() }
            if ResizeCases.names.contains(where: selected) { cases += try ResizeCases.all() }
            if ColorCases.names.contains(where: selected) { cases += try ColorCases.all() }
            // Its setup makes and checks its own files and looks for djpeg and pngcrush: only when it will run.
            if HostileStructureCases.names.contains(where: selected) { cases += try HostileStructureCases.all() }
        } else {
            guard wantsNetwork else { break }
            let started = try LoopbackBench.start(documentRoot: try ColdLoadCases.writeDocumentRoot(fixtures.smallJPEGs))
            server = started
            cases =
                TransportCases.all(server: started) + CoalescingCases.coalescingCases(server: started)
                + (try ColdLoadCases.all(server: started, images: fixtures.smallJPEGs, rounds: rounds))
            // Its setup loads 1000 images through a manager: only when it will run.
            if ManagerHitCases.names.contains(where: selected) {
                cases += try ManagerHitCases.all(server: started, count: fixtures.smallJPEGs.count)
            }
            // Its setup writes 300 large files and starts Python: only when it will run.
            if selected(FetchThumbnailCase.name) { cases += try FetchThumbnailCase.all(server: started) }
            if selected(EncodedThumbnailCase.name) { cases += try EncodedThumbnailCase.all(server: started) }
        }
        for benchmark in cases where selected(benchmark.name) {
            let result = try harness.measure(benchmark)
            results.append(result)
            print("measured \(result.name)")
            fflush(nil)  // progress shows even when the output goes to a file or pipe
        }
    }
    // Not timed cases: a delay distribution and peak memory, measured after the table's
    // cases, alone.
    if selected(BudgetMemoryCase.name) { try BudgetMemoryCase.run(jpeg: fixtures.jpeg) }
    if selected(AnimationMemoryCase.name) { try AnimationMemoryCase.run() }
    if selected(AnimatedThumbnailCase.name) { try AnimatedThumbnailCase.run() }
    // The loopback origin of the network cases, started here when none of them ran.
    func origin() throws -> LoopbackServer {
        if let server { return server }
        let started = try LoopbackBench.start(documentRoot: try ColdLoadCases.writeDocumentRoot(fixtures.smallJPEGs))
        server = started
        return started
    }
    if selected(ResponsivenessCase.name) {
        let started = try origin()
        try ResponsivenessCase.writeFile(fixtures.jpeg, into: URL(fileURLWithPath: ColdLoadCases.root!))
        try ResponsivenessCase.run(server: started)
        fflush(nil)
    }
    // Servers in processes of their own against the loopback origin: after everything else.
    if selected(ProxyCase.name) {
        try ProxyCase.run(server: try origin(), root: URL(fileURLWithPath: ColdLoadCases.root!))
        fflush(nil)
    }
    if selected(ProxyFeatureCases.parserName) {
        try ProxyFeatureCases.parser()
        fflush(nil)
    }
    if selected(SharedCacheCase.name) {
        try SharedCacheCase.run(origin: try origin())
        fflush(nil)
    }
    if selected(StoredVariantsCase.name) {
        try StoredVariantsCase.run(origin: try origin(), root: URL(fileURLWithPath: ColdLoadCases.root!))
        fflush(nil)
    }
    if selected(ManagerPurgeCase.name) {
        try ManagerPurgeCase.run(origin: try origin())
        fflush(nil)
    }
    if selected(StoredResultsCase.name) {
        try StoredResultsCase.run(origin: try origin(), root: URL(fileURLWithPath: ColdLoadCases.root!))
        fflush(nil)
    }
    if let server { LoopbackBench.stop(server) }
    print("\nMedian wall-clock of \(rounds) interleaved rounds (order reversed each round):\n")
    if options.contender != nil {
        // The table and the summaries name their contenders by position: with some left
        // out they would compare the wrong ones, so only the medians print.
        for result in results {
            for (contender, seconds) in zip(result.contenders, result.medians) {
                print("\(result.name): \(contender): \(String(format: "%.2f", seconds * 1000)) ms")
            }
        }
        exit(0)
    }
    Report.printTable(results)
    print("Goals of the cases above (ours beside a peer):")
    Findings.recordCases(results)
    print("")
    MemoryCacheCases.printSummary(results)
    ColdLoadCases.printSummary(results)
    ManagerHitCases.printSummary(results)
    ResizeCases.printSummary(results)
    HostileStructureCases.printSummary(results)
    if results.contains(where: { $0.name.hasPrefix("Coalescing") }) {
        // Checked every round: one transfer for the 10,000 requests.
        let transfers = Figure(label: "transfers", value: Double(CoalescingCases.lastTransferCount.load(ordering: .relaxed)), unit: "")
        Findings.record(
            .registry, "Coalescing: transfers the server saw for 10,000 requests", ours: transfers, peer: nil, measured: transfers,
            goal: .atMost(1))
        print("")
    }
    Report.recordSpeedup(
        full: results.first { $0.name.hasPrefix("JPEG 4000x3000 full") },
        eighth: results.first { $0.name.contains("(1/8)") }
    )
    print("")
    if selected("JPEG 4000x3000") { Report.printMemory(try MemoryProbe.measure(jpeg: fixtures.jpeg)) }
    if WebPCases.names.contains(where: selected) { try WebPCases.printMemory(fixtures) }
    let rows = Findings.all
    print(
        "Goals: \(rows.filter { $0.result == .pass }.count) met, \(rows.filter { $0.result == .miss }.count) missed, "
            + "\(MarkdownReport.rows(rows.filter { $0.result == .skipped }.count)) skipped.")
    if let directory = options.reportDirectory {
        let run = RunReport.Run(
            date: startedAt, minutes: Harness.seconds(ContinuousClock.now - started) / 60, rounds: rounds,
            quick: options.quick, only: options.only, commit: Machine.firstLine(of: ["git", "rev-parse", "--short=12", "HEAD"]),
            full: !options.quick && options.only == nil)
        let folder = URL(fileURLWithPath: directory).standardizedFileURL
        try ReportWriter.write(RunReport(machine: .current(), run: run, rows: rows, results: results), to: folder)
        print("Report: \(folder.appendingPathComponent(ReportWriter.markdownName).path)")
    }
} catch {
    FileHandle.standardError.write(Data("WebImageBenchmarks: \(error)\n".utf8))
    exit(1)
}
