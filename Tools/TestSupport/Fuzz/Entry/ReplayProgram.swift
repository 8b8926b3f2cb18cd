// Without `-DWEBIMAGE_FUZZ`: a plain program that replays saved inputs through a
// harness, to reproduce a crash in a normal (debuggable) build.
#if !WEBIMAGE_FUZZ
    import Foundation
    import WebImageFuzzing

    /// `webimage-fuzz <target> FILE...`: one line per file with what the library did.
    @main
    struct ReplayProgram {
        static func main() {
            let arguments = Array(CommandLine.arguments.dropFirst())
            guard let name = arguments.first, let target = FuzzTarget(rawValue: name), arguments.count > 1 else {
                FileHandle.standardError.write(
                    Data("usage: webimage-fuzz <\(FuzzTarget.allCases.map(\.rawValue).joined(separator: "|"))> FILE...\n".utf8))
                exit(2)
            }
            var failed = false
            for path in arguments.dropFirst() {
                guard let data = FileManager.default.contents(atPath: path) else {
                    print("\(path): cannot read")
                    failed = true
                    continue
                }
                print("\(path): \(target.run(data))")
            }
            exit(failed ? 1 : 0)
        }
    }
#endif
