import Foundation
import Testing
import WebImageHTTP

@testable import WebImageCore
@testable import WebImageManager

/// The machine's actions reduced to what a test compares.
enum Step: Equatable {
    case lookInMemory
    case lookUpVariant
    case answerFromVariant(ImageSource, revalidateBehind: Bool = false)
    case removeVariant
    case readDisk
    case lookInShared(coalescing: Bool)
    case answerFromStored(ImageSource, revalidateBehind: Bool, copyToDisk: Bool)
    case removeFromDisk
    case download(conditional: Bool)
    case answerRevalidated(storeShared: Bool)
    case answerFromNetwork(mayStore: Bool)
    case finish(String, releasingLease: Bool)

    init(_ action: ImageLoadTask.StateMachine.Action) {
        switch action {
        case .lookInMemory: self = .lookInMemory
        case .lookUpVariant: self = .lookUpVariant
        case .answerFromVariant(_, let source, let revalidateBehind):
            self = .answerFromVariant(source, revalidateBehind: revalidateBehind != nil)
        case .removeVariant: self = .removeVariant
        case .readDisk: self = .readDisk
        case .lookInShared(let coalescing): self = .lookInShared(coalescing: coalescing)
        case .answerFromStored(_, let source, let behind, let copy):
            self = .answerFromStored(source, revalidateBehind: behind, copyToDisk: copy)
        case .removeFromDisk: self = .removeFromDisk
        case .download(let validators): self = .download(conditional: validators != nil)
        case .answerRevalidated(_, _, _, let storeShared): self = .answerRevalidated(storeShared: storeShared)
        case .answerFromNetwork(_, _, let mayStore): self = .answerFromNetwork(mayStore: mayStore)
        case .finish(.success(let response), let releasing): self = .finish("\(response.source)", releasingLease: releasing)
        case .finish(.failure(let error), let releasing): self = .finish(Self.name(error), releasingLease: releasing)
        }
    }

    private static func name(_ error: ImageLoadError) -> String {
        switch error {
        case .cancelled: "cancelled"
        case .notCached: "notCached"
        case .decoding: "decoding"
        case .download: "download"
        default: "\(error)"
        }
    }
}

/// Drives one machine with plain values: no cache, no downloader, no clock.
struct Driver {
    static let url = URL(string: "https://images.example/a.png")!
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    var machine: ImageLoadTask.StateMachine

    init(
        _ options: ImageLoadOptions = [], policy: CachePolicy = .protocol,
        layers: ImageLoadTask.StateMachine.Layers = .init(memory: true, disk: true, shared: false),
        context: ImageLoadContext = ImageLoadContext()
    ) {
        machine = ImageLoadTask.StateMachine(
            request: ImageRequest(url: Self.url, options: options, context: context),
            caching: LoadCaching(policy: policy, rules: HTTPCacheRules(), memoryFollowsFreshness: false), layers: layers)
    }

    mutating func start() -> Step { Step(machine.start()) }
    mutating func memory(_ hit: Bool) -> Step { Step(machine.memoryLooked(hit ? Self.image : nil)) }
    mutating func variant(_ found: FoundVariant?, source: CachedResponseMetadata?) -> Step {
        Step(machine.variantLooked(found, source: source, at: Self.now))
    }
    mutating func variantFailed() -> Step { Step(machine.variantAnswerFailed()) }
    mutating func variantRemoved() -> Step { Step(machine.variantRemoved()) }
    mutating func disk(_ entry: CachedResponse?) -> Step { Step(machine.diskRead(entry, at: Self.now)) }
    mutating func shared(_ lookup: SharedCacheLookup) -> Step { Step(machine.sharedLooked(lookup, at: Self.now)) }
    mutating func storedFailed(_ error: ImageLoadError) -> Step { Step(machine.storedAnswerFailed(error)) }
    mutating func removed() -> Step { Step(machine.removedFromDisk()) }
    mutating func downloaded(_ result: Result<DownloadResult, ImageLoadError>) -> Step {
        Step(machine.downloaded(result, requestedAt: Self.now, receivedAt: Self.now))
    }
    mutating func answered(_ source: ImageSource) -> Step {
        Step(machine.answered(ImageResponse(image: Self.image, data: nil, source: source, request: machine.request)))
    }
    mutating func answerFailed(_ error: ImageLoadError) -> Step { Step(machine.answerFailed(error)) }
    mutating func cancelled() -> Step { Step(machine.cancelled()) }

