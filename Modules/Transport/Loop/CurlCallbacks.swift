import CLibCurl
import CWebImageTransport

/// The C entry points libcurl and OpenSSL call. Each finds its transfer through the
/// unretained pointer it was given (see ``TransferState``).
enum CurlCallbacks {
    static let write: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = {
        data, size, count, context in
        guard let context else { return 0 }
        let state = Unmanaged<TransferState>.fromOpaque(context).takeUnretainedValue()
        return state.receiveBody(UnsafeRawBufferPointer(start: data, count: size * count))
    }

    static let header: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = {
        data, size, count, context in
        guard let context else { return 0 }
        let state = Unmanaged<TransferState>.fromOpaque(context).takeUnretainedValue()
        return state.receiveHeaderLine(UnsafeRawBufferPointer(start: data, count: size * count))
    }

    static let requestReady: @convention(c) (UnsafeMutableRawPointer?) -> Void = { context in
        guard let context else { return }
        Unmanaged<TransferState>.fromOpaque(context).takeUnretainedValue().requestReady()
    }

    /// Registers ``requestReady`` with the C hook, once per process.
    static let requestReadyRegistered: Bool = {
        wi_request_ready_set_callback(requestReady)
        return true
    }()

    static let trust: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Int32 = {
        context, storeContext in
        guard let context, let storeContext else { return 0 }
        let state = Unmanaged<TransferState>.fromOpaque(context).takeUnretainedValue()
        return state.evaluateTrust(storeContext: storeContext) ? 1 : 0
    }

    /// Registers ``trust`` with the C hook, once per process.
    static let trustHookRegistered: Bool = {
        wi_trust_set_evaluator(trust)
        return true
    }()

    static let addressCheck: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<UInt8>?, Int) -> Int32 = {
        context, address, length in
        guard let context, let address else { return 0 }
        let state = Unmanaged<TransferState>.fromOpaque(context).takeUnretainedValue()
        return state.mayConnect(to: UnsafeBufferPointer(start: address, count: length)) ? 1 : 0
    }

    /// Registers ``addressCheck`` with the C hook, once per process.
    static let addressCheckRegistered: Bool = {
        wi_address_set_checker(addressCheck)
        return true
    }()
}
