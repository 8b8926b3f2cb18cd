import Foundation
import Testing
import WebImage
import WebImageFixtures
import WebImageTestServer
import WebImageTestSupport

@testable import WebImageConcurrency
@testable import WebImageProxy
@testable import WebImageResources

/// The proxy as its users meet it: real HTTP requests (libcurl) to the proxy on
/// Hummingbird, which fetches from a real loopback origin.
@Suite("Image proxy over HTTP")
struct ImageProxyServerTests {
    @Test(
        "each resizing type gives the size it promises",
        arguments: [
            ("rs:fit:300:300", PixelSize(width: 300, height: 225)),
            ("rs:fit:300:100", PixelSize(width: 133, height: 100)),
            ("rs:fill:200:200", PixelSize(width: 200, height: 200)),
            ("rs:fill:300:100", PixelSize(width: 300, height: 100)),
            ("rs:fill:100:100/g:no", PixelSize(width: 100, height: 100)),
            ("rs:fill:100:100/g:so", PixelSize(width: 100, height: 100)),
            ("rs:fill:100:100/g:sm", PixelSize(width: 100, height: 100)),
            ("rs:force:100:300", PixelSize(width: 100, height: 300)),
            ("w:160", PixelSize(width: 160, height: 120)),
            ("h:90", PixelSize(width: 120, height: 90)),
            ("rs:fit:4000:4000", PixelSize(width: 1600, height: 1200)),
            ("rs:force:300:0", PixelSize(width: 300, height: 1200)),
            ("rs:auto:300:300", PixelSize(width: 300, height: 300)),
            ("rs:fit:200:200/dpr:2", PixelSize(width: 400, height: 300)),
            ("rs:fit:100:100/z:1.5", PixelSize(width: 150, height: 113)),
            ("rs:fit:400:400/ex:1", PixelSize(width: 400, height: 400)),
            ("rs:fit:400:400/exar:1", PixelSize(width: 400, height: 400)),
            ("c:800:600/rs:fit:200:200", PixelSize(width: 200, height: 150)),
            ("rs:fit:2000:0:1", PixelSize(width: 2000, height: 1500)),
            ("rs:fit:2000:0", PixelSize(width: 1600, height: 1200)),
            ("rs:fit:100:100/mw:2000", PixelSize(width: 100, height: 100)),
        ])
    func sizes(options: String, expected: PixelSize) async throws {
        try await ProxyHarness.run(files: ["photo.jpg": try ProxyImages.photoJPEG()]) { harness in
            let answer = try await harness.get(harness.path(options, origin: "/files/photo.jpg"))
            #expect(answer.status == 200)
            #expect(try ProxyImages.size(of: answer.data) == expected)
        }
    }

    @Test("rot turns the image clockwise before the box is met, fl mirrors it")
    func turns() async throws {
        // 400x200: left half red, right half blue.
        let halves = try ProxyImages.halvesPNG(left: [255, 0, 0, 255], right: [0, 0, 255, 255])
        try await ProxyHarness.run(files: ["halves.png": halves]) { harness in
            let (red, blue): ([UInt8], [UInt8]) = ([255, 0, 0], [0, 0, 255])
            // The colour a quarter in from the top left, and a quarter in from the bottom right.
            let cases: [(String, PixelSize, first: [UInt8], last: [UInt8])] = [
                // A quarter clockwise: the left half is on top; the box takes the turned size.
                ("rot:90/rs:fit:100:100", PixelSize(width: 50, height: 100), red, blue),
                ("rot:-90/rs:fit:100:100", PixelSize(width: 50, height: 100), blue, red),
                ("rot:180/rs:fit:100:100", PixelSize(width: 100, height: 50), blue, red),
                ("fl:1/rs:fit:100:100", PixelSize(width: 100, height: 50), blue, red),
                // Turned, then mirrored top to bottom.
                ("rot:90/fl:0:1/rs:fit:100:100", PixelSize(width: 50, height: 100), blue, red),
                ("rot:90/fl:1:1/rs:fit:100:100", PixelSize(width: 50, height: 100), blue, red),
            ]
            for (options, size, first, last) in cases {
                let answer = try await harness.get(harness.path(options, origin: "/files/halves.png", ext: "png"))
                let image = try ImageDecoderRegistry.allFormats.decodeImage(answer.data, options: .default).bitmap
                #expect(image.size == size, "\(options)")
                let probes = [
                    Self.pixel(image, image.width / 4, image.height / 4), Self.pixel(image, image.width * 3 / 4, image.height * 3 / 4),
                ]
                #expect(probes.map { Array($0.prefix(3)) } == [first, last], "\(options)")
            }
        }
    }

