import Foundation

extension JSONBody {
    /// Refuses a body whose objects name a key twice (`{"on":false,"on":true}`): JSON leaves the meaning open,
    /// and readers differ (Foundation keeps the first, many others the last), so neither is guessed. Run on a body
    /// that decoded; the error names the repeated field with its path.
    static func refuseRepeatedKeys(_ body: [UInt8]) throws {
        struct Level {
            let isObject: Bool
            let path: String
            var keys: Set<String> = []
            var expectsKey: Bool
            var index = 0
        }
        var stack: [Level] = []
        var lastKey = ""
        var at = 0
        while at < body.count {
            switch body[at] {
            case UInt8(ascii: "\""):
                let start = at
                at += 1
                while at < body.count, body[at] != UInt8(ascii: "\"") { at += body[at] == UInt8(ascii: "\\") ? 2 : 1 }
                guard var top = stack.last, top.isObject, top.expectsKey else { break }
                let quoted = Data(body[start...min(at, body.count - 1)])
                let key = (try? JSONSerialization.jsonObject(with: quoted, options: .fragmentsAllowed) as? String) ?? ""
                let field = top.path.isEmpty ? key : top.path + "." + key
                guard top.keys.insert(key).inserted else { throw invalid(String(field.prefix(80)), "appears more than once") }
                top.expectsKey = false
                stack[stack.count - 1] = top
                lastKey = field
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = body[at] == UInt8(ascii: "{")
                let path = stack.last.map { $0.isObject ? lastKey : "\($0.path)[\($0.index)]" } ?? ""
                stack.append(Level(isObject: isObject, path: path, expectsKey: isObject))
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                stack.removeLast()
            case UInt8(ascii: ","):
                guard !stack.isEmpty else { break }
                stack[stack.count - 1].expectsKey = stack[stack.count - 1].isObject
                stack[stack.count - 1].index += 1
            default:
                break
            }
            at += 1
        }
    }
}
