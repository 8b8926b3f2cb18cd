import Foundation
import Testing
import WebImageHTTP

@testable import WebImageCore
@testable import WebImageManager

/// A variant stored with `entry`'s metadata (the source's), found in `tier`.
private func variant(_ freshness: Driver.Freshness, etag: String? = nil, tier: ImageSource = .disk) -> FoundVariant {
    var metadata = Driver.entry(freshness).metadata
    if let etag { metadata.headers.set("ETag", etag) }
    return FoundVariant(entry: VariantEntry(kind: .still, format: .jpeg, body: Data("png".utf8)), metadata: metadata, tier: tier)
}

private let withVariants = ImageLoadTask.StateMachine.Layers(memory: true, disk: true, shared: false, variants: true)

@Suite("The load's state machine: stored variants between memory and the source's bytes")
struct ImageLoadStateMachineVariantTests {
    @Test("after a memory miss the variant is looked up first; a fresh one answers the load")
    func freshVariantAnswers() {
        var load = Driver(layers: withVariants)
        #expect(load.start() == .lookInMemory)
        #expect(load.memory(false) == .lookUpVariant)
        #expect(load.variant(variant(.fresh), source: nil) == .answerFromVariant(.disk))
        #expect(load.answered(.disk) == .finish("disk", releasingLease: false))
    }

    @Test("a variant from the shared tier answers as the tier's")
    func sharedVariantAnswers() {
        var load = Driver(layers: withVariants)
        _ = load.start()
        _ = load.memory(false)
        #expect(load.variant(variant(.fresh, tier: .shared), source: nil) == .answerFromVariant(.shared))
    }

    @Test("no variant: the source's bytes on disk, then the network")
    func missGoesToTheSource() {
        var load = Driver(layers: withVariants)
        _ = load.start()
        _ = load.memory(false)
        #expect(load.variant(nil, source: nil) == .readDisk)
        #expect(load.disk(nil) == .download(conditional: false))
    }

    @Test("a variant made from another version of the source (another ETag) is removed, then the source is used")
    func outdatedVariantIsRemoved() {
        var load = Driver(layers: withVariants)
        _ = load.start()
        _ = load.memory(false)
        var source = Driver.entry(.fresh).metadata
        source.headers.set("ETag", "\"v2\"")
        #expect(load.variant(variant(.fresh, etag: "\"v1\""), source: source) == .removeVariant)
        #expect(load.variantRemoved() == .readDisk)
    }

    @Test("a variant made from the source held (same ETag) answers")
    func matchingVariantAnswers() {
        var load = Driver(layers: withVariants)
        _ = load.start()
        _ = load.memory(false)
        var source = Driver.entry(.fresh).metadata
        source.headers.set("ETag", "\"v1\"")
        #expect(load.variant(variant(.fresh, etag: "\"v1\""), source: source) == .answerFromVariant(.disk))
    }

    @Test("a stale variant is not served: the source's way revalidates, and its answer stores the variant again")
    func staleVariantGoesTheSourcesWay() {
        var load = Driver(layers: withVariants)
        _ = load.start()
        _ = load.memory(false)
        #expect(load.variant(variant(.stale), source: nil) == .readDisk)
    }

    @Test("under CachePolicy.always a stale variant answers, as the source's bytes would")
    func alwaysPolicyServesStale() {
        var load = Driver(policy: .always, layers: withVariants)
        _ = load.start()
        _ = load.memory(false)
        #expect(load.variant(variant(.stale), source: nil) == .answerFromVariant(.disk))
    }

    @Test("within stale-while-revalidate a variant answers, stale, and its source on disk is revalidated behind it")
    func staleWhileRevalidateServesTheVariant() {
        var load = Driver(layers: withVariants)
        _ = load.start()
        _ = load.memory(false)
        let held = variant(.staleWhileRevalidate)
        #expect(load.variant(held, source: held.metadata) == .answerFromVariant(.stale, revalidateBehind: true))
        #expect(load.answered(.stale) == .finish("stale", releasingLease: false))
    }

    @Test("within stale-while-revalidate a variant with no source on disk to revalidate goes the source's way")
    func staleWhileRevalidateWithoutTheSource() {
        var load = Driver(layers: withVariants)
        _ = load.start()
        _ = load.memory(false)
        #expect(load.variant(variant(.staleWhileRevalidate), source: nil) == .readDisk)
    }

    @Test("a variant stored stale answers fresh once its source on disk was refreshed (same validators)")
    func refreshedSourceFreshensTheVariant() {
        var load = Driver(layers: withVariants)
        _ = load.start()
        _ = load.memory(false)
        var source = Driver.entry(.fresh).metadata
        source.headers.set("ETag", "\"v1\"")
        #expect(load.variant(variant(.stale, etag: "\"v1\""), source: source) == .answerFromVariant(.disk))
    }

    @Test("a variant that does not decode is removed and the source is used")
    func undecodableVariantIsRemoved() {
        var load = Driver(layers: withVariants)
        _ = load.start()
        _ = load.memory(false)
        _ = load.variant(variant(.fresh), source: nil)
        #expect(load.variantFailed() == .removeVariant)
        #expect(load.variantRemoved() == .readDisk)
    }

    @Test(
        "loads that skip the caches or ask the server first never look for a variant",
        arguments: [[.refreshCached], [.fromLoaderOnly]] as [ImageLoadOptions])
    func whoSkipsVariants(options: ImageLoadOptions) {
        var load = Driver(options, layers: withVariants)
        let first = load.start()
        #expect(first != .lookUpVariant)
        if first == .lookInMemory { #expect(load.memory(false) != .lookUpVariant) }
    }

    @Test("CachePolicy.never reads no variant, as it reads no disk entry")
    func neverPolicySkipsVariants() {
        var load = Driver(policy: .never, layers: withVariants)
        _ = load.start()
        #expect(load.memory(false) == .download(conditional: false))
    }
}