    @Test("the source's own orientation is applied unless ar:0")
    func autoRotate() async throws {
        let turned = try ProxyImages.halvesWebP(orientation: .right, left: [255, 0, 0], right: [0, 0, 255])
        try await ProxyHarness.run(files: ["turned.webp": turned]) { harness in
            let shown = try await harness.get(harness.path("rs:fit:100:100", origin: "/files/turned.webp", ext: "png"))
            #expect(try ProxyImages.size(of: shown.data) == PixelSize(width: 50, height: 100))
            let stored = try await harness.get(harness.path("ar:0/rs:fit:100:100", origin: "/files/turned.webp", ext: "png"))
            #expect(try ProxyImages.size(of: stored.data) == PixelSize(width: 100, height: 50))
            let image = try ImageDecoderRegistry.allFormats.decodeImage(stored.data, options: .default).bitmap
            #expect(Array(Self.pixel(image, 25, 25).prefix(3)) == [255, 0, 0], "the stored left half, on the left")
        }
    }

    @Test("every image says how a browser saves it; fn names it, att downloads it; cb changes only the URL")
    func disposition() async throws {
        try await ProxyHarness.run(files: ["photo.jpg": try ProxyImages.photoJPEG()]) { harness in
            let plain = try await harness.get(harness.path("rs:fit:64:64", origin: "/files/photo.jpg", ext: "jpg"))
            #expect(plain.header("Content-Disposition") == "inline; filename=\"photo.jpg\"")
            let named = try await harness.get(harness.path("rs:fit:64:64/fn:cat/att:1", origin: "/files/photo.jpg", ext: "png"))
            #expect(named.header("Content-Disposition") == "attachment; filename=\"cat.png\"")
            // "Y2F0IOKAnHF1b3RlZOKAnQ" is the URL-safe base64 of `cat “quoted”`.
            let encoded = try await harness.get(
                harness.path("rs:fit:64:64/fn:Y2F0IOKAnHF1b3RlZOKAnQ:1", origin: "/files/photo.jpg", ext: "webp"))
            #expect(encoded.header("Content-Disposition") == "inline; filename=\"cat “quoted”.webp\"")
            let busted = try await harness.get(harness.path("rs:fit:64:64/cb:2", origin: "/files/photo.jpg", ext: "jpg"))
            #expect(busted.data == plain.data)
            #expect(harness.proxy.statistics.renders == 4, "a cache buster makes another output")
        }
    }

    @Test("skp answers sources of the formats it names as they are; raw answers every source so")
    func passThrough() async throws {
        let photo = try ProxyImages.photoJPEG()
        let logo = try ProxyImages.halvesPNG(left: [0, 0, 0], right: [255, 255, 255])
        try await ProxyHarness.run(files: ["photo.jpg": photo, "logo.png": logo]) { harness in
            let skipped = try await harness.get(harness.path("rs:fit:64:64/skp:png:gif", origin: "/files/logo.png"))
            #expect(skipped.data == logo)
            #expect(skipped.header("Content-Type") == "image/png")
            #expect(skipped.header("Content-Disposition") == "inline; filename=\"logo.png\"")
            let processed = try await harness.get(harness.path("rs:fit:64:64/skp:png", origin: "/files/photo.jpg"))
            #expect(try ProxyImages.size(of: processed.data) == PixelSize(width: 64, height: 48))
            let raw = try await harness.get(harness.path("rs:fit:64:64/raw:1", origin: "/files/photo.jpg"))
            #expect(raw.data == photo)
            #expect(raw.header("Content-Type") == "image/jpeg")
        }
    }

    @Test("a base64 source is the same request as its plain spelling")
    func base64Source() async throws {
        try await ProxyHarness.run(files: ["photo.jpg": try ProxyImages.photoJPEG()]) { harness in
            let plain = try await harness.get(harness.path("rs:fit:120:120", origin: "/files/photo.jpg", ext: "png"))
            let source = Data(harness.origin.url("/files/photo.jpg").absoluteString.utf8).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            let half = source.index(source.startIndex, offsetBy: source.count / 2)
            let encoded = try await harness.get("/unsafe/rs:fit:120:120/\(source[..<half])/\(source[half...]).png")
            #expect(encoded.status == 200)
            #expect(encoded.data == plain.data)
            #expect(ImageFormat.sniff(encoded.data) == .png)
            #expect(harness.proxy.statistics.outputCacheHits == 1, "the same output, from the output cache")
        }
    }

    @Test("an extended canvas is transparent in PNG and white in JPEG, with the image where its gravity puts it")
    func extendedCanvas() async throws {
        // A 400x200 image, left half red, right half blue, on a 400x400 canvas.
        let halves = try ProxyImages.halvesPNG(left: [255, 0, 0, 255], right: [0, 0, 255, 255])
        try await ProxyHarness.run(files: ["halves.png": halves]) { harness in
            let png = try await harness.get(harness.path("rs:fit:400:400/ex:1:no", origin: "/files/halves.png", ext: "png"))
            #expect(png.status == 200)
            let canvas = try ImageDecoderRegistry.allFormats.decodeImage(png.data, options: .default).bitmap
            #expect(canvas.size == PixelSize(width: 400, height: 400))
            // North: the image is at the top; below it the canvas is transparent.
            #expect(Self.pixel(canvas, 50, 100) == [255, 0, 0, 255])
            #expect(Self.pixel(canvas, 350, 100) == [0, 0, 255, 255])
            #expect(Self.pixel(canvas, 200, 300)[3] == 0)
            let jpeg = try await harness.get(harness.path("rs:fit:400:400/ex:1:so", origin: "/files/halves.png", ext: "jpg"))
            let flattened = try ImageDecoderRegistry.allFormats.decodeImage(jpeg.data, options: .default).bitmap
            #expect(Self.pixel(flattened, 200, 50).allSatisfy { $0 >= 250 }, "the canvas above the image is white")
            #expect(Self.pixel(flattened, 50, 300)[0] >= 240 && Self.pixel(flattened, 50, 300)[2] <= 15)
        }
    }

