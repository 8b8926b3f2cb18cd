import Testing
import WebImageCore

@testable import WebImageProxy

@Suite("Smart crop")
struct SmartCropTests {
    @Test("the window with the largest sum, the earliest of equals")
    func bestWindow() {
        #expect(SmartCrop.bestWindow([0, 0, 5, 5, 0, 0], length: 2) == 2)
        #expect(SmartCrop.bestWindow([1, 1, 1, 1], length: 2) == 0)
        #expect(SmartCrop.bestWindow([0, 0, 0, 9], length: 3) == 1)
        #expect(SmartCrop.bestWindow([3, 1], length: 2) == 0)
        #expect(SmartCrop.bestWindow([3, 1], length: 5) == 0)
    }

    @Test("a cut of a flat image with one edge keeps the edge")
    func keepsTheEdge() throws {
        // Black, with one white column at x = 70: the only place with any energy.
        let bitmap = try ImageBitmap(width: 100, height: 10, pixelFormat: .rgba8) { bytes, row in
            for y in 0..<10 {
                for x in 0..<100 {
                    for channel in 0..<3 { bytes[y * row + x * 4 + channel] = x == 70 ? 255 : 0 }
                    bytes[y * row + x * 4 + 3] = 255
                }
            }
        }
        let origin = SmartCrop.origin(in: bitmap, crop: PixelSize(width: 20, height: 10))
        #expect((51...70).contains(origin.x))
        #expect(origin.y == 0)
    }
}
