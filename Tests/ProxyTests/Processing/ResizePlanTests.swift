import Testing
import WebImageCore

@testable import WebImageProxy

/// The geometry of imgproxy's processing options, case by case. Each expectation is
/// derived by hand from imgproxy's rules (its `calcScale`, `calcSizes`, `calcPosition`
/// and `CalcCropSize`), with the arithmetic in the comment:
/// - shrink = source / box per side; fit takes the larger, fill and fill-down the smaller;
///   a free side follows the other; force keeps each (a free side keeps the source's);
/// - without enlarging, a shrink below 1 is divided out of both sides, and the pixel
///   ratio is cut to what the source allows;
/// - a size is side / shrink rounded half away from zero; a position is rounded half to
///   even: a centred cut of an odd spare (n + 1) / 2 lands on the even neighbour.
/// The expected text reads: `scaled WxH`, then `src WxH@x,y` (a cut of the source),
/// `cut WxH@x,y` (of the scaled image; `@smart` when placed by content), `canvas WxH@x,y`
/// (the image's place on it), and `out WxH`.
@Suite("Resize plans: imgproxy's geometry")
struct ResizePlanTests {
    static let landscape = PixelSize(width: 1600, height: 1200)
    static let portrait = PixelSize(width: 1200, height: 1600)
    static let small = PixelSize(width: 300, height: 200)
    static let odd = PixelSize(width: 1001, height: 667)