    @Test("bg fills what is transparent, canvases and padding with its colour; pd adds space around the result")
    func backgroundAndPadding() async throws {
        let halves = try ProxyImages.halvesPNG(left: [255, 0, 0, 255], right: [0, 0, 255, 255])
        try await ProxyHarness.run(files: ["halves.png": halves]) { harness in
            let extended = try await harness.get(harness.path("rs:fit:400:400/ex:1:no/bg:00ff00", origin: "/files/halves.png", ext: "png"))
            let canvas = try ImageDecoderRegistry.allFormats.decodeImage(extended.data, options: .default).bitmap
            #expect(Self.pixel(canvas, 200, 300) == [0, 255, 0, 255])
            #expect(Self.pixel(canvas, 50, 100) == [255, 0, 0, 255])
            let padded = try await harness.get(harness.path("rs:fit:100:100/pd:10:20/bg:0:0:0", origin: "/files/halves.png", ext: "png"))
            let framed = try ImageDecoderRegistry.allFormats.decodeImage(padded.data, options: .default).bitmap
            #expect(framed.size == PixelSize(width: 140, height: 70))
            #expect(Self.pixel(framed, 5, 5) == [0, 0, 0, 255])
            #expect(Self.pixel(framed, 30, 35) == [255, 0, 0, 255])
            let transparent = try await harness.get(harness.path("rs:fit:100:100/pd:10", origin: "/files/halves.png", ext: "png"))
            let clear = try ImageDecoderRegistry.allFormats.decodeImage(transparent.data, options: .default).bitmap
            #expect(Self.pixel(clear, 5, 5)[3] == 0, "without bg, padding is transparent")
        }
    }

    @Test("bl blurs, sh sharpens and pix pixelates the result")
    func filters() async throws {
        try await ProxyHarness.run(files: ["photo.jpg": try ProxyImages.photoJPEG()]) { harness in
            func image(_ options: String) async throws -> ImageBitmap {
                let answer = try await harness.get(harness.path("rs:fit:200:200/" + options, origin: "/files/photo.jpg", ext: "png"))
                #expect(answer.status == 200, "\(options)")
                return try ImageDecoderRegistry.allFormats.decodeImage(answer.data, options: .default).bitmap
            }
            // Detail: the mean difference between horizontal neighbours.
            func detail(_ bitmap: ImageBitmap) -> Double {
                bitmap.withUnsafeBytes { bytes in
                    var total = 0
                    for y in 0..<bitmap.height {
                        for x in 1..<bitmap.width {
                            total += abs(Int(bytes[y * bitmap.bytesPerRow + x * 4]) - Int(bytes[y * bitmap.bytesPerRow + (x - 1) * 4]))
                        }
                    }
                    return Double(total) / Double(bitmap.height * (bitmap.width - 1))
                }
            }
            let plain = detail(try await image("q:90"))
            #expect(detail(try await image("bl:3")) < plain * 0.7)
            #expect(detail(try await image("sh:1")) > plain * 1.1)
            let blocks = try await image("pix:10")
            #expect(blocks.size == PixelSize(width: 200, height: 150))
            #expect(Self.pixel(blocks, 0, 0) == Self.pixel(blocks, 9, 9))
            #expect(Self.pixel(blocks, 10, 0) == Self.pixel(blocks, 19, 9))
        }
    }

    @Test("t trims the borders before the box is met: the result is planned from what it keeps")
    func trim() async throws {
        let framed = try ProxyImages.framedPNG(block: PixelRect(x: 100, y: 50, width: 100, height: 100))
        try await ProxyHarness.run(files: ["framed.png": framed]) { harness in
            let trimmed = try await harness.get(harness.path("t:10/rs:fit:100:100", origin: "/files/framed.png", ext: "png"))
            let kept = try ImageDecoderRegistry.allFormats.decodeImage(trimmed.data, options: .default).bitmap
            #expect(kept.size == PixelSize(width: 100, height: 100))
            #expect(Self.pixel(kept, 0, 0) == [255, 0, 0, 255] && Self.pixel(kept, 99, 99) == [255, 0, 0, 255])
            let whole = try await harness.get(harness.path("rs:fit:100:100", origin: "/files/framed.png", ext: "png"))
            let untrimmed = try ImageDecoderRegistry.allFormats.decodeImage(whole.data, options: .default).bitmap
            #expect(untrimmed.size == PixelSize(width: 100, height: 50))
            #expect(Self.pixel(untrimmed, 0, 0) == [255, 255, 255, 255])
            let equal = try await harness.get(harness.path("t:10::1/rs:fit:400:400", origin: "/files/framed.png", ext: "png"))
            // Margins of 100 left and 200 right: 100 from each side leaves 200 by 100.
            #expect(try ProxyImages.size(of: equal.data) == PixelSize(width: 200, height: 100))
        }
    }

