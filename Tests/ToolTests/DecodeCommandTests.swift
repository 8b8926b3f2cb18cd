import Foundation
import Testing
import WebImageCore
import WebImageDecoding
import WebImageFixtures
import WebImageTestSupport

@Suite("webimage decode")
struct DecodeCommandTests {
    /// Writes a few generated files: a photo JPEG, an RGBA PNG, a 5-frame GIF and a
    /// file that is not an image.
    static func makeInputs(in folder: URL) throws -> [String: URL] {
        var files: [String: URL] = [:]
        func write(_ name: String, _ data: Data) throws {
            let url = folder.appendingPathComponent(name)
            try data.write(to: url)
            files[name] = url
        }
        try write("photo.jpg", try JPEGFixtureEncoder().encode(try SyntheticImage.photo(width: 320, height: 200)))
        try write("icon.png", try PNGFixtureEncoder().encode(try SyntheticImage.translucent(width: 64, height: 48)))
        try write(
            "spin.gif",
            try GIFFixtureEncoder().encode(
                SyntheticAnimation.make(width: 40, height: 30, frameCount: 5, delayCentiseconds: 7, loopCount: 2)
            ))
        try write("notes.txt", Data("not an image".utf8))
        return files
    }

    static func json(_ line: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    @Test("--json prints one object per file with the documented keys, and a failure exits non-zero")
    func jsonLines() throws {
        let folder = try WebImageProgram.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = try Self.makeInputs(in: folder)
        let run = try WebImageProgram.run(["decode", "--json"] + ["photo.jpg", "spin.gif", "notes.txt"].map { files[$0]!.path })
        #expect(run.status != 0, "a file failed, so the program must fail")
        #expect(run.lines.count == 3)

        let photo = try Self.json(run.lines[0])
        #expect(
            Set(photo.keys) == [
                "file", "format", "width", "height", "frames", "loopCount", "durationsMs", "sourceColorProfile", "colorWarnings",
                "decodeMs", "error",
            ])
        #expect(photo["format"] as? String == "jpeg")
        #expect(photo["width"] as? Int == 320)
        #expect(photo["height"] as? Int == 200)
        #expect(photo["error"] is NSNull)

        let gif = try Self.json(run.lines[1])
        #expect(gif["frames"] as? Int == 5)
        #expect(gif["loopCount"] as? Int == 2)
        #expect(gif["durationsMs"] as? [Int] == [70, 70, 70, 70, 70])

        let text = try Self.json(run.lines[2])
        #expect(text["format"] is NSNull)
        #expect((text["error"] as? String)?.contains("unknownFormat") == true)
    }