    static let image: DecodedImage = {
        let bitmap = try! ImageBitmap(width: 1, height: 1, pixelFormat: .rgba8) { _, _ in }
        return DecodedImage(format: .png, frames: [ImageFrame(bitmap: bitmap)])
    }()

    /// A stored entry: fresh for an hour, stale (with a validator) or stale without one.
    static func entry(_ freshness: Freshness) -> CachedResponse {
        var headers: HTTPHeaderFields = ["Date": HTTPDate.format(secondsSince1970: Int(now.timeIntervalSince1970))]
        switch freshness {
        case .fresh: headers.add("Cache-Control", "max-age=3600")
        case .stale:
            headers.add("Cache-Control", "max-age=0")
            headers.add("ETag", "\"v1\"")
        case .staleWithoutValidator: headers.add("Cache-Control", "max-age=0")
        case .staleWhileRevalidate: headers.add("Cache-Control", "max-age=0, stale-while-revalidate=600")
        case .staleIfError:
            headers.add("Cache-Control", "max-age=0, stale-if-error=600")
            headers.add("ETag", "\"v1\"")
        }
        let metadata = CachedResponseMetadata(responseHeaders: headers, requestedAt: now, storedAt: now)
        return CachedResponse(data: Data("stored".utf8), metadata: metadata)
    }

    enum Freshness { case fresh, stale, staleWithoutValidator, staleWhileRevalidate, staleIfError }

    static func body(status: Int = 200, cacheControl: String = "max-age=60") -> Result<DownloadResult, ImageLoadError> {
        let response = TransportResponse(url: url, statusCode: status, headers: ["Cache-Control": cacheControl], httpVersion: .http1_1)
        let metrics = TransferMetrics(transactions: [], totalDuration: .zero, redirectCount: 0)
        return .success(DownloadResult(data: Data("body".utf8), response: response, metrics: metrics, attempts: 1))
    }

    static func serverError() -> Result<DownloadResult, ImageLoadError> {
        let response = TransportResponse(url: url, statusCode: 503, headers: [:], httpVersion: .http1_1)
        return .failure(.download(.transport(TransportError(.httpStatus, "status 503", url: url, response: response))))
    }

    static let decodingFailure = ImageLoadError.decoding(ImageDecodingError(.corrupt, "test"), response: nil, bytes: 6)
}

@Suite("The load's state machine: memory, disk, shared tier, network, in every option and policy")
struct ImageLoadStateMachineTests {
    // MARK: Memory

    @Test("a plain load looks in memory first; a hit ends the run with it")
    func memoryHit() {
        var load = Driver()
        #expect(load.start() == .lookInMemory)
        #expect(load.memory(true) == .finish("memory", releasingLease: false))
    }

    @Test(
        "memory is read unless the load skips the caches, wants bytes, or asks the server first",
        arguments: [
            ([], true), ([.fromCacheOnly], true), ([.memoryCacheOnly], true),
            ([.fromLoaderOnly], false), ([.returnDataWithoutDecoding], false), ([.refreshCached], false),
            // fromCacheOnly forbids asking: the caches answer as they are, memory included.
            ([.refreshCached, .fromCacheOnly], true),
        ] as [(ImageLoadOptions, Bool)])
    func whoReadsMemory(options: ImageLoadOptions, reads: Bool) {
        #expect(ImageLoadTask.StateMachine.readsMemory(options) == reads)
        var load = Driver(options)
        #expect((load.start() == .lookInMemory) == reads)
    }

    // MARK: Disk

    @Test("a memory miss reads the disk; a fresh entry answers from disk, kept in memory by the answer")
    func freshOnDisk() {
        var load = Driver()
        _ = load.start()
        #expect(load.memory(false) == .readDisk)
        #expect(load.disk(Driver.entry(.fresh)) == .answerFromStored(.disk, revalidateBehind: false, copyToDisk: false))
        #expect(load.answered(.disk) == .finish("disk", releasingLease: false))
    }

    @Test("a stale entry with a validator is asked about conditionally; a 304 answers with it, revalidated")
    func staleRevalidated() {
        var load = Driver()
        _ = load.start()
        _ = load.memory(false)
        #expect(load.disk(Driver.entry(.stale)) == .download(conditional: true))
        #expect(load.downloaded(Driver.body(status: 304)) == .answerRevalidated(storeShared: false))
        #expect(load.answered(.revalidated) == .finish("revalidated", releasingLease: false))
    }

