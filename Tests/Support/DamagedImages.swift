import Foundation

/// Damaged copies of good images, for tests that need a body that cannot decode.
public enum DamagedImages {
    /// The first 200 bytes of `jpeg` (its header), then 4,000 bytes of noise: sniffs as
    /// JPEG, does not decode.
    public static func jpegHeaderThenNoise(_ jpeg: Data) -> Data {
        var bytes = Data(jpeg.prefix(200))
        bytes.append(Data(repeating: 0x5A, count: 4000))
        return bytes
    }
}