    @Test("mb writes a lossy output again at lower qualities until it fits")
    func maxBytes() async throws {
        try await ProxyHarness.run(files: ["photo.jpg": try ProxyImages.photoJPEG()]) { harness in
            for ext in ["jpg", "webp", "png"] {
                let full = try await harness.get(harness.path("rs:fit:300:300", origin: "/files/photo.jpg", ext: ext))
                let limit = full.data.count / 3
                let fitted = try await harness.get(harness.path("rs:fit:300:300/mb:\(limit)", origin: "/files/photo.jpg", ext: ext))
                #expect(try ProxyImages.size(of: fitted.data) == PixelSize(width: 300, height: 225))
                if ext == "png" {
                    #expect(fitted.data == full.data, "PNG is lossless: written once")
                } else {
                    #expect(fitted.data.count <= limit, "\(ext): \(fitted.data.count) of \(limit)")
                }
            }
        }
    }

    @Test("/info answers the source's format, size, frames, orientation, colour space, BlurHash and ThumbHash as JSON")
    func info() async throws {
        let photo = try ProxyImages.photoJPEG()
        try await ProxyHarness.run(files: ["photo.jpg": photo]) { harness in
            let source = harness.origin.url("/files/photo.jpg").absoluteString
            let answer = try await harness.get("/info/unsafe/plain/\(source)")
            #expect(answer.status == 200)
            #expect(answer.header("Content-Type") == "application/json")
            let fields = try #require(try JSONSerialization.jsonObject(with: answer.data) as? [String: Any])
            #expect(fields["format"] as? String == "jpeg")
            #expect(fields["width"] as? Int == 1600 && fields["height"] as? Int == 1200)
            #expect(fields["frames"] as? Int == 1 && fields["orientation"] as? Int == 1)
            #expect(fields["colorSpace"] as? String == "sRGB")
            // The hash of the source decoded to fit 64 pixels (a DCT-scaled decode).
            let small = try ImageDecoderRegistry.allFormats.decodeImage(
                photo, options: DecodeOptions(maxPixelSize: 64, firstFrameOnly: true))
            #expect(fields["blurhash"] as? String == (try BlurHashEncoder().encode(small.bitmap)))
            #expect(fields["thumbhash"] as? String == (try ThumbHashEncoder().encode(small.bitmap).base64EncodedString()))

            let sized = try await harness.get("/info/unsafe/bh:3:3/plain/\(source)")
            let sizedFields = try #require(try JSONSerialization.jsonObject(with: sized.data) as? [String: Any])
            #expect((sizedFields["blurhash"] as? String)?.count == 6 + 2 * 8)
            let none = try await harness.get("/info/unsafe/bh:0/plain/\(source)")
            #expect(try #require(try JSONSerialization.jsonObject(with: none.data) as? [String: Any])["blurhash"] == nil)
            #expect(fields["exif"] == nil, "the photo carries no EXIF")
            let noThumbHash = try await harness.get("/info/unsafe/th:0/plain/\(source)")
            #expect(try #require(try JSONSerialization.jsonObject(with: noThumbHash.data) as? [String: Any])["thumbhash"] == nil)
            let refused = try await harness.get("/info/unsafe/rs:fit:10:10/plain/\(source)")
            #expect(refused.status == 400)
            let small2 = try await harness.get("/info/unsafe/msr:0.5/plain/\(source)")
            #expect(small2.status == 422)
        }
    }

    @Test("/info answers the camera fields of the source's EXIF, and never its location")
    func infoExif() async throws {
        // A TIFF block: IFD0 with Make ("Canon") and a GPS pointer, its text after the IFD.
        let tiff: [UInt8] =
            [0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08, 0x00, 0x02]
            + [0x01, 0x0F, 0x00, 0x02, 0x00, 0x00, 0x00, 0x06, 0x00, 0x00, 0x00, 0x26]
            + [0x88, 0x25, 0x00, 0x04, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x08]
            + [0x00, 0x00, 0x00, 0x00] + Array("Canon\0".utf8)
        let segment = Array("Exif\0\0".utf8) + tiff
        let photo = try ProxyImages.photoJPEG(width: 320, height: 240)
        var tagged = Data([0xFF, 0xD8, 0xFF, 0xE1, 0x00, UInt8(segment.count + 2)])
        tagged.append(contentsOf: segment)
        tagged.append(photo.dropFirst(2))
        try await ProxyHarness.run(files: ["camera.jpg": tagged]) { harness in
            let source = harness.origin.url("/files/camera.jpg").absoluteString
            let answer = try await harness.get("/info/unsafe/plain/\(source)")
            let fields = try #require(try JSONSerialization.jsonObject(with: answer.data) as? [String: Any])
            #expect(fields["exif"] as? [String: String] == ["make": "Canon"])
        }
    }