    @Test("a stale entry without a validator is downloaded unconditionally")
    func staleWithoutValidator() {
        var load = Driver()
        _ = load.start()
        _ = load.memory(false)
        #expect(load.disk(Driver.entry(.staleWithoutValidator)) == .download(conditional: false))
        #expect(load.downloaded(Driver.body()) == .answerFromNetwork(mayStore: true))
    }

    @Test("stale-while-revalidate answers stale at once and revalidates behind the load")
    func staleWhileRevalidate() {
        var load = Driver()
        _ = load.start()
        _ = load.memory(false)
        #expect(load.disk(Driver.entry(.staleWhileRevalidate)) == .answerFromStored(.stale, revalidateBehind: true, copyToDisk: false))
    }

    @Test("stale-if-error: a server error while revalidating answers with the stale entry; another failure fails")
    func staleIfError() {
        var load = Driver()
        _ = load.start()
        _ = load.memory(false)
        #expect(load.disk(Driver.entry(.staleIfError)) == .download(conditional: true))
        #expect(load.downloaded(Driver.serverError()) == .answerFromStored(.stale, revalidateBehind: false, copyToDisk: false))
        #expect(load.storedFailed(Driver.decodingFailure) == .finish("decoding", releasingLease: false), "no second try")

        var plain = Driver()
        _ = plain.start()
        _ = plain.memory(false)
        _ = plain.disk(Driver.entry(.stale))
        #expect(plain.downloaded(Driver.serverError()) == .finish("download", releasingLease: false))
    }

    @Test("an entry on disk that does not decode is removed, then fetched again; with fromCacheOnly the load fails")
    func undecodableOnDisk() {
        var load = Driver()
        _ = load.start()
        _ = load.memory(false)
        _ = load.disk(Driver.entry(.fresh))
        #expect(load.storedFailed(Driver.decodingFailure) == .removeFromDisk)
        #expect(load.removed() == .download(conditional: false))

        var offline = Driver([.fromCacheOnly])
        _ = offline.start()
        _ = offline.memory(false)
        _ = offline.disk(Driver.entry(.fresh))
        #expect(offline.storedFailed(Driver.decodingFailure) == .removeFromDisk)
        #expect(offline.removed() == .finish("decoding", releasingLease: false))
    }

    @Test("a transform failure or a cancel while answering from disk ends the run with it, nothing removed")
    func otherFailuresFromDisk() {
        var load = Driver()
        _ = load.start()
        _ = load.memory(false)
        _ = load.disk(Driver.entry(.fresh))
        #expect(load.storedFailed(.cancelled) == .finish("cancelled", releasingLease: false))
    }

    // MARK: Options and policies

    @Test("fromCacheOnly: any entry answers, however stale; a miss everywhere fails notCached")
    func fromCacheOnly() {
        var load = Driver([.fromCacheOnly])
        _ = load.start()
        _ = load.memory(false)
        #expect(load.disk(Driver.entry(.stale)) == .answerFromStored(.disk, revalidateBehind: false, copyToDisk: false))

        var miss = Driver([.fromCacheOnly])
        _ = miss.start()
        _ = miss.memory(false)
        #expect(miss.disk(nil) == .finish("notCached", releasingLease: false))
    }

    @Test("refreshCached asks the server even for a fresh entry, skipping memory")
    func refreshCached() {
        var load = Driver([.refreshCached])
        #expect(load.start() == .readDisk)
        #expect(load.disk(Driver.entry(.fresh)) == .download(conditional: false), "a fresh entry without validator: asked in full")
        var withValidator = Driver([.refreshCached])
        _ = withValidator.start()
        #expect(withValidator.disk(Driver.entry(.stale)) == .download(conditional: true))
    }

    @Test("refreshCached with fromCacheOnly: the caches answer as they are, never the network")
    func refreshCachedFromCacheOnly() {
        var load = Driver([.refreshCached, .fromCacheOnly])
        #expect(load.start() == .lookInMemory)
        #expect(load.memory(false) == .readDisk)
        #expect(load.disk(Driver.entry(.stale)) == .answerFromStored(.disk, revalidateBehind: false, copyToDisk: false))
    }

    @Test("fromLoaderOnly reads no cache: straight to the network")
    func fromLoaderOnly() {
        var load = Driver([.fromLoaderOnly], layers: .init(memory: true, disk: true, shared: true))
        #expect(load.start() == .download(conditional: false))
    }

