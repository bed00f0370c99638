package maestro

import "strings"

// keyCode is one Maestro key name (§1.4) and its Android key code.
type keyCode struct {
	name string
	code int
}

func keyCodes() []keyCode {
	return []keyCode{
		{"Enter", 66}, {"Backspace", 67}, {"Back", 4}, {"Home", 3}, {"Lock", 276},
		{"Volume Up", 24}, {"Volume Down", 25},
		{"Remote Dpad Up", 19}, {"Remote Dpad Down", 20}, {"Remote Dpad Left", 21}, {"Remote Dpad Right", 22},
		{"Remote Dpad Center", 23}, {"Remote Media Play Pause", 85}, {"Remote Media Stop", 86},
		{"Remote Media Next", 87}, {"Remote Media Previous", 88}, {"Remote Media Rewind", 89},
		{"Remote Media Fast Forward", 90}, {"Escape", 111}, {"Power", 26}, {"Tab", 62},
		{"Remote System Navigation Up", 280}, {"Remote System Navigation Down", 281},
		{"Remote Button A", 96}, {"Remote Button B", 97}, {"Remote Menu", 82},
		{"TV Input", 178}, {"TV Input HDMI 1", 243}, {"TV Input HDMI 2", 244}, {"TV Input HDMI 3", 245},
	}
}

// lookupKey matches a key name case-insensitively against the whole name,
// as Maestro does at load time.
func lookupKey(name string) (keyCode, bool) {
	for _, k := range keyCodes() {
		if strings.EqualFold(k.name, strings.TrimSpace(name)) {
			return k, true
		}
	}
	return keyCode{}, false
}

func keyNames() []string {
	var out []string
	for _, k := range keyCodes() {
		out = append(out, k.name)
	}
	return out
}

// keyAlias maps names other tools use to Maestro's key names.
func keyAlias(name string) (string, bool) {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "return":
		return "Enter", true
	case "delete", "del":
		return "Backspace", true
	case "esc":
		return "Escape", true
	case "volumeup":
		return "Volume Up", true
	case "volumedown":
		return "Volume Down", true
	}
	return "", false
}
