import WebImageCore

extension ImageRequest {
    /// The downloader's request for this load: its URL, headers and credential, its
    /// options in the downloader's terms, and `validators` for a conditional request.
    func downloadRequest(validators: TransportRequest.Validators?, extraOptions: DownloadOptions = []) -> DownloadRequest {
        var downloadOptions = extraOptions
        if options.contains(.progressiveLoad) { downloadOptions.insert(.progressive) }
        if validators != nil { downloadOptions.insert(.revalidate) }
        // The downloader turns these into the queue priority (DownloadRequest.effectivePriority).
        if options.contains(.highPriority) { downloadOptions.insert(.highPriority) }
        if options.contains(.lowPriority) { downloadOptions.insert(.lowPriority) }
        if options.contains(.allowInvalidCertificates) { downloadOptions.insert(.allowInvalidCertificates) }
        if options.contains(.handleCookies) { downloadOptions.insert(.handleCookies) }
        return DownloadRequest(
            url: url, headers: context.headers, options: downloadOptions, credential: context.credential,
            validators: validators, urlPolicy: context.urlPolicy)
    }

    /// This request with ``ImageLoadOptions/handleCookies`` (for a manager that handles
    /// cookies in every load).
    func handlingCookies() -> ImageRequest {
        guard !options.contains(.handleCookies) else { return self }
        return with(options: options.union(.handleCookies))
    }
}
