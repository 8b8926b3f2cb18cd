import WebImageCore

/// Several transformers applied in order, as one: its identifier joins theirs.
public struct ComposedTransformer: ImageTransforming {
    public let transformers: [any ImageTransforming]

    public init(_ transformers: [any ImageTransforming]) {
        self.transformers = transformers
    }

    public var identifier: String { transformers.map(\.identifier).joined(separator: "|") }

    public func transform(_ image: DecodedImage) throws(ImageDecodingError) -> DecodedImage {
        var result = image
        for transformer in transformers { result = try transformer.transform(result) }
        return result
    }
}
