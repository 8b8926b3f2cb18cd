import Foundation
import Testing
import WebImageCore

@testable import WebImageProxy

@Suite("Fitting an output into max_bytes")
struct FittingBytesTests {
    /// Encodes `format` with an output of `bytesPerQuality` bytes per quality point,
    /// recording the qualities tried.
    func fit(_ format: OutputFormat = .jpeg, start: Int = 80, maxBytes: Int?, bytesPerQuality: Int = 100) throws -> [Int] {
        var tried: [Int] = []
        _ = try FittingBytes.encode(format, startingAt: start, maxBytes: maxBytes) { quality in
            tried.append(quality)
            return Data(count: quality * bytesPerQuality)
        }
        return tried
    }

    @Test("over 3x the limit drops to a quarter, over 1.5x to a half, else to three quarters")
    func steps() throws {
        // 8000 bytes is 4x 2000: 80 x 0.25 = 20 -> 2000 fits.
        #expect(try fit(maxBytes: 2000) == [80, 20])
        // 8000 is 1.6x 5000: 40 -> 4000 fits.
        #expect(try fit(maxBytes: 5000) == [80, 40])
        // 8000 is 1.14x 7000: 60 -> 6000 fits.
        #expect(try fit(maxBytes: 7000) == [80, 60])
    }

    @Test("it stops at quality 10, fitting or not; PNG and no limit are written once")
    func stops() throws {
        // 80 -> 20 (x0.25) -> 5 (x0.25): at or below 10, answered.
        #expect(try fit(maxBytes: 10) == [80, 20, 5])
        #expect(try fit(.png, maxBytes: 10) == [80])
        #expect(try fit(maxBytes: nil) == [80])
        // 11 is just over 10: 1100 is 1.05x 1050, 11 x 0.75 = 8.25 -> 8, answered.
        #expect(try fit(start: 11, maxBytes: 1050) == [11, 8])
    }
}