    @Test(
        "sizes, cuts and canvases",
        arguments: [
            // 1600/300 = 5.33, 1200/300 = 4: fit takes 5.33; 1200/5.33 = 225.
            (landscape, "rs:fit:300:300", "scaled 300x225 out 300x225"),
            // 5.33 and 12: 12; 1600/12 = 133.3.
            (landscape, "rs:fit:300:100", "scaled 133x100 out 133x100"),
            // fill takes 5.33: 300x225; the cut's top is (225 - 100 + 1) / 2 = 63.
            (landscape, "rs:fill:300:100", "scaled 300x225 cut 300x100@0,63 out 300x100"),
            // 16 and 4: 4 gives 400x300; left (400 - 100 + 1) / 2 = 150.5, to even 150.
            (landscape, "rs:fill:100:300", "scaled 400x300 cut 100x300@150,0 out 100x300"),
            // force with a free height keeps the source's height.
            (landscape, "rs:force:300:0", "scaled 300x1200 out 300x1200"),
            (landscape, "rs:force:300:200", "scaled 300x200 out 300x200"),
            (landscape, "rs:force:0:0", "scaled 1600x1200 out 1600x1200"),
            (landscape, "rs:fit:0:0", "scaled 1600x1200 out 1600x1200"),
            // A free height follows the width: shrink 10.
            (landscape, "w:160", "scaled 160x120 out 160x120"),
            // 1200/90 = 13.33 both ways: 1600/13.33 = 120.
            (landscape, "h:90", "scaled 120x90 out 120x90"),
            (landscape, "s:160:120", "scaled 160x120 out 160x120"),
            // Shrink 0.4 without enlarging: divided out, the source's size.
            (landscape, "rs:fit:4000:4000", "scaled 1600x1200 out 1600x1200"),
            // fill 400x400: shrink min(4, 3) = 3, 1600/3 = 533.3 -> 533x400; centred left
            // (533 - 400 + 1) / 2 = 67.
            (landscape, "rs:fill:400:400", "scaled 533x400 cut 400x400@67,0 out 400x400"),
            (landscape, "rs:fill:400:400/g:no", "scaled 533x400 cut 400x400@67,0 out 400x400"),
            (landscape, "rs:fill:400:400/g:we", "scaled 533x400 cut 400x400@0,0 out 400x400"),
            // East: 533 - 400 = 133.
            (landscape, "rs:fill:400:400/g:ea", "scaled 533x400 cut 400x400@133,0 out 400x400"),
            // An offset of 10 px from the east edge: 133 - 10.
            (landscape, "rs:fill:400:400/g:ea:10", "scaled 533x400 cut 400x400@123,0 out 400x400"),
            // A fraction from the west edge: 533 x 0.1 = 53.3 -> 53.
            (landscape, "rs:fill:400:400/g:we:0.1", "scaled 533x400 cut 400x400@53,0 out 400x400"),
            // An offset past the edge is held inside: 67 - 1000 -> 0.
            (landscape, "rs:fill:400:400/g:ce:-1000", "scaled 533x400 cut 400x400@0,0 out 400x400"),
            // Focus at 0.5: 533 x 0.5 = 266.5, to even 266; 266 - 200 = 66 (centre gives 67).
            (landscape, "rs:fill:400:400/g:fp:0.5:0.5", "scaled 533x400 cut 400x400@66,0 out 400x400"),
            // Focus at 0.9: 479.7 -> 480; 480 - 200 = 280, held at 133.
            (landscape, "rs:fill:400:400/g:fp:0.9:0.5", "scaled 533x400 cut 400x400@133,0 out 400x400"),
            (landscape, "rs:fill:400:400/g:sm", "scaled 533x400 cut 400x400@smart out 400x400"),
            // Portrait: shrink min(3, 4) = 3 -> 400x533; top (533 - 400 + 1) / 2 = 67.
            (portrait, "rs:fill:400:400", "scaled 400x533 cut 400x400@0,67 out 400x400"),
            (portrait, "rs:fill:400:400/g:nowe", "scaled 400x533 cut 400x400@0,0 out 400x400"),
            (portrait, "rs:fill:400:400/g:soea", "scaled 400x533 cut 400x400@0,133 out 400x400"),
            // The first offset is x: south with x 0.1 moves nothing vertically, and
            // sideways the cut already spans the width.
            (portrait, "rs:fill:400:400/g:so:0.1", "scaled 400x533 cut 400x400@0,133 out 400x400"),
            // y 0.1 of 533 = 53.3 -> 53 up from the bottom: 533 - 400 - 53 = 80.
            (portrait, "rs:fill:400:400/g:so:0:0.1", "scaled 400x533 cut 400x400@0,80 out 400x400"),
            // auto: a landscape source in a square box fills: 400x300, left 50.5 -> 50.
            (landscape, "rs:auto:300:300", "scaled 400x300 cut 300x300@50,0 out 300x300"),
            // A portrait source in a square box fits: max(4, 5.33).
            (portrait, "rs:auto:300:300", "scaled 225x300 out 225x300"),
            // A landscape source in a portrait box fits: max(8, 4).
            (landscape, "rs:auto:200:300", "scaled 200x150 out 200x150"),
            // fill of a small source: nothing grows, nothing is cut.
            (small, "rs:fill:400:400", "scaled 300x200 out 300x200"),
            // fill-down: cut to the box's aspect ratio: 200 x 400/400 = 200 wide;
            // left (300 - 200 + 1) / 2 = 50.5 -> 50.
            (small, "rs:fill-down:400:400", "scaled 300x200 cut 200x200@50,0 out 200x200"),
            // The height matches (shrink 1): min(0.75, 1) = 0.75 for both, divided out:
            // the source's size. fill leaves it; fill-down cuts it to 2:1, 300 x 0.5 =
            // 150 high, top (200 - 150 + 1) / 2 = 25.5 -> 26.
            (small, "rs:fill:400:200", "scaled 300x200 out 300x200"),
            (small, "rs:fill-down:400:200", "scaled 300x200 cut 300x150@0,26 out 300x150"),
            // zoom 2 halves the shrink: 2.67 -> 600x450.
            (landscape, "rs:fit:300:300/z:2", "scaled 600x450 out 600x450"),
            (landscape, "rs:fit:300:300/z:2:1", "scaled 600x225 out 600x225"),
            // A pixel ratio of 2: shrink 5.33 / 2.
            (landscape, "rs:fit:300:300/dpr:2", "scaled 600x450 out 600x450"),
            // A ratio the source cannot give: cut to min(3, 1.5), the source's size.
            (small, "rs:fit:200:200/dpr:3", "scaled 300x200 out 300x200"),
            // min-width 400: shrink 1600/400 = 4 < 5.33 -> 400x300, then cut to the
            // 300x300 box: left (400 - 300 + 1) / 2 = 50.5 -> 50.
            (landscape, "rs:fit:300:300/mw:400", "scaled 400x300 cut 300x300@50,0 out 300x300"),
            // min-height 300 with a free height: shrink 4 -> 400x300, cut to 300 wide.
            (landscape, "rs:fit:300:0/mh:300", "scaled 400x300 cut 300x300@50,0 out 300x300"),
            (landscape, "w:300/mw:200", "scaled 300x225 out 300x225"),
            // crop 800x600, centred: (1600 - 800 + 1) / 2 = 400.5 -> 400; 300.5 -> 300.
            (landscape, "c:800:600", "scaled 800x600 src 800x600@400,300 out 800x600"),
            // crop by fractions: 1600 x 0.5 = 800; then fit 200: shrink 4.
            (landscape, "c:0.5:0.5/rs:fit:200:200", "scaled 200x150 src 800x600@400,300 out 200x150"),
            (landscape, "c:400:400:nowe", "scaled 400x400 src 400x400@0,0 out 400x400"),
            // The crop follows the main gravity unless it names its own.
            (landscape, "c:400:400/g:soea", "scaled 400x400 src 400x400@1200,800 out 400x400"),
            (landscape, "g:soea/c:400:400:ce", "scaled 400x400 src 400x400@600,400 out 400x400"),
            // A crop wider than the source keeps the width: (1200 - 100 + 1) / 2 = 550.5 -> 550.
            (landscape, "c:2000:100", "scaled 1600x100 src 1600x100@0,550 out 1600x100"),
            (landscape, "c:0:300", "scaled 1600x300 src 1600x300@0,450 out 1600x300"),
            // extend: 300x200 on 400x400, centred: 50.5 -> 50, 100.5 -> 100.
            (small, "rs:fit:400:400/ex:1", "scaled 300x200 canvas 400x400@50,100 out 400x400"),
            (small, "rs:fit:400:400/ex:1:no", "scaled 300x200 canvas 400x400@50,0 out 400x400"),
            (small, "rs:fit:400:400/ex:1:soea", "scaled 300x200 canvas 400x400@100,200 out 400x400"),
            (small, "rs:fit:400:400/ex:1:we:10", "scaled 300x200 canvas 400x400@10,100 out 400x400"),
            (small, "rs:fit:600:600:0:1", "scaled 300x200 canvas 600x600@150,200 out 600x600"),
            (small, "s:600:600:0:1:so", "scaled 300x200 canvas 600x600@150,400 out 600x600"),
            // extend with a pixel ratio: min(2, 1.5) = 1.5, box 300x300; top 50.5 -> 50.
            (small, "rs:fit:200:200/dpr:2/ex:1", "scaled 300x200 canvas 300x300@0,50 out 300x300"),
            // A fill already is the box: no canvas.
            (landscape, "rs:fill:400:200/ex:1", "scaled 400x300 cut 400x200@0,50 out 400x200"),
            // extend to the box's aspect ratio: 300x200 in a square: 300x300, top 50.5 -> 50.
            (small, "rs:fit:400:400/exar:1", "scaled 300x200 canvas 300x300@0,50 out 300x300"),
            // 300x200 in a 600x300 box: 2:1 -> 400x200, left 50.5 -> 50.
            (small, "rs:fit:600:300/exar:1", "scaled 300x200 canvas 400x200@50,0 out 400x200"),
            (landscape, "rs:fit:300:300/exar:1:no", "scaled 300x225 canvas 300x300@0,0 out 300x300"),
            // Padding, CSS's order, after every canvas.
            (small, "rs:fit:400:400/pd:10", "scaled 300x200 canvas 320x220@10,10 out 320x220"),
            (small, "pd:10:20", "scaled 300x200 canvas 340x220@20,10 out 340x220"),
            (small, "pd:1:2:3:4", "scaled 300x200 canvas 306x204@4,1 out 306x204"),
            (small, "pd:0", "scaled 300x200 out 300x200"),
            (small, "rs:fit:400:400/ex:1/pd:5", "scaled 300x200 canvas 400x400@50,100 canvas 410x410@5,5 out 410x410"),
            // Padding scales with the pixel ratio: 300x200 in 100 x 1.5 -> 150x100; 3 x 1.5
            // = 4.5, to even 4.
            (small, "rs:fit:100:100/dpr:1.5/pd:3", "scaled 150x100 canvas 158x108@4,4 out 158x108"),
            // Odd sizes: 1001/333 = 3.006 -> 333 x 221.9 = 333x222.
            (odd, "rs:fit:333:333", "scaled 333x222 out 333x222"),
            // fill: 667/333 = 2.003 -> 499.75 = 500 wide; left (500 - 333 + 1) / 2 = 84.
            (odd, "rs:fill:333:333", "scaled 500x333 cut 333x333@84,0 out 333x333"),
            (odd, "rs:force:100:50", "scaled 100x50 out 100x50"),
            (odd, "w:500", "scaled 500x333 out 500x333"),
            // resize with empty arguments leaves the others as set.
            (landscape, "w:300/rs:fill::100", "scaled 300x225 cut 300x100@0,63 out 300x100"),
            (landscape, "rs:fill:300:100/rt:fit", "scaled 133x100 out 133x100"),
        ])
    func geometry(source: PixelSize, options: String, expected: String) throws {
        var parsed = ProcessingOptions()
        for segment in options.split(separator: "/") {
            try OptionParser.apply(String(segment), to: &parsed, presets: [:], depth: 0)
        }
        #expect(Self.describe(ResizePlan(source: source, options: parsed)) == expected)
    }

