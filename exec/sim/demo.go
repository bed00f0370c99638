package sim

import _ "embed"

// shopYAML is the demo shop app that flows/ and the README demo run against.
//
//go:embed apps/shop.yaml
var shopYAML []byte

// DemoAppFile is the name the demo app's errors and positions carry.
const DemoAppFile = "exec/sim/apps/shop.yaml"

// DemoApp is the built-in shop app (com.example.shop), always installed on
// a sim device. It is parsed on every call, so callers may keep or change
// their copy.
func DemoApp() *App {
	app, err := LoadApp(DemoAppFile, shopYAML)
	if err != nil {
		// The file is embedded and pinned by tests; failing here means the
		// binary was built from a broken tree.
		panic("sim: built-in demo app does not load: " + err.Error())
	}
	return app
}

// DemoAppYAML is the demo app's source, for users who want to copy it as
// a starting point for their own model.
func DemoAppYAML() []byte { return append([]byte(nil), shopYAML...) }
