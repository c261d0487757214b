/// A coding key the decoder creates itself, for array positions and `super`.
struct JSONCodingKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }

    init(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }

    /// The key for an array element; the "Index N" spelling matches Foundation's `JSONDecoder`.
    init(index: Int) {
        stringValue = "Index \(index)"
        intValue = index
    }

    static var superKey: JSONCodingKey {
        JSONCodingKey(stringValue: "super")
    }
}
