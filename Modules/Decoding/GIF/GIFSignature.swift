/// The six bytes a GIF starts with, "GIF87a" or "GIF89a": the versions
/// `ImageFormat.sniff` recognises. giflib itself checks only "GIF", so the decoders check
/// the version here, and refuse what the registry would never hand them.
enum GIFSignature {
    /// Whether `bytes`, a file's first bytes however few, can begin a GIF signature.
    /// Compares in place: no copy of the bytes.
    static func canBegin<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        let head = bytes.prefix(6)
        return "GIF87a".utf8.starts(with: head) || "GIF89a".utf8.starts(with: head)
    }
}
