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
    static let square = PixelSize(width: 1000, height: 1000)
    static let panorama = PixelSize(width: 4000, height: 500)
    static let tall = PixelSize(width: 100, height: 1000)

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
        #expect(try Self.plan(source, options) == expected)
    }

    @Test(
        "squares, panoramas and tall strips",
        arguments: [
            // Square: 3.33 and 5; fit takes 5.
            (square, "rs:fit:300:200", "scaled 200x200 out 200x200"),
            // fill takes 3.33: 300x300; top (300 - 200 + 1) / 2 = 50.5, to even 50.
            (square, "rs:fill:300:200", "scaled 300x300 cut 300x200@0,50 out 300x200"),
            (square, "rs:force:300:200", "scaled 300x200 out 300x200"),
            // auto: a square counts as landscape (0 >= 0); a landscape box fills.
            (square, "rs:auto:300:200", "scaled 300x300 cut 300x200@0,50 out 300x200"),
            // A portrait box fits: max(5, 3.33).
            (square, "rs:auto:200:300", "scaled 200x200 out 200x200"),
            // fill-down shrinking is a fill: the scaled image covers the box on both sides.
            (square, "rs:fill-down:300:200", "scaled 300x300 cut 300x200@0,50 out 300x200"),
            // A box past the source: shrink 0.5, divided out; the cut is held to the image,
            // which it then covers: nothing is cut.
            (square, "rs:fill:2000:1000", "scaled 1000x1000 out 1000x1000"),
            // fill-down cuts to 2:1: 1000 x 1000/2000 = 500 high, top (1000 - 500 + 1) / 2
            // = 250.5, to even 250.
            (square, "rs:fill-down:2000:1000", "scaled 1000x1000 cut 1000x500@0,250 out 1000x500"),
            (square, "w:250", "scaled 250x250 out 250x250"),
            // 1000/333 = 3.003 both ways: 333.
            (square, "h:333", "scaled 333x333 out 333x333"),
            // zoom 0.5 doubles the shrink: 6.67 -> 150.
            (square, "rs:fit:300:300/z:0.5", "scaled 150x150 out 150x150"),
            // The fill is the box exactly: a focus point has nothing to move.
            (square, "rs:fill:300:300/g:fp:0.25:0.75", "scaled 300x300 out 300x300"),
            // Panorama 4000x500: fit max(5, 0.625) = 5.
            (panorama, "rs:fit:800:800", "scaled 800x100 out 800x100"),
            // fill min(5, 0.625) = 0.625, divided out: the source; the cut is held to its
            // 500 rows: left (4000 - 800 + 1) / 2 = 1600.5, to even 1600.
            (panorama, "rs:fill:800:800", "scaled 4000x500 cut 800x500@1600,0 out 800x500"),
            // min(10, 5) = 5: 800x100; left (800 - 400 + 1) / 2 = 200.5 -> 200.
            (panorama, "rs:fill:400:100", "scaled 800x100 cut 400x100@200,0 out 400x100"),
            (panorama, "rs:fill:400:100/g:ea", "scaled 800x100 cut 400x100@400,0 out 400x100"),
            (panorama, "rs:fill:400:100/g:we:50", "scaled 800x100 cut 400x100@50,0 out 400x100"),
            // A quarter of the scaled width (200) in from the east edge: 400 - 200.
            (panorama, "rs:fill:400:100/g:ea:0.25", "scaled 800x100 cut 400x100@200,0 out 400x100"),
            // dpr 2 (within min(5, 5)): shrink 2.5 -> 1600x200, box 800x200; left 400.5 -> 400.
            (panorama, "rs:fill:400:100/dpr:2", "scaled 1600x200 cut 800x200@400,0 out 800x200"),
            // auto: landscape source, landscape box: fill.
            (panorama, "rs:auto:400:100", "scaled 800x100 cut 400x100@200,0 out 400x100"),
            // A portrait box fits: max(40, 1.25); 500/40 = 12.5, half away from zero: 13.
            (panorama, "rs:auto:100:400", "scaled 100x13 out 100x13"),
            (panorama, "w:1000", "scaled 1000x125 out 1000x125"),
            (panorama, "h:50", "scaled 400x50 out 400x50"),
            // A free height follows the width (4); min-height 200 wants 2.5: both become
            // 2.5 -> 1600x200; cut to the box's 1000 wide: left 300.5 -> 300.
            (panorama, "rs:fit:1000:0/mh:200", "scaled 1600x200 cut 1000x200@300,0 out 1000x200"),
            // A crop as high as the source cuts only the width: left 1500.5 -> 1500.
            (panorama, "c:1000:500", "scaled 1000x500 src 1000x500@1500,0 out 1000x500"),
            // A quarter of the width (1000), the whole height; then fit 500: max(2, 1).
            (panorama, "c:0.25:0/rs:fit:500:500", "scaled 500x250 src 1000x500@1500,0 out 500x250"),
            // Tall 100x1000: fit max(2, 20) = 20.
            (tall, "rs:fit:50:50", "scaled 5x50 out 5x50"),
            // fill min(2, 20) = 2: 50x500; top (500 - 50 + 1) / 2 = 225.5, to even 226.
            (tall, "rs:fill:50:50", "scaled 50x500 cut 50x50@0,226 out 50x50"),
            (tall, "rs:fill:50:50/g:so", "scaled 50x500 cut 50x50@0,450 out 50x50"),
            (tall, "rs:fill:50:50/g:no:0:10", "scaled 50x500 cut 50x50@0,10 out 50x50"),
            // Focus y 0.1 of 500 = 50; 50 - 25 = 25.
            (tall, "rs:fill:50:50/g:fp:0.5:0.1", "scaled 50x500 cut 50x50@0,25 out 50x50"),
            // Focus at the top edge: 0 - 25, held at 0.
            (tall, "rs:fill:50:50/g:fp:0.5:0", "scaled 50x500 cut 50x50@0,0 out 50x50"),
            // fit max(0.1, 1) = 1: nothing to do, enlarging or not.
            (tall, "rs:fit:1000:1000", "scaled 100x1000 out 100x1000"),
            (tall, "rs:fit:1000:1000/el:1", "scaled 100x1000 out 100x1000"),
            // Enlarged fill: min(0.1, 1) = 0.1 -> 1000x10000; top 4500.5 -> 4500.
            (tall, "rs:fill:1000:1000/el:1", "scaled 1000x10000 cut 1000x1000@0,4500 out 1000x1000"),
            (tall, "w:10", "scaled 10x100 out 10x100"),
        ])
    func shapes(source: PixelSize, options: String, expected: String) throws {
        #expect(try Self.plan(source, options) == expected)
    }

    @Test(
        "odd sizes, gravities, pixel ratios, minimums, canvases and padding",
        arguments: [
            // 1001x667 in 100: fill min(10.01, 6.67) -> 1001/6.67 = 150.08 -> 150x100;
            // left (150 - 100 + 1) / 2 = 25.5, to even 26.
            (odd, "rs:fill:100:100", "scaled 150x100 cut 100x100@26,0 out 100x100"),
            // fit 10.01: 667/10.01 = 66.6 -> 67.
            (odd, "rs:fit:100:100", "scaled 100x67 out 100x67"),
            // force with a free width keeps the source's width.
            (odd, "rs:force:0:100", "scaled 1001x100 out 1001x100"),
            // fit 2.002 and dpr 2 (within 2.002): 1.001 -> 1000 x 666.3 = 1000x666.
            (odd, "rs:fit:500:500/dpr:2", "scaled 1000x666 out 1000x666"),
            // A centred 500x500 crop: (1001 - 500 + 1) / 2 = 251, (667 - 500 + 1) / 2 = 84.
            (odd, "c:500:500/rs:fit:100:100", "scaled 100x100 src 500x500@251,84 out 100x100"),
            (odd, "c:500:500:soea", "scaled 500x500 src 500x500@501,167 out 500x500"),
            // Offsets in pixels from the north-west corner, not scaled by a pixel ratio.
            (odd, "c:500:500:nowe:10:20", "scaled 500x500 src 500x500@10,20 out 500x500"),
            // fill 300: min(3.34, 2.22) -> 450x300; centre 75.5 -> 76, plus 0.1 of 450 (45).
            (odd, "rs:fill:300:300/g:ce:0.1:0.1", "scaled 450x300 cut 300x300@121,0 out 300x300"),
            // Landscape fill 300 (shrink 4): 400x300; north-east: left 400 - 300.
            (landscape, "rs:fill:300:300/g:noea", "scaled 400x300 cut 300x300@100,0 out 300x300"),
            (landscape, "rs:fill:300:300/g:sowe", "scaled 400x300 cut 300x300@0,0 out 300x300"),
            // An offset outward from the east edge is held inside: 100 + 20, held at 100.
            (landscape, "rs:fill:300:300/g:ea:-20", "scaled 400x300 cut 300x300@100,0 out 300x300"),
            // Pixel offsets round half to even: 2.5 -> 2, 3.5 -> 4.
            (landscape, "rs:fill:300:300/g:we:2.5", "scaled 400x300 cut 300x300@2,0 out 300x300"),
            (landscape, "rs:fill:300:300/g:we:3.5", "scaled 400x300 cut 300x300@4,0 out 300x300"),
            // dpr 2: shrink 2 -> 800x600, box 600x600; a pixel offset doubles: 20.
            (landscape, "rs:fill:300:300/dpr:2/g:we:10", "scaled 800x600 cut 600x600@20,0 out 600x600"),
            (landscape, "rs:fill:300:300/dpr:2", "scaled 800x600 cut 600x600@100,0 out 600x600"),
            // min-width 200 would shrink by 8, more than fit's 5.33: no effect.
            (landscape, "rs:fit:300:300/mw:200", "scaled 300x225 out 300x225"),
            // min-height 300 wants 4: 400x300, cut to the box: left 50.5 -> 50.
            (landscape, "rs:fit:300:300/mh:300", "scaled 400x300 cut 300x300@50,0 out 300x300"),
            // force 5.33 x 4, min-width 400 wants 4 across: the height's shrink follows,
            // 4 / (5.33 / 4) = 3 -> 400x400; cut to 300x300 at 50.5 -> 50 both ways.
            (landscape, "rs:force:300:300/mw:400", "scaled 400x400 cut 300x300@50,50 out 300x300"),
            // zoom 1.5 of shrink 5.33: 1200 x 0.28125 = 337.5, half away from zero: 338;
            // the box's width is 450.
            (landscape, "w:300/z:1.5", "scaled 450x338 out 450x338"),
            // zoom y 2 halves the height's shrink: 300x450 within the 300x600 box.
            (landscape, "rs:fit:300:300/z:1:2", "scaled 300x450 out 300x450"),
            // fill 200 (shrink 6): 1600/6 = 266.7 -> 267; left (267 - 200 + 1) / 2 = 34.
            // The box's aspect ratio is already the cut's: no canvas.
            (landscape, "rs:fill:200:200/exar:1", "scaled 267x200 cut 200x200@34,0 out 200x200"),
            // fit 400x200 (shrink 6): 267x200 on a 400x200 canvas: (400 - 267 + 1) / 2 = 67.
            (landscape, "rs:fit:400:200/ex:1", "scaled 267x200 canvas 400x200@67,0 out 400x200"),
            (landscape, "rs:fit:400:200/ex:1:ea", "scaled 267x200 canvas 400x200@133,0 out 400x200"),
            // 2:1 from a height of 200: 400 wide.
            (landscape, "rs:fit:400:200/exar:1", "scaled 267x200 canvas 400x200@67,0 out 400x200"),
            // fit 400x100 (shrink 12): 133x100; 4:1 from 100 high: 400; (400 - 133 + 1) / 2 = 134.
            (landscape, "rs:fit:400:100/exar:1", "scaled 133x100 canvas 400x100@134,0 out 400x100"),
            // Without a box the pixel ratio cannot grow the image (min(2, 1) = 1), and the
            // padding is 10 x 1.
            (landscape, "pd:10/dpr:2", "scaled 1600x1200 canvas 1620x1220@10,10 out 1620x1220"),
            // fit 800 (shrink 2) at dpr 2: the source's size; padding 10 x 2 = 20.
            (landscape, "rs:fit:800:800/pd:10/dpr:2", "scaled 1600x1200 canvas 1640x1240@20,20 out 1640x1240"),
            // Half the width (800) and a quarter of the height (300), south: left 400.5 ->
            // 400, top 1200 - 300.
            (landscape, "c:0.5:0.25:so", "scaled 800x300 src 800x300@400,900 out 800x300"),
            // A crop at a focus point: (160 - 50, 120 - 50).
            (landscape, "c:100:100:fp:0.1:0.1", "scaled 100x100 src 100x100@110,70 out 100x100"),
            // Crop 400x400 at (600, 400), then fill 100x50 (shrink 4): top 25.5 -> 26.
            (landscape, "c:400:400/rs:fill:100:50", "scaled 100x100 src 400x400@600,400 cut 100x50@0,26 out 100x50"),
            // Portrait 1200x1600: fit max(4, 5.33).
            (portrait, "rs:fit:300:300", "scaled 225x300 out 225x300"),
            // fill min(4, 16) = 4: 300x400; top (400 - 100 + 1) / 2 = 150.5 -> 150.
            (portrait, "rs:fill:300:100", "scaled 300x400 cut 300x100@0,150 out 300x100"),
            (portrait, "rs:fill-down:300:100", "scaled 300x400 cut 300x100@0,150 out 300x100"),
            (portrait, "rs:fill:300:100/g:no", "scaled 300x400 cut 300x100@0,0 out 300x100"),
            (portrait, "rs:force:0:400", "scaled 1200x400 out 1200x400"),
            (portrait, "h:400", "scaled 300x400 out 300x400"),
            // auto: portrait source, landscape box: fit, max(4, 8).
            (portrait, "rs:auto:300:200", "scaled 150x200 out 150x200"),
            // Both portrait: fill, min(6, 5.33) -> 225x300; left (225 - 200 + 1) / 2 = 13.
            (portrait, "rs:auto:200:300", "scaled 225x300 cut 200x300@13,0 out 200x300"),
            // 225x300 on a 300x300 canvas: (300 - 225 + 1) / 2 = 38.
            (portrait, "rs:fit:300:300/ex:1", "scaled 225x300 canvas 300x300@38,0 out 300x300"),
            (portrait, "rs:fit:300:300/ex:1:we", "scaled 225x300 canvas 300x300@0,0 out 300x300"),
            // Small 300x200: fill-down 100 (shrink 2) -> 150x100; left 25.5 -> 26.
            (small, "rs:fill-down:100:100", "scaled 150x100 cut 100x100@26,0 out 100x100"),
            // fill-down of a larger 2:1 box: 300 x 0.5 = 150 high; top 25.5 -> 26.
            (small, "rs:fill-down:600:300", "scaled 300x200 cut 300x150@0,26 out 300x150"),
            // A 2:3 box: 200 x 2/3 = 133.3 -> 133 wide; left (300 - 133 + 1) / 2 = 84.
            (small, "rs:fill-down:400:600", "scaled 300x200 cut 133x200@84,0 out 133x200"),
            // fit 150 (shrink 2) at dpr 2: the source's size.
            (small, "rs:fit:150:150/dpr:2", "scaled 300x200 out 300x200"),
            // fit 100 (shrink 3) at dpr 2: 1.5 -> 200 x 133.3 = 200x133.
            (small, "rs:fit:100:100/dpr:2", "scaled 200x133 out 200x133"),
            // fill 100 (shrink 2) at dpr 2: the source; box 200x200, left 50.5 -> 50.
            (small, "rs:fill:100:100/dpr:2", "scaled 300x200 cut 200x200@50,0 out 200x200"),
            // Enlarged to 600x400 on a 600x600 canvas: top 100.5 -> 100.
            (small, "rs:fit:600:600/el:1/ex:1", "scaled 600x400 canvas 600x600@0,100 out 600x600"),
            // A minimum width grows the image without el: 300/600 = 0.5.
            (small, "mw:600", "scaled 600x400 out 600x400"),
            (small, "mh:100", "scaled 300x200 out 300x200"),
            (small, "z:0.5", "scaled 150x100 out 150x100"),
            // force 0.5 x 2 without enlarging: both divided by 0.5 -> 1 x 4: 300x50.
            (small, "rs:force:600:100", "scaled 300x50 out 300x50"),
            (small, "rs:fit:600:100", "scaled 150x100 out 150x100"),
            (small, "s:300:200", "scaled 300x200 out 300x200"),
            // Padding given for the top only, the rest 0.
            (small, "pd:5:0:0:0", "scaled 300x200 canvas 300x205@0,5 out 300x205"),
        ])
    func details(source: PixelSize, options: String, expected: String) throws {
        #expect(try Self.plan(source, options) == expected)
    }

    static func plan(_ source: PixelSize, _ options: String) throws -> String {
        var parsed = ProcessingOptions()
        for segment in options.split(separator: "/") {
            try OptionParser.apply(String(segment), to: &parsed, presets: [:], depth: 0)
        }
        return describe(ResizePlan(source: source, options: parsed))
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
