import WebImageCore

/// CMYK to sRGB without a profile, as browsers show a CMYK JPEG that embeds none: each
/// channel is its ink's complement times black's, r = c * k / 255 on Adobe's inverted
/// values (libjpeg's djpeg formula).
struct NaiveCMYKTransform: ColorTransforming {
    func apply(_ pixels: UnsafeMutableRawPointer, pixelCount: Int) {
        let bytes = pixels.assumingMemoryBound(to: UInt8.self)
        for index in 0..<pixelCount {
            let p = bytes + 4 * index
            let k = UInt32(p[3])
            p[0] = UInt8((UInt32(p[0]) * k + 127) / 255)
            p[1] = UInt8((UInt32(p[1]) * k + 127) / 255)
            p[2] = UInt8((UInt32(p[2]) * k + 127) / 255)
            p[3] = 255
        }
    }
}