    @Test("returnDataWithoutDecoding skips memory and answers from disk")
    func bytesOnly() {
        var load = Driver([.returnDataWithoutDecoding])
        #expect(load.start() == .readDisk)
    }

    @Test("policy always: any entry answers; never: the disk is not read")
    func policies() {
        var always = Driver(policy: .always)
        _ = always.start()
        _ = always.memory(false)
        #expect(always.disk(Driver.entry(.stale)) == .answerFromStored(.disk, revalidateBehind: false, copyToDisk: false))

        var never = Driver(policy: .never)
        _ = never.start()
        #expect(never.memory(false) == .download(conditional: false))
    }

    @Test("with no cache layer at all, the first step is the download")
    func noLayers() {
        var load = Driver(layers: .init(memory: false, disk: false, shared: false))
        #expect(load.start() == .download(conditional: false))
    }

    // MARK: Shared tier

    @Test("nothing on disk: the shared tier; a hit answers as shared and is copied to disk")
    func sharedHit() {
        var load = Driver(layers: .init(memory: true, disk: true, shared: true))
        _ = load.start()
        _ = load.memory(false)
        #expect(load.disk(nil) == .lookInShared(coalescing: true))
        #expect(load.shared(.hit(Driver.entry(.fresh))) == .answerFromStored(.shared, revalidateBehind: false, copyToDisk: true))
        #expect(load.answered(.shared) == .finish("shared", releasingLease: false))
    }

    @Test("a shared miss with the key's lease downloads, and the run ends releasing it, whatever the end")
    func sharedLease() {
        var load = Driver(layers: .init(memory: true, disk: true, shared: true))
        _ = load.start()
        _ = load.memory(false)
        _ = load.disk(nil)
        #expect(load.shared(.miss(leased: true)) == .download(conditional: false))
        #expect(load.downloaded(Driver.body(cacheControl: "no-store")) == .answerFromNetwork(mayStore: false))
        #expect(load.answered(.network) == .finish("network", releasingLease: true))

        var failing = Driver(layers: .init(memory: true, disk: true, shared: true))
        _ = failing.start()
        _ = failing.memory(false)
        _ = failing.disk(nil)
        _ = failing.shared(.miss(leased: true))
        #expect(failing.cancelled() == .finish("cancelled", releasingLease: true))
    }

    @Test("a shared entry that does not decode is fetched again without touching the disk")
    func undecodableShared() {
        var load = Driver(layers: .init(memory: true, disk: true, shared: true))
        _ = load.start()
        _ = load.memory(false)
        _ = load.disk(nil)
        _ = load.shared(.hit(Driver.entry(.fresh)))
        #expect(load.storedFailed(Driver.decodingFailure) == .download(conditional: false))
    }

    @Test("a stale shared entry revalidated by a 304 is stored back in the shared tier")
    func sharedRevalidated() {
        var load = Driver(layers: .init(memory: true, disk: true, shared: true))
        _ = load.start()
        _ = load.memory(false)
        _ = load.disk(nil)
        #expect(load.shared(.hit(Driver.entry(.stale))) == .download(conditional: true))
        #expect(load.downloaded(Driver.body(status: 304)) == .answerRevalidated(storeShared: true))
    }

    @Test("fromCacheOnly asks the shared tier without waiting for another member's fetch")
    func sharedWithoutCoalescing() {
        var load = Driver([.fromCacheOnly], layers: .init(memory: false, disk: true, shared: true))
        _ = load.start()
        #expect(load.disk(nil) == .lookInShared(coalescing: false))
        #expect(load.shared(.miss(leased: false)) == .finish("notCached", releasingLease: false))
    }

    // MARK: Network and cancellation

    @Test("a body that does not decode fails the run; nothing is stored")
    func networkDecodingFailure() {
        var load = Driver(layers: .init(memory: false, disk: false, shared: false))
        _ = load.start()
        #expect(load.downloaded(Driver.body()) == .answerFromNetwork(mayStore: true))
        #expect(load.answerFailed(Driver.decodingFailure) == .finish("decoding", releasingLease: false))
    }

    @Test("a cancel at any stage ends the run cancelled; an event after the end changes nothing")
    func cancelAnywhere() {
        var load = Driver()
        _ = load.start()
        #expect(load.cancelled() == .finish("cancelled", releasingLease: false))
        #expect(load.memory(true) == .finish("cancelled", releasingLease: false), "not answered twice")
    }
}
