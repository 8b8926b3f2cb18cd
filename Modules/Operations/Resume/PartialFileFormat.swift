import Foundation
import WebImageHTTP

/// The file a ``PartialDownload`` is kept in: a magic line, one line of JSON (URL,
/// variant, validator, lengths), then the bytes. One file, so one rename makes it appear
/// whole; anything that does not read back exactly (another format, a cut-off file, a
/// length that does not add up, a validator no longer strong) is no partial download.
enum PartialFileFormat {
    private static let magic = Data("swift-web-image partial 1\n".utf8)
    /// The header line is small; a file claiming more is not ours.
    private static let maximumHeaderSize = 64 << 10

    private struct Header: Codable {
        var url: String
        var variant: String
        var etag: String?
        var lastModified: String?
        var date: String?
        var completeLength: Int64?
        var bodyLength: Int
    }

    /// The file's bytes for `partial`.
    static func encode(_ partial: PartialDownload) -> Data? {
        let header = Header(
            url: partial.identity.url, variant: PartialDownloadIdentity.hex(partial.identity.variant),
            etag: partial.validator.entityTag?.description, lastModified: partial.validator.lastModified?.value,
            date: partial.validator.lastModified?.date, completeLength: partial.completeLength, bodyLength: partial.body.count)
        // JSONEncoder escapes newlines inside strings: the header stays one line.
        guard let json = try? JSONEncoder().encode(header), json.count < maximumHeaderSize else { return nil }
        var file = Data(capacity: magic.count + json.count + 1 + partial.body.count)
        file.append(magic)
        file.append(json)
        file.append(0x0A)
        file.append(partial.body)
        return file
    }

    /// The partial download in `file`, or `nil` when the file is not one, or is one for
    /// another identity.
    static func decode(_ file: Data, expecting identity: PartialDownloadIdentity) -> PartialDownload? {
        guard file.starts(with: magic) else { return nil }
        let headerStart = file.startIndex + magic.count
        let searchEnd = min(file.endIndex, headerStart + maximumHeaderSize)
        guard let newline = file[headerStart..<searchEnd].firstIndex(of: 0x0A),
            let header = try? JSONDecoder().decode(Header.self, from: file[headerStart..<newline]),
            header.url == identity.url, header.variant == PartialDownloadIdentity.hex(identity.variant),
            header.bodyLength > 0, file.endIndex - (newline + 1) == header.bodyLength
        else { return nil }
        let validator: ResumeValidator?
        if let etag = header.etag {
            validator = EntityTag(parsing: etag).flatMap { ResumeValidator(entityTag: $0) }
        } else if let lastModified = header.lastModified, let date = header.date {
            validator = ResumeValidator(lastModified: lastModified, date: date)
        } else {
            validator = nil
        }
        guard let validator else { return nil }
        if let complete = header.completeLength, complete <= Int64(header.bodyLength) { return nil }
        return PartialDownload(
            identity: identity, body: Data(file[(newline + 1)...]), validator: validator, completeLength: header.completeLength)
    }
}
