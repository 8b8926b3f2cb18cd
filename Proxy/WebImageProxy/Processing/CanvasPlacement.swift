import WebImageCore

/// An image placed on a larger transparent canvas (imgproxy's `extend`): what a JPEG
/// output then shows is the canvas flattened over white, as for any transparency.
enum CanvasPlacement {
    static func place(_ bitmap: ImageBitmap, on canvas: ResizePlan.Canvas) throws(ImageDecodingError) -> ImageBitmap {
        guard bitmap.pixelFormat == .rgba8 else {
            throw ImageDecodingError(.unsupported, "only RGBA images are placed on a canvas, not \(bitmap.pixelFormat)")
        }
        let source = bitmap
        let origin = canvas.origin
        return try ImageBitmap(width: canvas.size.width, height: canvas.size.height, pixelFormat: .rgba8) { output, outputRow in
            output.initializeMemory(as: UInt8.self, repeating: 0)
            source.withUnsafeBytes { input in
                let rowBytes = source.width * 4
                for y in 0..<source.height {
                    let to = (origin.y + y) * outputRow + origin.x * 4
                    let from = y * source.bytesPerRow
                    (output.baseAddress! + to).copyMemory(from: input.baseAddress! + from, byteCount: rowBytes)
                }
            }
        }
    }
}
