import ServiceLifecycle
import WebImageManager

/// An `ImageManager` as a swift-service-lifecycle `Service`: it runs until the service
/// group's graceful shutdown, then stops the manager the graceful way
/// (`ImageManager.shutdown(gracePeriod:)`): new loads fail with `.shutdown`, the loads
/// under way get the grace period to finish and the rest are cancelled, and the disk
/// cache's waiting writes are written before `run()` returns.
///
/// ```swift
/// let images = ImageManagerService(manager: manager, gracePeriod: .seconds(5))
/// let group = ServiceGroup(services: [server, images], gracefulShutdownSignals: [.sigterm], logger: logger)
/// try await group.run()
/// ```
///
/// Put it after the services that load images in the group's list: a group shuts its
/// services down in reverse order, so request handlers stop before the manager does.
/// Cancelled instead of shut down gracefully (the group's task cancelled), it stops the
/// manager with no grace period.
public struct ImageManagerService: Service {
    public let manager: ImageManager
    public let gracePeriod: Duration

    public init(manager: ImageManager, gracePeriod: Duration = .seconds(10)) {
        self.manager = manager
        self.gracePeriod = gracePeriod
    }

    public func run() async throws {
        do {
            try await gracefulShutdown()
            await manager.shutdown(gracePeriod: gracePeriod)
        } catch {
            // Cancelled: no time to wait for loads, but the writes are still flushed.
            await manager.shutdown(gracePeriod: .zero)
        }
    }
}