    @Test("with client hints on, DPR and Width set dpr and the width below the URL's own options, and answers vary by them")
    func clientHints() async throws {
        var configuration = ProxyHarness.loopbackConfiguration()
        configuration.usesClientHints = true
        let hints = ["DPR": "2", "Sec-CH-Width": "600", "Accept": "*/*"]
        try await ProxyHarness.run(configuration: configuration, files: ["photo.jpg": try ProxyImages.photoJPEG()]) { harness in
            // Width 600 at a ratio of 2: a 300 box, drawn twice as large.
            let hinted = try await harness.get(harness.path("q:80", origin: "/files/photo.jpg", ext: "jpg"), headers: hints)
            #expect(try ProxyImages.size(of: hinted.data) == PixelSize(width: 600, height: 450))
            #expect(hinted.header("Vary") == "Sec-CH-DPR, DPR, Sec-CH-Width, Width")
            let overridden = try await harness.get(harness.path("w:100", origin: "/files/photo.jpg", ext: "jpg"), headers: hints)
            #expect(try ProxyImages.size(of: overridden.data) == PixelSize(width: 200, height: 150))
            let bad = try await harness.get(
                harness.path("w:100", origin: "/files/photo.jpg", ext: "jpg"), headers: ["DPR": "80", "Width": "-3"])
            #expect(try ProxyImages.size(of: bad.data) == PixelSize(width: 100, height: 75), "hints out of range are ignored")
        }
        try await ProxyHarness.run(files: ["photo.jpg": try ProxyImages.photoJPEG()]) { harness in
            let ignored = try await harness.get(harness.path("w:100", origin: "/files/photo.jpg", ext: "jpg"), headers: hints)
            #expect(try ProxyImages.size(of: ignored.data) == PixelSize(width: 100, height: 75), "off by default")
            #expect(ignored.header("Vary") == nil)
        }
    }

    static func pixel(_ bitmap: ImageBitmap, _ x: Int, _ y: Int) -> [UInt8] {
        bitmap.withUnsafeBytes { bytes in (0..<4).map { bytes[y * bitmap.bytesPerRow + x * 4 + $0] } }
    }

    @Test(
        "a JPEG made into a JPEG with nothing to cut is the library's planar thumbnail byte for byte; a cut or a gray source takes the RGBA path"
    )
    func jpegToJPEG() async throws {
        let photo = try ProxyImages.photoJPEG()
        let gray = try JPEGFixtureEncoder().encode(
            try ImageBitmap(width: 400, height: 300, pixelFormat: .gray8) { bytes, _ in
                for index in bytes.indices { bytes[index] = UInt8(index % 251) }
            })
        try await ProxyHarness.run(files: ["photo.jpg": photo, "gray.jpg": gray]) { harness in
            let fit = try await harness.get(harness.path("rs:fit:300:300/q:80", origin: "/files/photo.jpg", ext: "jpg"))
            let planar = try #require(PlanarJPEGThumbnailer(quality: 80).thumbnail(of: photo, size: PixelSize(width: 300, height: 225)))
            #expect(fit.status == 200)
            #expect(fit.data == planar)
            let fill = try await harness.get(harness.path("rs:fill:200:200/q:80", origin: "/files/photo.jpg", ext: "jpg"))
            #expect(try ProxyImages.size(of: fill.data) == PixelSize(width: 200, height: 200))
            let grayAnswer = try await harness.get(harness.path("rs:fit:100:100", origin: "/files/gray.jpg", ext: "jpg"))
            #expect(grayAnswer.status == 200)
            #expect(try ProxyImages.size(of: grayAnswer.data) == PixelSize(width: 100, height: 75))
        }
    }

    @Test("a fill keeps the edge its gravity names, and a smart fill the busy part")
    func gravity() async throws {
        let red: [UInt8] = [220, 20, 20]
        let blue: [UInt8] = [20, 20, 220]
        let files = [
            "halves.png": try ProxyImages.halvesPNG(left: red, right: blue),
            "band.png": try ProxyImages.busyBandPNG(busyColumns: 400..<600),
        ]
        try await ProxyHarness.run(files: files) { harness in
            let west = try await harness.get(harness.path("rs:fill:100:100/g:we", origin: "/files/halves.png", ext: "png"))
            let east = try await harness.get(harness.path("rs:fill:100:100/g:ea", origin: "/files/halves.png", ext: "png"))
            #expect(try ProxyImages.averageColour(of: west.data) == [220, 20, 20])
            #expect(try ProxyImages.averageColour(of: east.data) == [20, 20, 220])
            let centre = try await harness.get(harness.path("rs:fill:200:200/g:ce", origin: "/files/band.png", ext: "png"))
            let smart = try await harness.get(harness.path("rs:fill:200:200/g:sm", origin: "/files/band.png", ext: "png"))
            #expect(try ProxyImages.busyShare(of: centre.data) < 0.05)
            #expect(try ProxyImages.busyShare(of: smart.data) > 0.95)
        }
    }

