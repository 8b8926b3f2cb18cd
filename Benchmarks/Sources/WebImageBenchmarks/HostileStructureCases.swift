import Foundation
import WebImageCore
import WebImageDecoding
import WebImageEncoding
import WebImageFixtures

#if canImport(Glibc)
    import Glibc
#endif

/// The goal: a valid image behind one structure repeated by the hundred thousand
/// (empty APP1 or COM segments, tEXt chunks, comment extensions) decodes in at most
/// twice the time of the plain image plus the time to read its bytes once.
///
/// Each case times, in the same interleaved rounds: ours and the bare C call on the
/// hostile file (the table's ratio), ours and the bare C call on the plain file, a sum
/// over every byte of the hostile file (reading it once), and, when they are on PATH,
/// `djpeg` or `pngcrush -n` as processes on both files. The summary after the table
/// prints the goal ratio. `--only Hostile` runs just these.
enum HostileStructureCases {
    static let names = [
        "Hostile JPEG + 200,000 APP1", "Hostile JPEG + 200,000 COM",
        "Hostile PNG + 100,000 tEXt", "Hostile GIF + 100,000 comments",
    ]
    static let oursPlain = "ours, plain file"
    static let readOnce = "read the bytes once (sum)"

    /// Where the files for the programs live; removed at exit (a static so the C
    /// `atexit` callback can reach it).
    nonisolated(unsafe) static var root: String?

    /// A command-line decoder timed on the same files; its time includes starting the process.
    struct Program {
        var name: String
        var package: String
        var fileExtension: String
        /// The arguments before the file's path.
        var options: [String]
        func arguments(_ path: String) -> [String] { options + [path] }
    }

    static let djpeg = Program(name: "djpeg", package: "libjpeg-turbo-progs", fileExtension: "jpg", options: ["-outfile", "/dev/null"])
    static let pngcrush = Program(name: "pngcrush", package: "pngcrush", fileExtension: "png", options: ["-n", "-q"])

    /// One case's files and decoders.
    struct Subject {
        var name: String
        var plain: Data
        var hostile: Data
        var ours: (Data) throws -> DecodedImage
        var bareName: String
        var bare: (Data) throws -> (width: Int, height: Int)
        var program: Program?
    }

    static func all() throws -> [BenchmarkCase] {
        // Sizes that keep a run quick while the plain decode still dwarfs timer noise.
        let photo = try SyntheticImage.photo(width: 1024, height: 768)
        let jpeg = try JPEGFixtureEncoder(quality: 85, subsampling: .s420).encode(photo)
        let png = try PNGFixtureEncoder(rgb: true, compression: .default).encode(photo)
        let gif = try GIFFixtureEncoder().encode(try SyntheticAnimation.make(width: 480, height: 360, frameCount: 1))
        // Concrete decoders, called as the other cases call them.
        let oursJPEG = { (data: Data) throws in try JPEGDecoder().decode(data) }
        let bareJPEG = { (data: Data) throws in try Baseline.jpeg(data) }
        let bareGIF = { (data: Data) throws in
            let out = try Baseline.gif(data)
            return (out.width, out.height)
        }
        let subjects = [
            Subject(
                name: names[0], plain: jpeg, hostile: RepeatedStructures.jpeg(jpeg, repeating: .emptyApp(1), count: 200_000),
                ours: oursJPEG, bareName: "tjDecompress2", bare: bareJPEG, program: djpeg),
            Subject(
                name: names[1], plain: jpeg, hostile: RepeatedStructures.jpeg(jpeg, repeating: .emptyComment, count: 200_000),
                ours: oursJPEG, bareName: "tjDecompress2", bare: bareJPEG, program: djpeg),
            Subject(
                name: names[2], plain: png, hostile: RepeatedStructures.png(png, repeating: .text, count: 100_000),
                ours: { try PNGDecoder().decode($0) }, bareName: "png_image", bare: { try Baseline.png($0) },
                program: pngcrush),
            Subject(
                name: names[3], plain: gif, hostile: RepeatedStructures.gif(gif, repeating: .comment, count: 100_000),
                ours: { try GIFDecoder().decode($0, options: Cases.allFrames) }, bareName: "DGifSlurp + expand", bare: bareGIF,
                program: nil),
        ]
        print("Hostile structure files (a 1024x768 photo as JPEG q85 4:2:0 and as RGB PNG; a 480x360 one-frame GIF):")
        var cases: [BenchmarkCase] = []
        for subject in subjects {
            let (plain, hostile, ours, bare) = (subject.plain, subject.hostile, subject.ours, subject.bare)
            print("  \(Report.pad(subject.name, 34)) \(plain.count) bytes plain, \(hostile.count) hostile")
            try verify(subject)
            var contenders = [
                Contender(name: "ours, hostile file") { consume(try ours(hostile)) },
                Contender(name: "\(subject.bareName), hostile file") { consume(try bare(hostile)) },
                Contender(name: oursPlain) { consume(try ours(plain)) },
                Contender(name: readOnce) { consume(sumOfBytes(hostile)) },
                Contender(name: "\(subject.bareName), plain file") { consume(try bare(plain)) },
            ]
            if let program = subject.program {
                contenders += try processContenders(program, caseName: subject.name, plain: plain, hostile: hostile)
            }
            // Beside the C library's call, and beside the program, on the hostile file.
            let comparisons = [Comparison.time()] + (subject.program.map { [Comparison.time(against: programName($0))] } ?? [])
            cases.append(BenchmarkCase(section: .hostile, name: subject.name, contenders: contenders, comparisons: comparisons))
        }
        print("")
        return cases
    }

