import Foundation

/// Maestro's iOS launch arguments (IOSLaunchArguments.kt): a boolean keeps
/// its key as is; any other key gets a "-" unless it has one; each pair is
/// flattened to key, value text — "-port 8080" reads as NSUserDefaults'
/// argument domain on the app's side. Keys keep the order they came in.
func launchArguments(_ members: [(String, JSON)]) throws -> [String] {
    var out: [String] = []
    for (key, value) in members {
        switch value {
        case let .bool(b):
            out += [key, b ? "true" : "false"]
        case let .number(n):
            out += [dashed(key), JSON.format(n)]
        case let .string(s):
            out += [dashed(key), s]
        default:
            throw RunnerError.invalidArgs("launch: argument \"\(key)\" must be a string, a number or a boolean",
                                          hint: "Maestro passes only those to an iOS app")
        }
    }
    return out
}

func dashed(_ key: String) -> String { key.hasPrefix("-") ? key : "-" + key }
