// The libFuzzer binary: built only with `-DWEBIMAGE_FUZZ` and `-sanitize=fuzzer,address`
// (see `make fuzz`).
#if WEBIMAGE_FUZZ
    import Foundation
    import WebImageFuzzing

    #if canImport(Glibc)
        import Glibc
    #endif

    /// The harness chosen by `WEBIMAGE_FUZZ_TARGET`, read once.
    private let selectedTarget: FuzzTarget = {
        let name = ProcessInfo.processInfo.environment["WEBIMAGE_FUZZ_TARGET"] ?? ""
        guard let target = FuzzTarget(rawValue: name) else {
            // Not a crash of the library: say what is wrong and stop before fuzzing starts.
            FileHandle.standardError.write(Data("webimage-fuzz: set WEBIMAGE_FUZZ_TARGET to one of: \(FuzzTarget.names)\n".utf8))
            exit(2)
        }
        return target
    }()

    /// Called by libFuzzer once per input; a broken invariant traps inside the harness.
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
        let data = bytes.map { Data(bytes: $0, count: count) } ?? Data()
        _ = selectedTarget.run(data)
        return 0
    }

    /// libFuzzer's driver (its `main` in all but name), exported by the fuzzer runtime.
    @_silgen_name("LLVMFuzzerRunDriver")
    private func runFuzzerDriver(
        _ argc: UnsafeMutablePointer<CInt>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
    ) -> CInt

    /// SwiftPM links every executable with its entry point renamed to the module's
    /// (`main` is defined as `webimage_fuzz_main`), so libFuzzer's own `main` is never used:
    /// this entry point hands the command line to libFuzzer's driver instead.
    @main
    struct FuzzProgram {
        static func main() {
            _ = selectedTarget  // an unknown target fails before libFuzzer starts
            if let directory = ProcessInfo.processInfo.environment["WEBIMAGE_FUZZ_WRITE_SEEDS"] {
                exit(writeSeeds(into: directory))
            }
            var argc = CommandLine.argc
            var argv = CommandLine.unsafeArgv
            exit(runFuzzerDriver(&argc, &argv, fuzzTestOneInput))
        }

        /// With `WEBIMAGE_FUZZ_WRITE_SEEDS=DIR` the program only writes the target's
        /// repeated-structure seeds into DIR (run-fuzz.sh does so before each run): they
        /// are made by the fixtures' code, so no generated file is kept in the repository.
        private static func writeSeeds(into directory: String) -> CInt {
            do {
                _ = try RepeatedStructureSeeds.write(for: selectedTarget, into: directory)
                return 0
            } catch {
                FileHandle.standardError.write(Data("webimage-fuzz: cannot write seeds into \(directory): \(error)\n".utf8))
                return 1
            }
        }
    }
#endif
