import Foundation
import Testing

@testable import WebImageProxy

@Suite("Processing options")
struct OptionParserTests {
    func parse(_ segments: [String], presets: [ProxyPreset] = []) throws -> ProcessingOptions {
        let byName = Dictionary(uniqueKeysWithValues: presets.map { ($0.name, $0) })
        var options = ProcessingOptions()
        for segment in segments { try OptionParser.apply(segment, to: &options, presets: byName, depth: 0) }
        return options
    }

    @Test("imgproxy's options and their long names read the same")
    func names() throws {
        let short = try parse(["rs:fill:300:200", "g:so", "q:70", "f:webp", "exp:2000000000"])
        let long = try parse(["resize:fill:300:200", "gravity:so", "quality:70", "format:webp", "expires:2000000000"])
        #expect(short == long)
        #expect(short.resizeMode == .fill && short.width == 300 && short.height == 200)
        #expect(short.gravity == ProcessingOptions.Gravity(.south) && short.quality == 70 && short.format == .webp)
        #expect(short.expires == Date(timeIntervalSince1970: 2_000_000_000))
    }

    @Test("scp:0 keeps the colour profile, scp:1 strips it, and without scp the proxy's default decides")
    func stripColorProfile() throws {
        #expect(try parse([]).keepsColorProfile == nil)
        #expect(try parse(["scp:0"]).keepsColorProfile == true)
        #expect(try parse(["strip_color_profile:false"]).keepsColorProfile == true)
        #expect(try parse(["scp:1"]).keepsColorProfile == false)
        #expect(try parse(["scp:0", "strip_color_profile:1"]).keepsColorProfile == false)
        #expect(try parse(["scp:0"]) != parse(["scp:1"]))
    }

    @Test("t reads a threshold, a colour and the two equal-trim flags; an empty threshold turns it off")
    func trim() throws {
        #expect(try parse(["t:10"]).trim == ProcessingOptions.Trim(threshold: 10))
        let full = try parse(["trim:5.5:ff0000:1:t"]).trim
        #expect(
            full
                == ProcessingOptions.Trim(
                    threshold: 5.5, color: .init(red: 255, green: 0, blue: 0), equalHorizontal: true, equalVertical: true))
        #expect(try parse(["t:10::0:1"]).trim == ProcessingOptions.Trim(threshold: 10, equalVertical: true))
        #expect(try parse(["t:10", "t:"]).trim == nil)
    }

    @Test("later options override earlier ones, and left-out arguments keep theirs")
    func overrides() throws {
        let options = try parse(["s:100:50", "rs:force", "w:80", "rt:fit", "f:jpg", "ext:png"])
        #expect(options.resizeMode == .fit && options.width == 80 && options.height == 50 && options.format == .png)
    }

    @Test("format names read in any case, jpg is jpeg, and fq sets several formats at once")
    func formatNames() throws {
        #expect(try parse(["f:JPG"]).format == .jpeg)
        #expect(try parse(["format:WebP"]).format == .webp)
        #expect(try parse(["ext:gif"]).format == .gif)
        let qualities = try parse(["fq:AVIF:40:jpeg:0:Png:90:webp:70"]).formatQuality
        #expect(qualities == [.avif: 40, .png: 90, .webp: 70])
    }

    @Test("presets expand in place, nest, and refuse loops")
    func presets() throws {
        let small = ProxyPreset(name: "small", options: ["rs:fit:100:100"])
        let card = ProxyPreset(name: "card", options: ["pr:small", "q:60"])
        let options = try parse(["pr:card", "w:120"], presets: [small, card])
        #expect(options.width == 120 && options.height == 100 && options.quality == 60)
        let loop = ProxyPreset(name: "loop", options: ["pr:loop"])
        #expect(throws: ProxyError.self) { try parse(["pr:loop"], presets: [loop]) }
        #expect(throws: ProxyError.self) { try parse(["pr:missing"]) }
    }

    @Test("a preset from the command line is checked when it is made")
    func presetParsing() throws {
        let preset = try ProxyPreset(parsing: "thumb=rs:fill:64:64/q:80")
        #expect(preset.name == "thumb" && preset.options == ["rs:fill:64:64", "q:80"])
        #expect(throws: ProxyError.self) { try ProxyPreset(parsing: "thumb") }
        #expect(throws: ProxyError.self) { try ProxyPreset(parsing: "thumb=rs:wide:1:1") }
    }

    @Test(
        "anything unknown or out of range is a 400 naming it",
        arguments: [
            "zz:1", "rs", "rs:wide:1:1", "rs:fit:-1:1", "rs:fit:99999:1", "rs:fit:1:2:3", "g:up", "q:-1", "q:101", "f:tiff", "fq:avif",
            "fq:tiff:50", "fq:webp:101", "kcr:1", "eth:1", "skp:bmp", "fn:%%%:1", "raw:maybe", "bg:12345", "bg:1:2", "bg:300:0:0", "pd:-1",
            "pd:1:2:3:4:5", "bl:101", "sh:-1", "pix:x", "t:-1", "t:256", "t:10:red", "t:10::maybe", "t:1:2:3:4:5",
            "exp:soon", "sm:0", "w", "w:1:2", "scp:2", "scp", "f:jpegs", "f:", "f:jp", "f:\u{0}jpg", "fq:éwebp:50",
            "w:99999999999999999999999999", "q:1e2", "zz", ":", "rs:fit:1:1:1:1:1:1:1:1",
        ])
    func refused(segment: String) {
        #expect {
            try parse([segment])
        } throws: { error in
            guard let error = error as? ProxyError else { return false }
            return error.status == 400 && error.message.contains(segment)
        }
    }
}
