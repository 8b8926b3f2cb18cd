/// An option's arguments, the pieces after its name, indexed from 0 however they were
/// sliced: dropping leading arguments copies nothing.
struct OptionArguments: RandomAccessCollection, Sendable {
    private let pieces: ArraySlice<Substring>

    init(_ pieces: ArraySlice<Substring>) { self.pieces = pieces }

    var startIndex: Int { 0 }
    var endIndex: Int { pieces.count }
    subscript(position: Int) -> Substring { pieces[pieces.startIndex + position] }

    /// The arguments after the first `count`, still indexed from 0.
    func dropping(_ count: Int) -> OptionArguments { OptionArguments(pieces.dropFirst(count)) }
}
