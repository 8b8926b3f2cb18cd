import Foundation
import WebImage

/// What identifies an `/info` answer.
struct InfoKey: Hashable, Sendable {
    let source: String
    let options: InfoOptions
}

/// The options of an `/info` URL: the BlurHash's components, whether to add a ThumbHash,
/// the URL's expiry and its own source limits.
struct InfoOptions: Hashable, Sendable {
    /// BlurHash components across and down; `nil`: no hash.
    var blurHash: BlurHashEncoder? = BlurHashEncoder()
    /// Whether the answer carries a ThumbHash (base64).
    var thumbHash = true
    var expires: Date?
    var limits = URLLimits()
}

extension ImageProxy {
    /// The side of the decode the placeholders are computed from: their few cosines need
    /// no more (a ThumbHash reads at most 100), and a JPEG decodes this small in its DCT.
    static let blurHashSide = 64

    /// `/info/{signature}/{options}/plain/{source}`: the source's format, size, frames,
    /// orientation, colour space and camera fields (EXIF), and a BlurHash and a
    /// ThumbHash, as JSON. Signed like an image URL.
    func info(for request: ProxyRequest) async throws -> RenderedOutput {
        let path = try ProxyPath(String(request.path.dropFirst("/info".count)))
        if let signer = configuration.signer, !signer.isValid(path.signature, for: path.signedPath) {
            throw ProxyError(.badSignature, "the signature does not match the path")
        }
        let options = try Self.infoOptions(path)
        if let expires = options.expires, expires < Date() {
            throw ProxyError(.expired, "the URL expired at \(Int(expires.timeIntervalSince1970))")
        }
        if let violation = configuration.urlPolicy.violation(for: path.source) {
            throw ProxyError(.sourceForbidden, "the source is refused: \(violation)")
        }
        let source = path.source
        return try await work.value(for: .info(InfoKey(source: source.absoluteString, options: options))) { [self] in
            try await queue.run { try await describe(source, options) }
        }.value
    }

    private func describe(_ source: URL, _ options: InfoOptions) async throws -> RenderedOutput {
        let data = try await sourceData(source)
        var limits = ProcessingOptions()
        limits.limits = options.limits
        // One header read, for the fields below and for the placeholders' decode.
        let surveyed = try renderer.survey(data, options: limits)
        let header = surveyed.header
        let decode = surveyed.prepareDecode(
            options: DecodeOptions(
                maxPixelSize: Self.blurHashSide, maxPixelCount: renderer.limits.narrowed(by: options.limits).maxResolution,
                firstFrameOnly: true, appliesOrientation: true))
        let small = try await withTaskExecutorPreference(configuration.executor) { () throws(ProxyError) -> DecodedImage in
            do throws(ImageDecodingError) {
                return try decode.decode()
            } catch {
                throw ThumbnailRenderer.proxyError(for: error)
            }
        }
        var fields: [String: Any] = [
            "format": header.info.format.identifier,
            "width": header.displaySize.width,
            "height": header.displaySize.height,
            "frames": header.frameCount,
            "orientation": header.info.orientation.rawValue,
            "colorSpace": small.sourceColorProfile?.description ?? "sRGB",
        ]
        // Codable writes only the fields present.
        if let exif = header.exif.flatMap(ExifFields.init(tiff:)) {
            fields["exif"] = try JSONSerialization.jsonObject(with: JSONEncoder().encode(exif))
        }
        if let encoder = options.blurHash { fields["blurhash"] = try encoder.encode(small.bitmap) }
        if options.thumbHash { fields["thumbhash"] = try ThumbHashEncoder().encode(small.bitmap).base64EncodedString() }
        // Sorted keys: the same source gives the same bytes, so the same ETag.
        let body = try JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys]) + Data("\n".utf8)
        return RenderedOutput(
            data: body, contentType: "application/json", disposition: "inline; filename=\"info.json\"",
            entityTag: Self.entityTag(of: body), variesByAccept: false)
    }

    static func infoOptions(_ path: ProxyPath) throws(ProxyError) -> InfoOptions {
        var options = InfoOptions()
        var limits = ProcessingOptions()
        try path.forEachOption { (segment) throws(ProxyError) in
            try segment.withPieces(separatedBy: UInt8(ascii: ":")) { (bounds) throws(ProxyError) in
                let parts = bounds.map { segment[$0] }
                let reader = ArgumentReader(segment: segment)
                switch parts[0].string {
                case "bh", "blurhash":
                    guard parts.count == 3 || (parts.count == 2 && parts[1].is("0")) else {
                        throw reader.bad("takes x and y components, or 0")
                    }
                    if parts.count == 2 {
                        options.blurHash = nil
                    } else {
                        guard let x = Int(parts[1].string), let y = Int(parts[2].string), (1...9).contains(x), (1...9).contains(y) else {
                            throw reader.bad("the components are 1 to 9 each")
                        }
                        options.blurHash = BlurHashEncoder(componentsX: x, componentsY: y)
                    }
                case "th", "thumbhash":
                    guard parts.count == 2 else { throw reader.bad("takes 1 or 0") }
                    options.thumbHash = try reader.bool(parts[1])
                case "exp", "expires", "msr", "max_src_resolution", "msfs", "max_src_file_size", "maf", "max_animation_frames":
                    try OptionParser.apply(segment, to: &limits, presets: [:], depth: 0)
                default:
                    throw reader.bad("an info URL takes bh, th, exp and the source limits")
                }
            }
        }
        options.expires = limits.expires
        options.limits = limits.limits
        return options
    }
}
