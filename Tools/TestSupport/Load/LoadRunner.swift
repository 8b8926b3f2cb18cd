import Dispatch
import Foundation
import WebImage

/// Runs the plan's loads through one manager, at most `concurrency` in flight, each
/// through its planned API, cancelling those the plan says after their delay.
///
/// A slot is freed when its load's first completion is recorded, not when some await
/// returns, so a load that never completes holds its slot until the watchdog gives up
/// on it (after `timeout`) and it is counted missing.
struct LoadRunner: Sendable {
    let pipeline: LoadPipeline
    let urls: [URL]
    let concurrency: Int
    let timeout: Duration

    /// The queue `.queue` deliveries use: one serial queue shared by many loads, as an
    /// app's main queue would be.
    private static let deliveryQueue = DispatchQueue(label: "webimage-load.delivery")

    func run(_ plan: LoadPlan, into ledger: CompletionLedger) async {
        let watchdog = Task {
            // Cancelled when every load completed; otherwise wakes the stuck ones.
            try await Task.sleep(for: timeout)
            ledger.giveUp()
        }
        await withTaskGroup(of: Void.self) { group in
            var next = plan.loads.makeIterator()
            for _ in 0..<concurrency {
                guard let load = next.next() else { break }
                group.addTask { await self.perform(load, ledger: ledger) }
            }
            for await _ in group {
                guard let load = next.next() else { continue }
                group.addTask { await self.perform(load, ledger: ledger) }
            }
        }
        watchdog.cancel()
    }

    /// One load: start it, cancel it if planned, wait for its completion.
    private func perform(_ load: LoadPlan.Load, ledger: CompletionLedger) async {
        let signal = CompletionSignal()
        ledger.started(load.id, signal: signal)
        let request = ImageRequest(url: urls[load.url], options: load.progressive ? [.progressiveLoad] : [])
        let manager = pipeline.manager
        let id = load.id
        let cancel: @Sendable () -> Void
        switch load.api {
        case .callbackImmediate, .callbackQueue:
            let delivery: CallbackDelivery = load.api == .callbackQueue ? .queue(Self.deliveryQueue) : .immediate
            let token = manager.loadImage(with: request, delivery: delivery) { event in ledger.record(id, event) }
            cancel = { token.cancel() }
        case .async:
            let task = Task {
                do throws(ImageLoadError) {
                    ledger.complete(id, .from(try await manager.image(for: request), source: nil))
                } catch {
                    ledger.complete(id, .failure(error))
                }
            }
            cancel = { task.cancel() }
        }
        if let delay = load.cancelAfter {
            if delay > .zero { try? await Task.sleep(for: delay) }
            // Also when the load has already completed: that cancel must do nothing.
            cancel()
        }
        await signal.wait()
    }
}
