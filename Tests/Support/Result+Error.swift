extension Result {
    /// The failure, if this is one.
    public var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
