import Foundation
import WebImageCore

extension Data {
    /// `withUnsafeBytes` for a body that throws only `ImageDecodingError`: Foundation's
    /// rethrows an untyped error. For the format modules beside this one (WebP, AVIF).
    package func withBytes<T>(_ body: (UnsafeRawBufferPointer) throws(ImageDecodingError) -> T) throws(ImageDecodingError) -> T {
        let result = withUnsafeBytes { (bytes) -> Result<T, ImageDecodingError> in
            do throws(ImageDecodingError) { return .success(try body(bytes)) } catch { return .failure(error) }
        }
        return try result.get()
    }
}
