import Testing
import WebImageCore

@testable import WebImageProxy

@Suite("Resize plans")
struct ResizePlanTests {
    let photo = PixelSize(width: 1600, height: 1200)

    func plan(_ mode: ProcessingOptions.ResizeMode, _ width: Int, _ height: Int, source: PixelSize? = nil) -> ResizePlan {
        ResizePlan(source: source ?? photo, options: ProcessingOptions(resizeMode: mode, width: width, height: height))
    }

    @Test("fit: the whole image in the box, decoded straight at that size")
    func fit() {
        let plan = plan(.fit, 300, 300)
        #expect(plan.scaledSize == PixelSize(width: 300, height: 225))
        #expect(plan.cropSize == nil)
        #expect(plan.decodePixelSize == 300)
        #expect(DecodeOptions(maxPixelSize: plan.decodePixelSize).targetSize(for: photo) == plan.scaledSize)
    }

    @Test("fill: covers the box, then cuts it; the decode covers the cover")
    func fill() {
        let plan = plan(.fill, 300, 100)
        #expect(plan.scaledSize == PixelSize(width: 300, height: 225))
        #expect(plan.cropSize == PixelSize(width: 300, height: 100))
        let tall = self.plan(.fill, 100, 300)
        #expect(tall.scaledSize == PixelSize(width: 400, height: 300))
        #expect(tall.outputSize == PixelSize(width: 100, height: 300))
    }

    @Test("force: exactly the box; the decode covers both sides")
    func force() {
        let plan = plan(.force, 100, 300)
        #expect(plan.scaledSize == PixelSize(width: 100, height: 300))
        #expect(plan.decodePixelSize != nil)
        let decoded = DecodeOptions(maxPixelSize: plan.decodePixelSize).targetSize(for: photo)
        #expect(decoded.width >= 100 && decoded.height >= 300)
    }

    @Test("a free side follows the aspect ratio; both free keeps the size")
    func freeSides() {
        #expect(plan(.fit, 160, 0).scaledSize == PixelSize(width: 160, height: 120))
        #expect(plan(.fill, 0, 90).outputSize == PixelSize(width: 120, height: 90))
        #expect(plan(.force, 0, 600).scaledSize == PixelSize(width: 800, height: 600))
        let none = plan(.fit, 0, 0)
        #expect(none.scaledSize == photo && none.decodePixelSize == nil)
    }

    @Test("nothing is enlarged; a fill of a small image still cuts to the box where it can")
    func noEnlarging() {
        let small = PixelSize(width: 80, height: 60)
        #expect(plan(.fit, 400, 400, source: small).scaledSize == small)
        #expect(plan(.fit, 400, 400, source: small).decodePixelSize == nil)
        #expect(plan(.fill, 400, 40, source: small).outputSize == PixelSize(width: 80, height: 40))
        #expect(plan(.force, 400, 30, source: small).scaledSize == PixelSize(width: 80, height: 30))
    }

    @Test(
        "odd sizes: the decode size never leaves the scaled size a pixel short",
        arguments: [
            (PixelSize(width: 1001, height: 667), 333), (PixelSize(width: 997, height: 1999), 101), (PixelSize(width: 3, height: 1000), 7),
        ])
    func rounding(source: PixelSize, box: Int) {
        for mode in ProcessingOptions.ResizeMode.allCases {
            let plan = plan(mode, box, box, source: source)
            let decoded = plan.decodePixelSize.map { DecodeOptions(maxPixelSize: $0).targetSize(for: source) } ?? source
            #expect(decoded.width >= plan.scaledSize.width && decoded.height >= plan.scaledSize.height, "\(mode)")
        }
    }

    @Test("gravity places the cut against its edge, or in the centre")
    func gravity() {
        let scaled = PixelSize(width: 400, height: 300)
        let crop = PixelSize(width: 100, height: 300)
        #expect(ResizePlan.cropOrigin(scaled: scaled, crop: crop, gravity: .west) == (0, 0))
        #expect(ResizePlan.cropOrigin(scaled: scaled, crop: crop, gravity: .east) == (300, 0))
        #expect(ResizePlan.cropOrigin(scaled: scaled, crop: crop, gravity: .center) == (150, 0))
        let wide = PixelSize(width: 400, height: 100)
        #expect(ResizePlan.cropOrigin(scaled: scaled, crop: wide, gravity: .north) == (0, 0))
        #expect(ResizePlan.cropOrigin(scaled: scaled, crop: wide, gravity: .south) == (0, 200))
    }
}
