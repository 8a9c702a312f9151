import Foundation
import ServerTestSupport
import Testing

/// The README's module picture (`### Module layering`) against the code: for every module under `Sources`, the
/// modules of ours the picture lists after its name are exactly those its files import
/// (`grep -rh '^import' Sources/<module>`), and the picture names nothing that is not a module.
@Suite("The README's module picture matches the imports")
struct LayeringReadmeTests {
    static let sources = Snapmap.packageRoot.appendingPathComponent("Sources")

    /// The modules of ours: the folders under `Sources`.
    static func modules() throws -> Set<String> {
        let names = try FileManager.default.contentsOfDirectory(at: sources, includingPropertiesForKeys: [.isDirectoryKey])
            .filter { (try? $0.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true }.map(\.lastPathComponent)
        return Set(names)
    }

    /// The modules among `ours` that some file of `module` imports, as `^import` lines name them.
    static func imports(of module: String, among ours: Set<String>) throws -> Set<String> {
        let folder = sources.appendingPathComponent(module)
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        var found = Set<String>()
        for file in files where file.pathExtension == "swift" {
            for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") where line.hasPrefix("import ") {
                let words = line.split(separator: " ")
                let kinds: Set<Substring> = ["struct", "class", "enum", "protocol", "func", "var", "let", "typealias"]
                let named = words.count > 2 && kinds.contains(words[1]) ? words[2] : words[1]
                let name = String(named.prefix { $0 != "." })
                if ours.contains(name) { found.insert(name) }
            }
        }
        return found
    }

    /// The lines of the README's picture: the first code block after `### Module layering`.
    static func readmePicture() throws -> [Substring] {
        let readme = try String(contentsOf: Snapmap.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        let heading = try #require(lines.firstIndex(of: "### Module layering"), "the README has a `### Module layering` section")
        let open = try #require(lines[heading...].firstIndex { $0.hasPrefix("```") })
        let close = try #require(lines[(open + 1)...].firstIndex { $0.hasPrefix("```") })
        return Array(lines[(open + 1)..<close])
    }

    /// What a picture says each module imports: an entry is a name (an aside in parentheses may follow it), a run
    /// of `─`, then the names it imports, separated by commas, running on over lines that start no entry of their
    /// own; a line may hold several entries; words in parentheses are asides; tree lines (`│ ├─ └─`) are drawing.
    /// A name given two entries is reported.
    static func parse(_ picture: [Substring]) -> (entries: [String: [String]], twice: [String]) {
        let entry = /([A-Za-z][A-Za-z0-9-]*)(?: \([^)]*\))? +─+/
        let aside = /\([^)]*\)/
        let word = /[A-Za-z][A-Za-z0-9-]*/
        var entries: [String: [String]] = [:]
        var twice: [String] = []
        var current: String?
        func add(_ text: Substring, to name: String?) {
            guard let name else { return }
            entries[name, default: []] += text.replacing(aside, with: "").matches(of: word).map { String($0.output) }
        }
        for line in picture {
            var rest = line[...]
            while let head = rest.firstMatch(of: entry) {
                add(rest[..<head.range.lowerBound], to: current)
                let name = String(head.output.1)
                if entries[name] != nil { twice.append(name) }
                entries[name] = []
                current = name
                rest = rest[head.range.upperBound...]
            }
            add(rest, to: current)
        }
        return (entries, twice)
    }

    @Test func theParserReadsEntriesContinuationsAndAsides() {
        let sample: [Substring] = [
            "A (the top) ──── B, C,",
            "                 D   (an aside, E)",
            "  ├─ B ── C       C ── (Foundation only)",
            "  │    └─ D ───── C",
            "B ── E",
        ]
        let (entries, twice) = Self.parse(sample)
        #expect(entries == ["A": ["B", "C", "D"], "B": ["E"], "C": [], "D": ["C"]])
        #expect(twice == ["B"])
    }

    @Test func everyModulesImportsAreWhatThePictureSays() throws {
        let ours = try Self.modules()
        let (entries, twice) = Self.parse(try Self.readmePicture())
        #expect(twice.isEmpty, "modules drawn twice: \(twice)")
        #expect(entries.count >= 20, "the picture's entries were read: \(entries.keys.sorted())")
        let unknown = Set(entries.keys).union(entries.values.joined()).subtracting(ours)
        #expect(unknown.isEmpty, "the picture names what is not a folder of Sources: \(unknown.sorted())")
        for module in ours.sorted() {
            let drawn = entries[module] ?? []
            let imported = try Self.imports(of: module, among: ours)
            #expect(drawn.count == Set(drawn).count, "\(module) lists a module twice: \(drawn)")
            #expect(Set(drawn) == imported, """
                \(module): the README lists \(Set(drawn).subtracting(imported).sorted()) that it does not import, \
                and not \(imported.subtracting(drawn).sorted()) that it does
                """)
        }
    }
}
