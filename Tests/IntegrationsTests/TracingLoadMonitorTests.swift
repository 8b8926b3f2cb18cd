import Foundation
import InMemoryTracing
import Testing
import Tracing
import WebImage
import WebImageTracing

@Suite("WebImageTracing: a span per load, children per stage, under the caller's span")
struct TracingLoadMonitorTests {
    @Test("each load is a span under the caller's; a network load has fetch and decode children; a failure is recorded")
    func spans() async throws {
        let tracer = InMemoryTracer()
        let monitor = TracingLoadMonitor(tracer: tracer)
        let request = tracer.startSpan("request")
        try await ServiceContext.withValue(request.context) {
            try await ThreeLoads.run(with: monitor, flush: monitor.flush)
        }
        request.end()
        let spans = tracer.finishedSpans
        let loads = spans.filter { $0.operationName == "image.load" }
        try #require(loads.count == 3)
        #expect(loads.allSatisfy { $0.parentSpanID == request.spanContext.spanID }, "the caller's span is the parent")
        #expect(loads.allSatisfy { $0.traceID == request.spanContext.traceID })
        let network = try #require(loads.first { $0.attributes["webimage.source"]?.toSpanAttribute() == .string("network") })
        let children = spans.filter { $0.parentSpanID == network.spanID }.map(\.operationName).sorted()
        #expect(children == ["image.decode", "image.fetch"])
        let decode = try #require(spans.first { $0.operationName == "image.decode" })
        #expect(decode.startInstant.nanosecondsSinceEpoch >= network.startInstant.nanosecondsSinceEpoch)
        #expect(decode.endInstant.nanosecondsSinceEpoch <= network.endInstant.nanosecondsSinceEpoch)
        #expect(network.events.map { (event: SpanEvent) in event.name } == ["stored.memory"])
        let failed = try #require(loads.first { $0.status?.code == .error })
        #expect(failed.errors.count == 1)
        #expect(failed.status?.message == "download.httpStatus")
    }

    @Test("a wait for the network is an event on the load's span when it began, and one when it ended, within the span")
    func networkWait() async throws {
        let tracer = InMemoryTracer()
        let monitor = TracingLoadMonitor(tracer: tracer)
        await OneNetworkWait.run(with: monitor, flush: monitor.flush)
        let load = try #require(tracer.finishedSpans.first { $0.operationName == "image.load" })
        try #require(load.events.count == 2, "\(load.events.map(\.name))")
        let (waiting, ended) = (load.events[0], load.events[1])
        #expect(waiting.name == "network.waiting")
        #expect(waiting.attributes["webimage.network"]?.toSpanAttribute() == .string("unreachable"))
        #expect(waiting.attributes["webimage.error"] != nil)
        #expect(ended.name == "network.wait_ended")
        #expect(ended.attributes["webimage.outcome"]?.toSpanAttribute() == .string("network back"))
        #expect(load.startInstant.nanosecondsSinceEpoch <= waiting.nanosecondsSinceEpoch)
        #expect(waiting.nanosecondsSinceEpoch <= ended.nanosecondsSinceEpoch)
        #expect(ended.nanosecondsSinceEpoch <= load.endInstant.nanosecondsSinceEpoch)
        #expect(load.status?.code == .error)
    }
}
