import Testing
import WebImageCore

@testable import WebImageDecoding

@Suite("Resample kernels: made once per pair of sizes")
struct ResampleKernelTests {
    @Test("the same sizes and layout share one kernel; another layout or size gets its own")
    func shared() {
        let source = PixelSize(width: 401, height: 301)
        let target = PixelSize(width: 257, height: 193)
        // Other tests fill the same cache at once, and a full cache is emptied: a few
        // tries, so that one emptying between two calls is not a failure.
        let kept = (0..<3).contains { _ in
            let first = ResampleKernel.shared(source: source, target: target, layout: .opaqueRGBA)
            return ResampleKernel.shared(source: source, target: target, layout: .opaqueRGBA) === first
        }
        #expect(kept)
        let first = ResampleKernel.shared(source: source, target: target, layout: .opaqueRGBA)
        #expect(ResampleKernel.shared(source: source, target: target, layout: .rgba) !== first)
        #expect(ResampleKernel.shared(source: source, target: PixelSize(width: 256, height: 193), layout: .opaqueRGBA) !== first)
    }

    @Test("a kernel over the size kept is made each time, so large targets hold no memory")
    func largeNotKept() {
        let source = PixelSize(width: 9000, height: 9000)
        let target = PixelSize(width: 8000, height: 8000)
        let first = ResampleKernel.shared(source: source, target: target, layout: .opaqueRGBA)
        #expect(first.byteCount > ResampleKernel.largestKept)
        #expect(ResampleKernel.shared(source: source, target: target, layout: .opaqueRGBA) !== first)
    }

    @Test("horizontal windows of 7 taps are padded to the multiple each layout's loop reads")
    func padding() {
        let source = PixelSize(width: 400, height: 300)
        let target = PixelSize(width: 256, height: 192)
        let cases: [(ResampleLayout, Int)] = [
            (.opaqueRGBA, 4), (.gray, ResampleKernel.tapMultiple(.gray)), (.rgba, ResampleKernel.tapMultiple(.rgba)),
        ]
        for (layout, multiple) in cases {
            let taps = ResampleKernel(source: source, target: target, layout: layout).columnTaps
            #expect(taps >= 7 && taps < 7 + multiple && taps % multiple == 0, "\(layout): \(taps) taps")
        }
    }
}