    @Test("the format: named by f: or @ext, else WebP for an Accept that takes it (varying by Accept), else the source's")
    func formats() async throws {
        try await ProxyHarness.run(files: [
            "photo.jpg": try ProxyImages.photoJPEG(), "logo.png": try ProxyImages.halvesPNG(left: [0, 0, 0], right: [255, 255, 255]),
        ]) {
            harness in
            let named = try await harness.get(harness.path("rs:fit:64:64/f:png", origin: "/files/photo.jpg"))
            #expect(named.header("Content-Type") == "image/png")
            #expect(ImageFormat.sniff(named.data) == .png)
            #expect(named.header("Vary") == nil)
            let suffix = try await harness.get(harness.path("rs:fit:64:64", origin: "/files/photo.jpg", ext: "webp"))
            #expect(ImageFormat.sniff(suffix.data) == .webp)
            let browser = try await harness.get(
                harness.path("rs:fit:64:64", origin: "/files/photo.jpg"), headers: ["Accept": "image/avif,image/webp,*/*"])
            #expect(browser.header("Content-Type") == "image/webp")
            #expect(browser.header("Vary") == "Accept")
            let plain = try await harness.get(harness.path("rs:fit:64:64", origin: "/files/photo.jpg"), headers: ["Accept": "*/*"])
            #expect(ImageFormat.sniff(plain.data) == .jpeg)
            #expect(plain.header("Vary") == "Accept")
            let png = try await harness.get(harness.path("rs:fit:64:64", origin: "/files/logo.png"), headers: ["Accept": "image/webp;q=0"])
            #expect(ImageFormat.sniff(png.data) == .png)
        }
    }

    @Test("AVIF: named, or for an Accept that takes it when the server prefers it; its quality from q, fq or the default")
    func avifOutput() async throws {
        var configuration = ProxyHarness.loopbackConfiguration()
        configuration.prefersAVIF = true
        try await ProxyHarness.run(configuration: configuration, files: ["photo.jpg": try ProxyImages.photoJPEG()]) { harness in
            let named = try await harness.get(harness.path("rs:fit:300:300/f:avif", origin: "/files/photo.jpg"))
            #expect(named.status == 200)
            #expect(named.header("Content-Type") == "image/avif")
            #expect(ImageFormat.sniff(named.data) == .avif)
            #expect(try ProxyImages.size(of: named.data) == PixelSize(width: 300, height: 225))
            let browser = try await harness.get(
                harness.path("rs:fit:300:300", origin: "/files/photo.jpg"), headers: ["Accept": "image/avif,image/webp,*/*"])
            #expect(browser.header("Content-Type") == "image/avif")
            #expect(browser.header("Vary") == "Accept")
            #expect(browser.data == named.data, "the default quality either way")
            let webpOnly = try await harness.get(
                harness.path("rs:fit:300:300", origin: "/files/photo.jpg"), headers: ["Accept": "image/webp,*/*"])
            #expect(webpOnly.header("Content-Type") == "image/webp")
            // A lower quality, by q or by the format's own fq, makes a smaller file; a
            // format's fq does not touch another format.
            let low = try await harness.get(harness.path("rs:fit:300:300/q:20/f:avif", origin: "/files/photo.jpg"))
            let lowByFormat = try await harness.get(harness.path("rs:fit:300:300/fq:avif:20/f:avif", origin: "/files/photo.jpg"))
            let otherFormat = try await harness.get(harness.path("rs:fit:300:300/fq:jpeg:20/f:avif", origin: "/files/photo.jpg"))
            #expect(low.data.count < named.data.count)
            #expect(lowByFormat.data == low.data)
            #expect(otherFormat.data == named.data)
        }
    }

    @Test("signed URLs are served, and a wrong, missing or expired signature gets 403")
    func signatures() async throws {
        let signer = URLSigner(key: Data("secret key".utf8), salt: Data("salt".utf8))
        var configuration = ProxyHarness.loopbackConfiguration()
        configuration.signer = signer
        try await ProxyHarness.run(configuration: configuration, files: ["photo.jpg": try ProxyImages.photoJPEG()]) { harness in
            let signedPath = harness.signedPath("rs:fit:100:100", origin: "/files/photo.jpg")
            let good = try await harness.get(signer.sign(signedPath))
            #expect(good.status == 200)
            let other = URLSigner(key: Data("another key".utf8), salt: Data("salt".utf8))
            #expect(try await harness.get(other.sign(signedPath)).status == 403)
            #expect(try await harness.get("/unsafe" + signedPath).status == 403)
            // The signature covers the options: changing them after signing is refused.
            let signature = signer.signature(for: signedPath)
            let tampered = "/\(signature)" + harness.signedPath("rs:fit:2000:2000", origin: "/files/photo.jpg")
            #expect(try await harness.get(tampered).status == 403)
            let past = Int(Date().timeIntervalSince1970) - 60
            let expired = try await harness.get(signer.sign(harness.signedPath("exp:\(past)/rs:fit:100:100", origin: "/files/photo.jpg")))
            #expect(expired.status == 403)
            #expect(String(decoding: expired.data, as: UTF8.self).contains("expired"))
            let future = Int(Date().timeIntervalSince1970) + 3600
            let valid = try await harness.get(signer.sign(harness.signedPath("exp:\(future)/rs:fit:100:100", origin: "/files/photo.jpg")))
            #expect(valid.status == 200)
        }
    }

