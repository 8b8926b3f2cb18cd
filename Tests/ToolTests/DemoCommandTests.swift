import Foundation
import Testing
import WebImageCore
import WebImageDecoding

@Suite("webimage demo")
struct DemoCommandTests {
    @Test("loads every sample from the network, then memory, then disk, and writes a contact sheet")
    func demo() throws {
        let folder = try WebImageProgram.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try WebImageProgram.run(["demo", "--out", folder.path])
        #expect(run.status == 0, "\(run.output)\n\(run.errors)")

        let lines = run.lines
        for (pass, source) in [(1, "network"), (2, "memory"), (3, "disk")] {
            let start = try #require(lines.firstIndex { $0.hasPrefix("pass \(pass):") })
            let rows = lines[(start + 2)...].prefix { !$0.hasPrefix("total") }
            #expect(rows.count == 8, "one row per sample in pass \(pass)")
            #expect(rows.allSatisfy { $0.split(separator: " ").contains(Substring(source)) }, "pass \(pass) comes from \(source)")
        }
        #expect(lines.contains { $0.hasPrefix("failures") && $0.hasSuffix(" 0") })

        let path = try #require(ServedFolder.value(of: "contact sheet", in: lines)).components(separatedBy: " (")[0]
        #expect(path == folder.appendingPathComponent("contact-sheet.png").path)
        let sheet = try PNGDecoder().decode(try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(sheet.width == 4 * 160 && sheet.height == 2 * 160, "8 samples make a 4x2 grid")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("samples/animation.gif").path))
    }
}
