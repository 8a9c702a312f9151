import LiveMap

/// `/v1/me/birthday`: the signed-in person's birthday (`MM-DD`), which their friends see in their friends list.
extension MapAPI {
    func birthday(_ me: PersonID, _ request: HTTPRequest) throws -> HTTPResponse {
        if request.method == "PUT" {
            if let wait = writeLimiter.take(me.rawValue) { return Self.tooMany(wait) }
            let body = try JSONBody.decode(MeBodies.BirthdayBody.self, from: request.body)
            try live.setBirthday(me, body.birthday.map { text throws(LiveMapError) in try Birthday(parsing: text) })
        }
        let answer = MeBodies.BirthdayBody(birthday: try live.birthday(of: me)?.description)
        return try Self.encoded(answer, status: 200, headers: [("Cache-Control", "private, no-store")])
    }
}
