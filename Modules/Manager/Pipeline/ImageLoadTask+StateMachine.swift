import Foundation
import WebImageCore

extension ImageLoadTask {
    /// The decisions of one load run as a state machine that does no I/O: each event
    /// returns the ``Action`` its ``ImageLoadTask`` performs next, with what it found.
    ///
    /// ```
    /// start                  -> lookInMemory | readDisk | lookInShared | download | finish(notCached)
    /// memoryLooked(hit)      -> finish(memory)
    /// memoryLooked(miss)     -> lookUpVariant | readDisk | lookInShared | the entry's use
    /// variantLooked(usable)  -> answerFromVariant (answer, stale answer, answer and revalidate the source behind)
    /// variantLooked(other's) -> removeVariant -> readDisk | lookInShared | network
    /// variantLooked(none)    -> readDisk | lookInShared | network
    /// variantAnswerFailed    -> removeVariant -> readDisk | lookInShared | network
    /// diskRead(entry)        -> the entry's use
    /// diskRead(nothing)      -> lookInShared | network
    /// sharedLooked(hit)      -> the entry's use
    /// sharedLooked(miss)     -> network (holding the key's lease when given)
    /// the entry's use        -> answerFromStored (answer, stale answer, answer and revalidate behind)
    ///                         | network (revalidate, ignore)
    /// storedAnswerFailed     -> removeFromDisk -> network | finish (fromCacheOnly)
    /// network                -> download | finish(notCached) (fromCacheOnly)
    /// downloaded(304)        -> answerRevalidated
    /// downloaded(body)       -> answerFromNetwork
    /// downloaded(failure)    -> answerFromStored (stale-if-error) | finish(failure)
    /// answered / failed      -> finish
    /// cancelled (any stage)  -> finish(cancelled)
    /// ```
    ///
    /// Every `finish` says whether the run holds the shared tier's lease on the key, so
    /// that a failure or a response not stored lets the fleet's next member take over at
    /// once.
    struct StateMachine {
        /// Which cache layers the load has (the request's context, else the manager's;
        /// ``ImageLoadOptions/memoryCacheOnly`` leaves disk and shared out).
        struct Layers: Equatable {
            var memory: Bool
            var disk: Bool
            var shared: Bool
            /// The load has a stored variant to look for (``VariantStorage``, and a disk
            /// cache or a shared tier to hold it).
            var variants = false
        }

        enum Action {
            case lookInMemory
            /// Look for the load's stored variant (disk, then the shared tier) and for the
            /// source's metadata on disk, then report ``variantLooked(_:source:at:)``.
            case lookUpVariant
            /// Answer with the stored variant, decoded, as its tier's source (or `stale`
            /// when its source is past its freshness); revalidate the source on disk behind
            /// it when `revalidateBehind`, whose `metadata` says what to ask.
            case answerFromVariant(FoundVariant, source: ImageSource, revalidateBehind: CachedResponseMetadata?)
            /// The variant is out of date or did not decode: remove it, then report
            /// ``variantRemoved()``.
            case removeVariant
            case readDisk
            case lookInShared(coalescing: Bool)
            /// Answer with the stored entry (decoded, kept in memory) as `source`; start a
            /// revalidation behind it when `revalidateBehind`; copy it to disk when it came
            /// from the shared tier (`copyToDisk`).
            case answerFromStored(CachedResponse, source: ImageSource, revalidateBehind: Bool, copyToDisk: Bool)
            /// The entry on disk did not decode: remove it, then report ``removedFromDisk()``.
            case removeFromDisk
            /// Ask the network, conditionally when `validators` are given.
            case download(validators: TransportRequest.Validators?)
            /// A 304 kept `stored`: answer with it (source `revalidated`), stored again with
            /// `metadata` in memory and on disk, and in the shared tier when it came from there.
            case answerRevalidated(CachedResponse, metadata: CachedResponseMetadata, download: DownloadResult, storeShared: Bool)
            /// Answer with the downloaded body; store it on disk and in the shared tier when
            /// `mayStore`.
            case answerFromNetwork(DownloadResult, metadata: CachedResponseMetadata, mayStore: Bool)
            /// The run ends with `result`; release the shared tier's lease first when held.
            case finish(Result<ImageResponse, ImageLoadError>, releasingLease: Bool)
        }

        private enum Phase {
            case starting, memory, variant, variantAnswer, removingVariant, disk, shared, stored, removing, downloading, staleAfterFailure,
                answering, finished
        }

