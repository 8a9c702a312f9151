import Foundation
import Testing

/// The README's HTTP section says what the contract says: its table of signed-in endpoints names exactly the
/// contract's `/v1/me` operations, and every public path it lists is in the contract.
@Suite("The README's API tables and the contract agree")
struct ContractReadmeTests {
    /// The lines of the README's `### HTTP` section, up to the next heading.
    static func httpSection() throws -> [Substring] {
        let readme = try String(contentsOf: Contract.root.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex(of: "### HTTP"))
        let end = lines[(start + 1)...].firstIndex { $0.hasPrefix("#") } ?? lines.endIndex
        return Array(lines[start..<end])
    }

    /// The backquoted spans of a line.
    static func spans(_ line: Substring) -> [String] {
        line.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    /// A path as the README writes it (`/v1/me/hit?at=X,Y`, `/v1/me/fly.png?friend=ID[&fps=30\|60]`) without its query.
    static func bare(_ path: String) -> String {
        String(path.prefix { $0 != "?" && $0 != "[" })
    }

    /// A table row's first column (a `\|` inside it is a pipe of the text, not the column's end).
    static func firstColumn(_ line: Substring) -> Substring {
        var end = line.index(line.startIndex, offsetBy: 1)
        while end < line.endIndex, line[end] != "|" || line[line.index(before: end)] == "\\" { end = line.index(after: end) }
        return line[line.index(after: line.startIndex)..<end]
    }

    /// "METHOD /path" of each row of the table whose first column starts with a method: the methods of a row apply to
    /// each of its paths.
    static func tableRoutes(_ section: [Substring]) -> Set<String> {
        var routes = Set<String>()
        for line in section where line.hasPrefix("| `") {
            let first = firstColumn(line)
            var methods: [String] = []
            var paths: [String] = []
            for span in spans(first) {
                let words = span.split(separator: " ", maxSplits: 1).map(String.init)
                if words[0].allSatisfy(\.isUppercase) { methods.append(words[0]) }
                if let path = words.last, path.hasPrefix("/") { paths.append(bare(path)) }
            }
            for method in methods { for path in paths { routes.insert(method + " " + path) } }
        }
        return routes
    }

    @Test func theSignedInTableNamesExactlyTheContractsOperations() throws {
        let contract = try Contract()
        let documented = contract.routes.filter { $0.contains(" /v1/me") && !$0.hasPrefix("HEAD ") }
        let table = Self.tableRoutes(try Self.httpSection())
        #expect(table == documented, "README only: \(table.subtracting(documented).sorted()); contract only: \(documented.subtracting(table).sorted())")
    }

    @Test func everyPublicPathTheREADMEListsIsInTheContract() throws {
        let contract = try Contract()
        let section = try Self.httpSection()
        let start = try #require(section.firstIndex { $0.contains("Public: `") })
        let paragraph = section[start...].prefix { !$0.isEmpty }.joined(separator: " ")
        let paths = Self.spans(Substring(paragraph)).filter { $0.hasPrefix("/") && !$0.contains("…") }.map(Self.bare)
        #expect(paths.count >= 7)
        for path in paths { #expect(contract.template(of: path) != nil, "\(path) is listed as public in the README but not in the contract") }
    }
}
