import Testing
import WebImageCore

@testable import WebImageDecoding

@Suite("Gray conversion")
struct GrayConversionTests {
    @Test("luminance uses the Rec. 601 weights and keeps gray values exact")
    func luminance() {
        #expect(GrayConversion.luminance(r: 255, g: 0, b: 0) == 76)
        #expect(GrayConversion.luminance(r: 0, g: 255, b: 0) == 150)
        #expect(GrayConversion.luminance(r: 0, g: 0, b: 255) == 29)
        for v in [0, 1, 127, 128, 254, 255] as [UInt8] {
            #expect(GrayConversion.luminance(r: v, g: v, b: v) == v)
        }
    }
}
