import Glibc
import Logging

/// Gives back the pages of the daemon's own code and read-only data that starting touched, once it serves.
///
/// The binary holds 45 MB of code and constant data (the Swift runtime and Foundation are linked in). Starting
/// runs code from all over it (argument parsing, configuration, migrations, ICU's set-up) and the kernel maps the
/// 64 KB around each page it faults in, so 27.8 MB of it stayed resident in a daemon that then ran a fraction of
/// it. They are clean pages of the file, never written: `MADV_PAGEOUT` drops them, and what serving needs comes
/// back on first use (docs/BENCHMARKS.md, "Memory", has the figures).
enum StartupPages {
    /// `MADV_PAGEOUT` (Linux 5.4), which Glibc's module does not name.
    private static let pageOut: Int32 = 21

    /// Drops the resident pages of the executable's code and read-only data; returns the bytes advised.
    ///
    /// Only its executable mapping and the read-only one at the start of the file are advised: the mapping made
    /// read-only after relocation (RELRO) holds written pages, and the shared libraries are shared.
    @discardableResult
    static func release(logger: Logger) -> Int {
        var advised = 0
        for mapping in executableMappings() where mapping.isExecutable || mapping.offset == 0 {
            let start = UnsafeMutableRawPointer(bitPattern: mapping.addresses.lowerBound)
            if madvise(start, Int(mapping.addresses.count), pageOut) == 0 {
                advised += Int(mapping.addresses.count)
            } else {
                logger.debug(
                    "could not give back start-up pages", metadata: ["error": "\(String(cString: strerror(errno)))"])
            }
        }
        return advised
    }

    struct Mapping {
        var addresses: Range<UInt>
        var isExecutable: Bool
        var offset: UInt
    }

    /// The read-only mappings of the running executable, from /proc/self/maps.
    static func executableMappings() -> [Mapping] {
        var path = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &path, Int(PATH_MAX))
        guard length > 0, let maps = fopen("/proc/self/maps", "r") else { return [] }
        defer { fclose(maps) }
        let executable = String(decoding: path[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var mappings: [Mapping] = []
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, maps) > 0, let line {
            // "start-end perms offset device inode path"
            let fields = String(cString: line).split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, fields[5].hasPrefix(executable), fields[1].hasPrefix("r"),
                !fields[1].contains("w")
            else { continue }
            let bounds = fields[0].split(separator: "-")
            guard bounds.count == 2, let lower = UInt(bounds[0], radix: 16), let upper = UInt(bounds[1], radix: 16),
                let offset = UInt(fields[2], radix: 16)
            else { continue }
            mappings.append(Mapping(addresses: lower..<upper, isExecutable: fields[1].contains("x"), offset: offset))
        }
        return mappings
    }
}