    @Test("an image carries a strong ETag and Cache-Control, and If-None-Match with it gets 304")
    func conditional() async throws {
        try await ProxyHarness.run(files: ["photo.jpg": try ProxyImages.photoJPEG()]) { harness in
            let path = harness.path("rs:fit:120:120", origin: "/files/photo.jpg", ext: "jpeg")
            let first = try await harness.get(path)
            let tag = try #require(first.header("ETag"))
            #expect(tag.hasPrefix("\"") && !tag.hasPrefix("W/"))
            #expect(first.header("Cache-Control") == "public, max-age=31536000")
            #expect(first.header("Content-Length") == String(first.data.count))
            let again = try await harness.get(path, headers: ["If-None-Match": "\"other\", \(tag)"])
            #expect(again.status == 304)
            #expect(again.data.isEmpty)
            #expect(again.header("ETag") == tag)
            let changed = try await harness.get(path, headers: ["If-None-Match": "\"other\""])
            #expect(changed.status == 200)
            #expect(changed.data == first.data)
        }
    }

    @Test("each failure has its status and one line saying why")
    func errorStatuses() async throws {
        var configuration = ProxyHarness.loopbackConfiguration()
        configuration.limits.maxBytes = 100_000
        configuration.sourceTimeout = .milliseconds(1500)
        let files = ["photo.jpg": try ProxyImages.photoJPEG(), "large.jpg": try ProxyImages.photoJPEG(width: 2000, height: 1500)]
        try await ProxyHarness.run(configuration: configuration, files: files) { harness in
            let cases: [(String, Int, String)] = [
                (harness.path("rs:bogus:1:1", origin: "/files/photo.jpg"), 400, "resizing type"),
                (harness.path("zz:1", origin: "/files/photo.jpg"), 400, "unknown option"),
                ("/unsafe/rs:fit:10:10/nothing-plain", 400, "/plain/"),
                (harness.path("rs:fit:10:10", origin: "/files/missing.jpg"), 404, "404"),
                (harness.path("rs:fit:10:10", origin: "/bytes/2000"), 415, "not an image"),
                (harness.path("rs:fit:10:10", origin: "/files/large.jpg"), 422, "byte limit"),
                (harness.path("rs:fit:10:10", origin: "/status/500"), 502, "500"),
                (harness.path("rs:fit:10:10", origin: "/slow-first-byte?ms=6000"), 504, "too long"),
            ]
            for (path, status, words) in cases {
                let answer = try await harness.get(path)
                let body = String(decoding: answer.data, as: UTF8.self)
                #expect(answer.status == status, "\(path): \(body)")
                #expect(body.contains(words), "\(path): \(body)")
                #expect(body.hasSuffix("\n") && body.dropLast().contains("\n") == false)
                #expect(answer.header("Content-Type") == "text/plain; charset=utf-8")
            }
        }
    }

    @Test("a result over the limits, or one that would grow the source, is refused from the URL and the header alone")
    func resultLimits() async throws {
        try await ProxyHarness.run(files: ["photo.jpg": try ProxyImages.photoJPEG()]) { harness in
            let cases: [(String, String)] = [
                // A canvas of 1000 x 100 a side.
                ("rs:fit:1000:1000/z:100/ex:1", "16383 pixels a side"),
                ("rs:fit:8000:8000/ex:1", "50000000 pixels"),
                ("mrd:200/rs:fit:300:300", "200 pixels a side"),
                ("msfs:1000/rs:fit:10:10", "over the limit of 1000"),
                ("msr:0.5/rs:fit:10:10", "over the limit of 500000 pixels"),
                ("maf:1/rs:fit:10:10/mrd:16000/msr:100", ""),
            ]
            for (options, words) in cases {
                let answer = try await harness.get(harness.path(options, origin: "/files/photo.jpg"))
                let body = String(decoding: answer.data, as: UTF8.self)
                if words.isEmpty {
                    #expect(answer.status == 200, "limits above the source's and the server's change nothing: \(body)")
                } else {
                    #expect(answer.status == 422, "\(options): \(body)")
                    #expect(body.contains(words), "\(options): \(body)")
                }
            }
            #expect(harness.proxy.statistics.renders == 1, "only the last was rendered")
        }
    }

