import WebImageCore

/// A box-filter reference for scaled decodes, independent of every decoder's own scaler.
public enum BoxFilterReference {
    public static func downsample(_ source: ImageBitmap, to size: PixelSize) throws -> ImageBitmap {
        let pixels = source.packedBytes
        return try ImageBitmap(width: size.width, height: size.height, pixelFormat: .rgba8) { out, stride in
            for y in 0..<size.height {
                let y0 = y * source.height / size.height
                let y1 = max(y0 + 1, (y + 1) * source.height / size.height)
                for x in 0..<size.width {
                    let x0 = x * source.width / size.width
                    let x1 = max(x0 + 1, (x + 1) * source.width / size.width)
                    for channel in 0..<4 {
                        var sum = 0
                        for sy in y0..<y1 {
                            for sx in x0..<x1 { sum += Int(pixels[(sy * source.width + sx) * 4 + channel]) }
                        }
                        out[y * stride + x * 4 + channel] = UInt8(sum / ((y1 - y0) * (x1 - x0)))
                    }
                }
            }
        }
    }
}