    @Test("--json names the numbers a colour space stated by gAMA was made from")
    func statedColorSpace() throws {
        let folder = try WebImageProgram.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = try PNGFixtureEncoder().encode(try SyntheticImage.photo(width: 32, height: 24))
        // gAMA 100000 (linear light), right after IHDR (8 + 25 bytes in).
        var tagged = Data(png.prefix(33))
        tagged.append(contentsOf: PNGChunks.chunk("gAMA", [0x00, 0x01, 0x86, 0xA0]))
        tagged.append(png.dropFirst(33))
        let file = folder.appendingPathComponent("linear.png")
        try tagged.write(to: file)
        let run = try WebImageProgram.run(["decode", "--json", file.path])
        #expect(run.status == 0, "\(run.lines)")
        let report = try Self.json(try #require(run.lines.first))
        let profile = try #require(report["sourceColorProfile"] as? String)
        #expect(profile.contains("from PNG gAMA 100000"), "\(profile)")
    }

    @Test("WebP files, still and animated, decode with their frames and timing")
    func webpAndAPNG() throws {
        let folder = try WebImageProgram.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let still = folder.appendingPathComponent("photo.webp")
        try WebPFixtureEncoder(quality: 80).encode(try SyntheticImage.photo(width: 120, height: 80)).write(to: still)
        let animated = folder.appendingPathComponent("spin.webp")
        let frames = [try SyntheticImage.photo(width: 30, height: 20), try SyntheticImage.translucent(width: 30, height: 20)]
        try WebPFixtureEncoder(lossless: true).encodeAnimation(frames, durations: [60, 90], loopCount: 4).write(to: animated)
        let run = try WebImageProgram.run(["decode", "--json", still.path, animated.path])
        #expect(run.status == 0, "\(run.lines)")
        #expect(run.lines.count == 2)
        let photo = try Self.json(run.lines[0])
        #expect(photo["format"] as? String == "webp")
        #expect(photo["width"] as? Int == 120)
        let spin = try Self.json(run.lines[1])
        #expect(spin["format"] as? String == "webp")
        #expect(spin["frames"] as? Int == 2)
        #expect(spin["loopCount"] as? Int == 4)
        #expect(spin["durationsMs"] as? [Int] == [60, 90])
    }

    @Test("--format jpeg and webp write NAME.jpg and NAME.webp; an animation becomes one animated WebP")
    func outputFormats() throws {
        let folder = try WebImageProgram.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = try Self.makeInputs(in: folder)
        let out = folder.appendingPathComponent("out")
        let jpeg = try WebImageProgram.run(["decode", "--out", out.path, "--format", "jpeg", "--quality", "70", files["photo.jpg"]!.path])
        #expect(jpeg.status == 0, "\(jpeg.errors)")
        let written = try JPEGDecoder().decode(try Data(contentsOf: out.appendingPathComponent("photo.jpg")))
        #expect(written.size == PixelSize(width: 320, height: 200))
        let webp = try WebImageProgram.run([
            "decode", "--out", out.path, "--format", "webp", files["spin.gif"]!.path, files["icon.png"]!.path,
        ])
        #expect(webp.status == 0, "\(webp.errors)")
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: out.path)) == ["photo.jpg", "spin.webp", "icon.webp"])
        let spin = try Data(contentsOf: out.appendingPathComponent("spin.webp"))
        #expect(spin.prefix(4) == Data("RIFF".utf8))
        #expect(spin.range(of: Data("ANIM".utf8)) != nil, "an animated WebP")
        let badQuality = try WebImageProgram.run([
            "decode", "--out", out.path, "--format", "jpeg", "--quality", "0", files["photo.jpg"]!.path,
        ])
        #expect(badQuality.status != 0)
    }

    @Test("--format gif writes one animated NAME.gif of an animation, with its frames, delays and loop count")
    func gifOutput() throws {
        let folder = try WebImageProgram.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = try Self.makeInputs(in: folder)
        let out = folder.appendingPathComponent("out")
        let write = try WebImageProgram.run(["decode", "--out", out.path, "--format", "gif", files["spin.gif"]!.path])
        #expect(write.status == 0, "\(write.errors)")
        let spin = try GIFDecoder().decode(try Data(contentsOf: out.appendingPathComponent("spin.gif")), options: .default)
        #expect(spin.frameCount == 5)
        #expect(spin.loopCount == 2)
        #expect(spin.frames.allSatisfy { $0.storedDelay == .milliseconds(70) })
    }

    @Test("--format avif writes NAME.avif, and decode reads it back as AVIF; an animation becomes one image sequence")
    func avifOutput() throws {
        let folder = try WebImageProgram.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = try Self.makeInputs(in: folder)
        let out = folder.appendingPathComponent("out")
        let write = try WebImageProgram.run([
            "decode", "--out", out.path, "--format", "avif", "--quality", "70", files["photo.jpg"]!.path, files["spin.gif"]!.path,
        ])
        #expect(write.status == 0, "\(write.errors)")
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: out.path)) == ["photo.avif", "spin.avif"])
        let read = try WebImageProgram.run([
            "decode", "--json", out.appendingPathComponent("photo.avif").path, out.appendingPathComponent("spin.avif").path,
        ])
        #expect(read.status == 0, "\(read.lines)")
        let photo = try Self.json(read.lines[0])
        #expect(photo["format"] as? String == "avif")
        #expect(photo["width"] as? Int == 320)
        #expect(photo["height"] as? Int == 200)
        let spin = try Self.json(read.lines[1])
        #expect(spin["format"] as? String == "avif")
        #expect(spin["frames"] as? Int == 5)
    }

    @Test("all files decoding exits zero")
    func success() throws {
        let folder = try WebImageProgram.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = try Self.makeInputs(in: folder)
        let run = try WebImageProgram.run(["decode", files["photo.jpg"]!.path, files["icon.png"]!.path])
        #expect(run.status == 0)
        #expect(run.lines.count == 2)
        #expect(run.lines[0].contains("320x200"))
    }

    @Test("--out writes NAME.png for a still and NAME-K.png per frame, with the decoded pixels")
    func output() throws {
        let folder = try WebImageProgram.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = try Self.makeInputs(in: folder)
        let out = folder.appendingPathComponent("out")
        let run = try WebImageProgram.run(["decode", "--out", out.path, files["icon.png"]!.path, files["spin.gif"]!.path])
        #expect(run.status == 0, "\(run.errors)")
        let written = Set(try FileManager.default.contentsOfDirectory(atPath: out.path))
        #expect(written == ["icon.png", "spin-0.png", "spin-1.png", "spin-2.png", "spin-3.png", "spin-4.png"])

        let original = try PNGDecoder().decode(try Data(contentsOf: files["icon.png"]!))
        let roundTrip = try PNGDecoder().decode(try Data(contentsOf: out.appendingPathComponent("icon.png")))
        #expect(roundTrip.bitmap == original.bitmap)
        let frames = try GIFDecoder().decode(try Data(contentsOf: files["spin.gif"]!)).frames
        let third = try PNGDecoder().decode(try Data(contentsOf: out.appendingPathComponent("spin-2.png")))
        #expect(third.bitmap == frames[2].bitmap)
    }

    @Test("--max-pixel-size and --first-frame reach the decoder")
    func options() throws {
        let folder = try WebImageProgram.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = try Self.makeInputs(in: folder)
        let run = try WebImageProgram.run([
            "decode", "--json", "--max-pixel-size", "80", "--first-frame", files["photo.jpg"]!.path, files["spin.gif"]!.path,
        ])
        #expect(run.status == 0)
        let photo = try Self.json(run.lines[0])
        #expect(photo["width"] as? Int == 80)
        #expect(photo["height"] as? Int == 50)
        #expect(try Self.json(run.lines[1])["frames"] as? Int == 1)
    }

    @Test("bad arguments are refused before any work")
    func validation() throws {
        let run = try WebImageProgram.run(["decode", "--max-pixel-size", "0", "x.png"])
        #expect(run.status != 0)
        #expect(run.errors.contains("--max-pixel-size"))
        let missing = try WebImageProgram.run(["decode", "/nonexistent/file.png"])
        #expect(missing.status != 0)
        #expect(missing.output.contains("cannot read the file"))
    }
}

@Suite("webimage samples")
struct SamplesCommandTests {
    @Test("writes the sample set, every file of which decodes")
    func samples() throws {
        let folder = try WebImageProgram.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try WebImageProgram.run(["samples", "--out", folder.path])
        #expect(run.status == 0, "\(run.errors)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names.count == 8)
        #expect(Set(names.map { ($0 as NSString).pathExtension }) == ["jpg", "png", "gif"])
        for name in names {
            let image = try ImageDecoderRegistry.standard.decode(try Data(contentsOf: folder.appendingPathComponent(name)))
            #expect(image.width > 0, "\(name)")
        }
    }
}
