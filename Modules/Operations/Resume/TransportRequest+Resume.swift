import WebImageCore
import WebImageHTTP

extension TransportRequest {
    /// Asks for the rest of `kept` (`Range` and `If-Range`): the body limit shrinks by
    /// what is kept, and no content coding is accepted, so that the rest counts bytes as
    /// the kept ones do. Unchanged when the kept bytes already reach the body limit.
    mutating func resume(_ kept: PartialDownload) {
        guard let resume = ResumeRequest(offset: kept.offset, validator: kept.validator) else { return }
        if let limit = maximumBodySize {
            guard kept.offset < limit else { return }
            maximumBodySize = limit - kept.offset
        }
        for (name, value) in resume.headerFields { headers.set(name, value) }
        acceptsCompressedResponses = false
    }

    /// Whether this request still asks for the rest of `kept` (a request modifier may have
    /// dropped the range).
    func resumes(_ kept: PartialDownload) -> Bool {
        headers["Range"] == ResumeRequest(offset: kept.offset, validator: kept.validator)?.rangeValue
    }
}
