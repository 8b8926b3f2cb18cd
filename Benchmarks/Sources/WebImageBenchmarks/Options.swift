/// Command-line options, parsed by hand to keep the benchmark free of dependencies.
struct Options {
    var quick = false
    /// `--report DIR`: where RESULTS.md, RESULTS.json and results.svg go.
    var reportDirectory: String?
    var memoryMode: MemoryProbe.Mode?
    var memoryInput: String?
    /// `--animated-thumbnail FILE`: a child of the animated thumbnail case (its side, once).
    var animatedThumbnailInput: String?
    /// `--budget-probe FILE --loads N --budget BYTES|none [--pixel-size N] [--walk-frames]`: a child of
    /// the memory-budget case.
    var budgetProbe: (file: String, loads: Int, budget: Int?)?
    /// The probe's thumbnail size (`ImageLoadContext.thumbnailPixelSize`), if any.
    var probePixelSize: Int?
    /// `--walk-frames`: the probe asks each loaded animation for its last frame, which
    /// composes every frame and fills the frame source's snapshots.
    var probeWalksFrames = false
    var only: String?
    /// `--contender TEXT`: run only the contenders whose name contains TEXT, so that a
    /// profiler attached to the process sees one side of a case.
    var contender: String?
    var fixturesDirectory: String?

    static let usage = """
        usage: WebImageBenchmarks [--quick] [--report DIR] [--only TEXT] [--contender TEXT]
               WebImageBenchmarks --memory MODE --input FILE
               WebImageBenchmarks --write-fixtures DIR
          --quick        few rounds, for a smoke run
          --report DIR   write the report there: RESULTS.md, RESULTS.json (every sample) and
                         results.svg; a --quick or --only run will not write over a full one's
          --only TEXT    run only the cases whose name contains TEXT
          --contender TEXT  run only the contenders whose name contains TEXT (to profile
                         one side; the ratios then print only where both sides ran)
          --memory MODE  decode FILE once and print the peak RSS (used by the main run);
                         MODE: baseline (read only), jpeg-full, jpeg-eighth, png, gif
          --write-fixtures DIR  write the benchmark's fixture files to DIR and stop
        """

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        func value(_ flag: String) throws -> String {
            guard let next = rest.popFirst() else { throw Baseline.Failure(description: "\(flag) needs a value\n\(Self.usage)") }
            return next
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--quick": quick = true
            case "--report": reportDirectory = try value(argument)
            case "--only": only = try value(argument)
            case "--contender": contender = try value(argument)
            case "--input": memoryInput = try value(argument)
            case "--animated-thumbnail": animatedThumbnailInput = try value(argument)
            case "--budget-probe": budgetProbe = (try value(argument), budgetProbe?.loads ?? 1, budgetProbe?.budget)
            case "--loads":
                guard let loads = Int(try value(argument)), loads > 0 else { throw Baseline.Failure(description: Self.usage) }
                budgetProbe = (budgetProbe?.file ?? "", loads, budgetProbe?.budget)
            case "--budget":
                let text = try value(argument)
                budgetProbe = (budgetProbe?.file ?? "", budgetProbe?.loads ?? 1, text == "none" ? nil : Int(text))
            case "--pixel-size":
                guard let size = Int(try value(argument)), size > 0 else { throw Baseline.Failure(description: Self.usage) }
                probePixelSize = size
            case "--walk-frames": probeWalksFrames = true
            case "--write-fixtures": fixturesDirectory = try value(argument)
            case "--memory":
                let name = try value(argument)
                guard let mode = MemoryProbe.Mode(rawValue: name) else {
                    throw Baseline.Failure(description: "unknown memory mode \(name)\n\(Self.usage)")
                }
                memoryMode = mode
            default: throw Baseline.Failure(description: "unknown argument \(argument)\n\(Self.usage)")
            }
        }
    }
}
