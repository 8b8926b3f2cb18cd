/// The `DPR` and `Width` client hints of a request, as imgproxy reads them: a ratio
/// above 0 and at most 8, a width above 0; anything else is ignored. They set `dpr` and
/// `width` (the hinted width divided by the ratio) before the URL's options, which
/// override them.
struct ClientHints {
    static let headerNames = ["Sec-CH-DPR", "DPR", "Sec-CH-Width", "Width"]

    var dpr: Double?
    var width: Int?

    init() {}

    init(_ request: ProxyRequest) {
        if let text = request.dprHint, let value = Double(text), value > 0, value <= 8 { dpr = value }
        if let text = request.widthHint, let value = Int(text), value > 0 { width = value }
    }

    func apply(to options: inout ProcessingOptions) {
        if let dpr { options.dpr = dpr }
        if let width { options.width = min(16_384, Int((Double(width) / (dpr ?? 1)).rounded())) }
    }
}