    @Test(
        "enlarging grows a small source to the box",
        arguments: [
            // Shrink 0.4 kept: 4000x3000.
            (landscape, ProcessingOptions.ResizeMode.fit, 4000, 4000, "scaled 4000x3000 out 4000x3000"),
            // A shrink above 1 is not affected.
            (landscape, .fit, 300, 300, "scaled 300x225 out 300x225"),
            // fit 600 of 300x200 grows by 2.
            (small, .fit, 600, 600, "scaled 600x400 out 600x400"),
            // fill 600 grows by 3: 900x600, left (900 - 600 + 1) / 2 = 150.5 -> 150.
            (small, .fill, 600, 600, "scaled 900x600 cut 600x600@150,0 out 600x600"),
            (small, .force, 600, 100, "scaled 600x100 out 600x100"),
        ])
    func enlarging(source: PixelSize, mode: ProcessingOptions.ResizeMode, width: Int, height: Int, expected: String) throws {
        var options = ProcessingOptions()
        try OptionParser.apply("rs:\(mode.rawValue):\(width):\(height):1", to: &options, presets: [:], depth: 0)
        #expect(options.enlarge)
        #expect(Self.describe(ResizePlan(source: source, options: options)) == expected)
    }

    @Test(
        "arguments imgproxy would read differently are refused",
        arguments: [
            "g:sm:1", "g:fp:2:0.5", "g:fp:0.5", "g:up", "ex:maybe", "ex:1:sm", "rt:cover", "z:0", "dpr:-1", "c:-1", "w:-5", "el:yes",
            "rs:fit:10:10:maybe",
        ])
    func refused(option: String) {
        var options = ProcessingOptions()
        #expect(throws: ProxyError.self) { try OptionParser.apply(option, to: &options, presets: [:], depth: 0) }
    }