    /// Both files must decode both ways to the same size, and ours to the same pixels,
    /// or the run stops: a decoder that gave up early would otherwise look fast.
    static func verify(_ subject: Subject) throws {
        let plain = try subject.ours(subject.plain)
        let hostile = try subject.ours(subject.hostile)
        guard hostile.size == plain.size, hostile.frames.count == plain.frames.count,
            hostile.bitmap.packedBytes == plain.bitmap.packedBytes
        else {
            throw Baseline.Failure(description: "\(subject.name): ours decodes the hostile file differently from the plain one")
        }
        // The C library must decode both too (it throws when it refuses a file).
        for data in [subject.plain, subject.hostile] {
            let bare = try subject.bare(data)
            guard bare.width == plain.size.width, bare.height == plain.size.height else {
                throw Baseline.Failure(
                    description: "\(subject.name): ours is \(plain.size), \(subject.bareName) \(bare.width)x\(bare.height)")
            }
        }
    }

    /// Reads every byte once; the sum is kept so the loop cannot be dropped.
    @inline(never)
    static func sumOfBytes(_ data: Data) -> UInt64 {
        data.withUnsafeBytes { bytes in
            var total: UInt64 = 0
            for byte in bytes { total &+= UInt64(byte) }
            return total
        }
    }

    /// The program on the plain and on the hostile file, when it is on PATH and succeeds
    /// on both; otherwise no contender and a note for the summary.
    static func processContenders(_ program: Program, caseName: String, plain: Data, hostile: Data) throws -> [Contender] {
        guard let executable = locate(program.name)?.path else {
            Findings.peerLeftOut(programName(program), reason: "not on PATH (make bench-deps installs \(program.package))")
            return []
        }
        let directory = try temporaryDirectory()
        let stem = directory.appendingPathComponent(caseName.filter { $0.isLetter || $0.isNumber }).path
        let plainPath = "\(stem)-plain.\(program.fileExtension)"
        let hostilePath = "\(stem)-hostile.\(program.fileExtension)"
        try plain.write(to: URL(fileURLWithPath: plainPath))
        try hostile.write(to: URL(fileURLWithPath: hostilePath))
        for path in [plainPath, hostilePath] {
            let status = try run(executable, program.arguments(path))
            guard status == 0 else {
                Findings.peerLeftOut(programName(program), reason: "it exited with status \(status) on \(path)")
                return []
            }
        }
        return [
            Contender(name: "\(program.name) (process), plain file") {
                guard try run(executable, program.arguments(plainPath)) == 0 else {
                    throw Baseline.Failure(description: "\(program.name) failed on \(plainPath)")
                }
            },
            Contender(name: programName(program)) {
                guard try run(executable, program.arguments(hostilePath)) == 0 else {
                    throw Baseline.Failure(description: "\(program.name) failed on \(hostilePath)")
                }
            },
        ]
    }

    /// The program's contender on the hostile file: a peer of the report.
    static func programName(_ program: Program) -> String { "\(program.name) (process), hostile file" }

    /// The first executable `name` in PATH's directories.
    static func locate(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").lazy
            .map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Runs the program with its output discarded and returns its exit status (-1 when
    /// a signal ended it). `posix_spawn` and `waitpid` rather than Foundation's `Process`,
    /// whose `waitUntilExit` on Linux polls its run loop every 50 ms: a 5 ms run of
    /// `/bin/true` measures 5 or 50 ms depending on when the child ends.
    static func run(_ executable: String, _ arguments: [String]) throws -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([executable] + arguments).map { strdup($0) }
        defer { for argument in argv { free(argument) } }
        var pid = pid_t()
        let error = posix_spawn(&pid, executable, &actions, nil, argv + [nil], environ)
        guard error == 0 else { throw Baseline.Failure(description: "posix_spawn \(executable): error \(error)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { throw Baseline.Failure(description: "waitpid \(executable): errno \(errno)") }
        }
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : -1
    }

    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-bench-hostile-\(getpid())")
        if root == nil {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            root = directory.path
            atexit { if let root = HostileStructureCases.root { try? FileManager.default.removeItem(atPath: root) } }
        }
        return directory
    }

    /// The goal per case, then how much the repeated structure costs each decoder
    /// (hostile / plain).
    static func printSummary(_ results: [CaseResult]) {
        let measured = results.filter { names.contains($0.name) }
        guard !measured.isEmpty else { return }
        print("Hostile structures: ours on the hostile file / (2 x ours on the plain file + reading its bytes once), goal <= 1:")
        for result in measured {
            let median = Dictionary(zip(result.contenders, result.medians), uniquingKeysWith: { first, _ in first })
            guard let plain = median[oursPlain], let read = median[readOnce] else { continue }
            let hostile = result.medians[0]
            let bound = 2 * plain + read
            Findings.record(
                .hostile, "\(result.name): against the plain file", ours: .seconds(result.contenders[0], hostile),
                peer: .seconds("2 x ours on the plain file + reading the bytes", bound),
                measured: Figure(label: "ours hostile / (2 plain + read)", value: hostile / bound, unit: "x"), goal: .atMost(1))
        }
        print("\nHostile / plain time of the same decoder (1.00: the repeated structure costs nothing):")
        for result in measured {
            let median = Dictionary(zip(result.contenders, result.medians), uniquingKeysWith: { first, _ in first })
            for contender in result.contenders where contender.hasSuffix(", hostile file") {
                let decoder = String(contender.dropLast(", hostile file".count))
                guard let plain = median["\(decoder), plain file"], let hostile = median[contender] else { continue }
                print(
                    "  \(Report.pad(result.name, 34)) \(Report.pad(decoder, 20)) \(ms(plain)) -> \(ms(hostile)) ms  "
                        + String(format: "%6.2fx", hostile / plain))
            }
        }
        print("")
    }

    private static func ms(_ seconds: Double) -> String { Report.pad(Report.milliseconds(seconds), 10, right: true) }
}
