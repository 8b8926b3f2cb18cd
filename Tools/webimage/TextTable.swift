/// A plain-text table with aligned columns, for people reading a terminal. Numbers are
/// right-aligned so their digits line up; the last column is never padded, so a long
/// error message does not push trailing spaces into every row.
struct TextTable {
    let header: [String]
    /// Indices of the columns aligned to the right.
    let rightAligned: Set<Int>
    private(set) var rows: [[String]] = []

    init(header: [String], rightAligned: Set<Int> = []) {
        self.header = header
        self.rightAligned = rightAligned
    }

    mutating func append(_ row: [String]) {
        precondition(row.count == header.count, "a table row needs one cell per column")
        rows.append(row)
    }

    /// The table, one line per row after the header, columns two spaces apart.
    func render() -> String {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            row.indices.map { column -> String in
                let cell = row[column]
                if column == row.count - 1, !rightAligned.contains(column) { return cell }
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return rightAligned.contains(column) ? padding + cell : cell + padding
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }.joined(separator: "\n")
    }
}

extension String {
    /// Without the spaces at the end (a row whose last cell is empty).
    fileprivate func trimmingTrailingSpaces() -> String {
        var end = endIndex
        while end > startIndex, self[index(before: end)] == " " { end = index(before: end) }
        return String(self[..<end])
    }
}
