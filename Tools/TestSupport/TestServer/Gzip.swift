import CZlib

/// gzip (RFC 1952) with the system zlib.
enum Gzip {
    static func compress(_ input: [UInt8], level: Int32 = 6) -> [UInt8]? {
        var stream = z_stream()
        guard webimage_deflate_init_gzip(&stream, level) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))) + 32)
        let status: Int32 = input.withUnsafeBufferPointer { inputBytes in
            output.withUnsafeMutableBufferPointer { outputBytes in
                stream.next_in = UnsafeMutablePointer(mutating: inputBytes.baseAddress)
                stream.avail_in = uInt(inputBytes.count)
                stream.next_out = outputBytes.baseAddress
                stream.avail_out = uInt(outputBytes.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        output.removeSubrange(Int(stream.total_out)...)
        return output
    }
}