        let request: ImageRequest
        let caching: LoadCaching
        let layers: Layers
        private var phase = Phase.starting
        /// The entry found on disk or in the shared tier, and what to do with it.
        private var stored: CachedResponse?
        private var use = LoadCaching.Use.ignore
        private var fromShared = false
        private var holdsLease = false
        /// The stored entry's decoding failure, kept while it is removed from disk.
        private var storedFailure: ImageLoadError?
        /// The entry a conditional download asks about (stale, or to be revalidated).
        private var revalidating: CachedResponse?

        init(request: ImageRequest, caching: LoadCaching, layers: Layers) {
            self.request = request
            self.caching = caching
            self.layers = layers
        }

        /// Whether a load with `options` may be answered by the memory cache: it reads the
        /// caches, wants a decoded image, and does not ask the server first.
        /// ``ImageLoadOptions/refreshCached`` asks first unless
        /// ``ImageLoadOptions/fromCacheOnly`` forbids asking: then the caches answer as
        /// they are, memory included, as the disk does. The manager's check before a load
        /// joins a run and the run's own check both ask this.
        static func readsMemory(_ options: ImageLoadOptions) -> Bool {
            guard !options.contains(.fromLoaderOnly), !options.contains(.returnDataWithoutDecoding) else { return false }
            return !options.contains(.refreshCached) || options.contains(.fromCacheOnly)
        }

        private var options: ImageLoadOptions { request.options }
        private var readsDisk: Bool { caching.readsDisk(options) }

        // MARK: Events

        mutating func start() -> Action {
            guard phase == .starting else { return finishAsIs() }
            if layers.memory, Self.readsMemory(options) {
                phase = .memory
                return .lookInMemory
            }
            return afterMemory()
        }

        mutating func memoryLooked(_ image: DecodedImage?) -> Action {
            guard phase == .memory else { return finishAsIs() }
            if let image {
                return finish(.success(ImageResponse(image: image, data: nil, source: .memory, request: request)))
            }
            return afterMemory()
        }

        /// The variant lookup found `variant` (or nothing), and the disk cache holds the
        /// source with `source` metadata (or not at all). A variant is used when it was
        /// made from the source held (or no source is held: the fleet's variant of a source
        /// this server never fetched) and the caching rules would answer with the
        /// source's bytes as they are; one made from an older source is removed; one that
        /// needs the server asked goes the source's way, whose answer stores it again.
        ///
        /// Its freshness is the source's held on disk (a revalidation refreshes that one),
        /// else its own. Within `stale-while-revalidate` it answers, stale, and the source
        /// on disk is revalidated behind it; a variant with no source on disk to
        /// revalidate goes the source's way instead.
        mutating func variantLooked(_ variant: FoundVariant?, source: CachedResponseMetadata?, at now: Date) -> Action {
            guard phase == .variant else { return finishAsIs() }
            guard let variant else { return afterVariant() }
            if let source, !variant.matches(source: source) {
                phase = .removingVariant
                return .removeVariant
            }
            let freshness = source ?? variant.metadata
            switch caching.use(of: freshness, for: request, at: now) {
            case .answer(let stale):
                phase = .variantAnswer
                return .answerFromVariant(variant, source: stale ? .stale : variant.tier, revalidateBehind: nil)
            case .answerAndRevalidateBehind:
                guard let source, layers.disk else { return afterVariant() }
                phase = .variantAnswer
                return .answerFromVariant(variant, source: .stale, revalidateBehind: source)
            case .revalidate, .ignore:
                return afterVariant()
            }
        }

        /// The stored variant did not decode.
        mutating func variantAnswerFailed() -> Action {
            guard phase == .variantAnswer else { return finishAsIs() }
            phase = .removingVariant
            return .removeVariant
        }

        mutating func variantRemoved() -> Action {
            guard phase == .removingVariant else { return finishAsIs() }
            return afterVariant()
        }

        mutating func diskRead(_ entry: CachedResponse?, at now: Date) -> Action {
            guard phase == .disk else { return finishAsIs() }
            guard let entry else { return afterDisk() }
            stored = entry
            use = caching.use(of: entry.metadata, for: request, at: now)
            return useStored()
        }

        mutating func sharedLooked(_ lookup: SharedCacheLookup, at now: Date) -> Action {
            guard phase == .shared else { return finishAsIs() }
            switch lookup {
            case .hit(let entry):
                stored = entry
                fromShared = true
                use = caching.use(of: entry.metadata, for: request, at: now)
                return useStored()
            case .miss(let leased):
                holdsLease = leased
                return network()
            }
        }