    @Test("a full processing queue answers 429 with Retry-After instead of growing", .timeLimit(.minutes(2)))
    func busy() async throws {
        var configuration = ProxyHarness.loopbackConfiguration()
        configuration.concurrency = 1
        configuration.queueCapacity = 1
        configuration.retryAfterSeconds = 3
        // The held source waits at its gate for as long as the test needs, however slow the run.
        configuration.sourceTimeout = .seconds(120)
        try await ProxyHarness.run(configuration: configuration, files: ["photo.jpg": try ProxyImages.photoJPEG(width: 64, height: 48)]) {
            harness in
            let queueChanged = EventSignal()
            let watching = harness.proxy.queue.slots.observeChanges(queueChanged.callback)
            defer { watching.remove() }
            // The first render holds the one slot while its source waits at a gate; the
            // second output waits in the one place of the queue; the third is refused.
            let held = Task { try await harness.get(harness.path("rs:fit:10:10", origin: "/gate/held?bytes=1000&first=10")) }
            await harness.origin.requestsArrived(1)
            let waiting = Task { try await harness.get(harness.path("rs:fit:20:20", origin: "/files/photo.jpg")) }
            await queueChanged.wait { harness.proxy.queueLoad.waiting == 1 }
            let refused = try await harness.get(harness.path("rs:fit:30:30", origin: "/files/photo.jpg"))
            #expect(refused.status == 429)
            #expect(refused.header("Retry-After") == "3")
            harness.origin.openGate("held")
            #expect(try await held.value.status == 415)  // pattern bytes: not an image
            #expect(try await waiting.value.status == 200)
            #expect(harness.proxy.statistics.refusedBusy == 1)
        }
    }

    @Test("100 identical concurrent requests make one source fetch and one render")
    func coalescing() async throws {
        try await ProxyHarness.run(files: ["photo.jpg": try ProxyImages.photoJPEG()]) { harness in
            let path = harness.path("rs:fill:300:300/q:80", origin: "/files/photo.jpg", ext: "jpeg")
            let answers = try await withThrowingTaskGroup(of: ProxyAnswer.self) { group in
                for _ in 0..<100 { group.addTask { try await harness.get(path) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.allSatisfy { $0.status == 200 })
            #expect(Set(answers.map(\.data)).count == 1)
            #expect(harness.originRequests(for: "/files/photo.jpg") == 1)
            let statistics = harness.proxy.statistics
            #expect(statistics.renders == 1)
            #expect(statistics.coalesced + statistics.outputCacheHits == 99)
        }
    }

    @Test("a decompression bomb gets 422 from its header check, before any decoder or the memory budget is involved")
    func decompressionBomb() async throws {
        let budget = MemoryBudget(capacity: 64 << 20)
        var configuration = ProxyHarness.loopbackConfiguration()
        configuration.memoryBudget = budget
        // A real 64x64 PNG whose IHDR claims 30,000 x 30,000 (3.6 GB of RGBA): 600 bytes.
        var bomb = [UInt8](try ProxyImages.halvesPNG(width: 64, height: 64, left: [1, 2, 3], right: [4, 5, 6]))
        for (offset, value) in [(16, UInt32(30_000)), (20, UInt32(30_000))] {
            for byte in 0..<4 { bomb[offset + byte] = UInt8(truncatingIfNeeded: value >> (8 * (3 - byte))) }
        }
        try await ProxyHarness.run(configuration: configuration, files: ["bomb.png": Data(bomb)]) { harness in
            let answer = try await harness.get(harness.path("rs:fit:100:100", origin: "/files/bomb.png"))
            #expect(answer.status == 422)
            // Refused by the header check (the limit named), before any decoder ran.
            let body = String(decoding: answer.data, as: UTF8.self)
            #expect(body.contains("30000x30000") && body.contains("over the limit of 50000000 pixels"), "\(body)")
            #expect(budget.inUse == 0 && budget.waiting == 0)
        }
    }

    @Test("by default the URL policy refuses a loopback source, and no connection is made")
    func loopbackRefused() async throws {
        try await ProxyHarness.run(configuration: ImageProxy.Configuration(), files: ["photo.jpg": try ProxyImages.photoJPEG()]) {
            harness in
            let answer = try await harness.get(harness.path("rs:fit:10:10", origin: "/files/photo.jpg"))
            #expect(answer.status == 403)
            #expect(String(decoding: answer.data, as: UTF8.self).contains("refused"))
            #expect(harness.originRequests(for: "/files/photo.jpg") == 0)
        }
    }

    @Test("presets expand where they stand, and a presets-only proxy refuses anything else")
    func presets() async throws {
        var configuration = ProxyHarness.loopbackConfiguration()
        configuration.presets = [try ProxyPreset(parsing: "thumb=rs:fill:64:64/f:png")]
        configuration.presetsOnly = true
        try await ProxyHarness.run(configuration: configuration, files: ["photo.jpg": try ProxyImages.photoJPEG()]) { harness in
            let named = try await harness.get(harness.path("pr:thumb", origin: "/files/photo.jpg"))
            #expect(named.status == 200)
            #expect(try ProxyImages.size(of: named.data) == PixelSize(width: 64, height: 64))
            #expect(ImageFormat.sniff(named.data) == .png)
            let bare = try await harness.get(harness.path("thumb", origin: "/files/photo.jpg"))
            #expect(bare.data == named.data)
            #expect(try await harness.get(harness.path("rs:fit:10:10", origin: "/files/photo.jpg")).status == 400)
            #expect(try await harness.get(harness.path("pr:nope", origin: "/files/photo.jpg")).status == 400)
            let future = Int(Date().timeIntervalSince1970) + 3600
            #expect(try await harness.get(harness.path("exp:\(future)/pr:thumb", origin: "/files/photo.jpg")).status == 200)
        }
    }
}