    @Test(
        "the decode is never smaller than the scaled size",
        arguments: [
            (PixelSize(width: 1001, height: 667), 333), (PixelSize(width: 997, height: 1999), 101),
            (PixelSize(width: 3, height: 1000), 7), (landscape, 300),
        ])
    func decodeSize(source: PixelSize, box: Int) {
        for mode in ProcessingOptions.ResizeMode.allCases {
            let plan = ResizePlan(source: source, options: ProcessingOptions(resizeMode: mode, width: box, height: box))
            let decoded = plan.decodePixelSize.map { DecodeOptions(maxPixelSize: $0).targetSize(for: source) } ?? source
            #expect(decoded.width >= plan.scaledSize.width && decoded.height >= plan.scaledSize.height, "\(mode)")
        }
    }

    @Test("a cut of the source is decoded at full size: it is placed in the source's own pixels")
    func cutDecodesFull() throws {
        var options = ProcessingOptions(resizeMode: .fit, width: 100, height: 100)
        options.crop = ProcessingOptions.Crop(width: 800, height: 600)
        #expect(ResizePlan(source: Self.landscape, options: options).decodePixelSize == nil)
        options.crop = nil
        #expect(ResizePlan(source: Self.landscape, options: options).decodePixelSize == 100)
    }

    static func describe(_ plan: ResizePlan) -> String {
        func size(_ size: PixelSize) -> String { "\(size.width)x\(size.height)" }
        func place(_ point: PixelPoint?) -> String { point.map { "@\($0.x),\($0.y)" } ?? "@smart" }
        var parts = ["scaled \(size(plan.scaledSize))"]
        if let cut = plan.sourceCut { parts.append("src \(size(cut.size))\(place(cut.origin))") }
        if let cut = plan.resultCut { parts.append("cut \(size(cut.size))\(place(cut.origin))") }
        for canvas in plan.canvases { parts.append("canvas \(size(canvas.size))\(place(canvas.origin))") }
        parts.append("out \(size(plan.outputSize))")
        return parts.joined(separator: " ")
    }
}