        /// Answering from the stored entry failed with `error`.
        mutating func storedAnswerFailed(_ error: ImageLoadError) -> Action {
            switch phase {
            case .stored:
                guard case .decoding = error else { return finish(.failure(error)) }
                // Bytes that do not decode are no use to anyone: dropped, and a fresh copy
                // fetched unless the load may not touch the network. (The tier's copy is
                // replaced by the fresh one this load stores.)
                stored = nil
                use = .ignore
                if fromShared { return options.contains(.fromCacheOnly) ? finish(.failure(error)) : network() }
                storedFailure = error
                phase = .removing
                return .removeFromDisk
            case .staleAfterFailure, .answering:
                return finish(.failure(error))
            default:
                return finishAsIs()
            }
        }

        mutating func removedFromDisk() -> Action {
            guard phase == .removing else { return finishAsIs() }
            if options.contains(.fromCacheOnly), let storedFailure { return finish(.failure(storedFailure)) }
            return network()
        }

        /// The download ended. `requestedAt` was taken before it was asked for (RFC 9111's
        /// request time, so the response's age errs on the old side), `receivedAt` after.
        mutating func downloaded(_ result: Result<DownloadResult, ImageLoadError>, requestedAt: Date, receivedAt: Date) -> Action {
            guard phase == .downloading else { return finishAsIs() }
            switch result {
            case .failure(let error):
                if case .download(let failure) = error, let stale = revalidating,
                    caching.usableAfterFailure(failure, stored: stale.metadata, at: receivedAt)
                {
                    phase = .staleAfterFailure
                    return .answerFromStored(stale, source: .stale, revalidateBehind: false, copyToDisk: false)
                }
                return finish(.failure(error))
            case .success(let download):
                phase = .answering
                if download.isNotModified, let kept = revalidating {
                    let metadata = caching.refreshed(
                        kept.metadata, by: download.response, of: request, requestedAt: requestedAt, receivedAt: receivedAt)
                    return .answerRevalidated(kept, metadata: metadata, download: download, storeShared: fromShared)
                }
                let metadata = caching.metadata(for: download.response, of: request, requestedAt: requestedAt, receivedAt: receivedAt)
                return .answerFromNetwork(download, metadata: metadata, mayStore: caching.mayStore(download.response, for: request))
            }
        }

        /// The answer was made (decoded, stored as the action asked).
        mutating func answered(_ response: ImageResponse) -> Action {
            switch phase {
            case .stored, .staleAfterFailure, .answering, .variantAnswer: finish(.success(response))
            default: finishAsIs()
            }
        }

        /// The answer could not be made from the network's bytes (they did not decode, a
        /// transform failed, the load was cancelled).
        mutating func answerFailed(_ error: ImageLoadError) -> Action {
            guard phase == .answering else { return finishAsIs() }
            return finish(.failure(error))
        }

        /// The run's task was cancelled: it ends now, at whatever stage.
        mutating func cancelled() -> Action {
            finish(.failure(.cancelled))
        }

        // MARK: Steps

        private mutating func afterMemory() -> Action {
            if layers.variants, readsDisk, !options.contains(.refreshCached) {
                phase = .variant
                return .lookUpVariant
            }
            return afterVariant()
        }

        private mutating func afterVariant() -> Action {
            if readsDisk, layers.disk {
                phase = .disk
                return .readDisk
            }
            return afterDisk()
        }

        /// Nothing on disk: the fleet's shared tier. A hit is used as a disk entry would be;
        /// a miss may come with the key's lease, held until the bytes are stored there.
        private mutating func afterDisk() -> Action {
            if readsDisk, layers.shared {
                phase = .shared
                return .lookInShared(coalescing: !options.contains(.fromCacheOnly))
            }
            return network()
        }

        private mutating func useStored() -> Action {
            guard let entry = stored, use != .revalidate, use != .ignore else { return network() }
            phase = .stored
            let stale = use != .answer(stale: false)
            return .answerFromStored(
                entry, source: stale ? .stale : fromShared ? .shared : .disk, revalidateBehind: use == .answerAndRevalidateBehind,
                copyToDisk: fromShared)
        }

        private mutating func network() -> Action {
            if options.contains(.fromCacheOnly) { return finish(.failure(.notCached)) }
            // A stale entry (or one that must be revalidated) is asked about with its
            // validators, and stands in if the server fails within `stale-if-error`.
            revalidating = use == .revalidate ? stored : nil
            let validators = revalidating.map { TransportRequest.Validators($0.metadata) }
            let conditional = validators.map { $0.etag != nil || $0.lastModified != nil } ?? false
            phase = .downloading
            return .download(validators: conditional ? validators : nil)
        }

        private mutating func finish(_ result: Result<ImageResponse, ImageLoadError>) -> Action {
            phase = .finished
            return .finish(result, releasingLease: holdsLease)
        }

        /// An event out of order (a driver's mistake): the run ends cancelled rather than
        /// answering twice.
        private mutating func finishAsIs() -> Action {
            finish(.failure(.cancelled))
        }
    }
}
