package sim

import (
	"bytes"
	"errors"
	"io"

	"gopkg.in/yaml.v3"

	"github.com/flow-runner/flow/canonical"
)

// LoadApp parses and validates an app model (contracts §7). name is the file
// name errors carry. Every error is INVALID_ARGS with file:line:col and a
// hint: unknown keys (with a did-you-mean), bad bounds, a goto to an unknown
// screen, an action naming an unknown element, duplicate ids on a screen.
func LoadApp(name string, data []byte) (*App, error) {
	d := &decoder{file: name}
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, canonical.NewError(canonical.CodeInvalidArgs, "app model is empty").
				At(canonical.Pos{File: name}).
				WithHint("an app model needs appId, platform, viewport, start and screens")
		}
		return nil, d.syntaxError(err, data)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		at := &extra
		if len(extra.Content) > 0 {
			at = extra.Content[0]
		}
		return nil, d.errorf(at, "keep one app per file; pass several files with --app", "app model has more than one YAML document")
	}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	if !looksLikeApp(root) {
		// Someone's private key or .env file given by mistake: say what
		// the file holds, never what it says.
		return nil, d.errorf(root, "an app model is a YAML or JSON mapping with appId, platform, viewport, start and screens (contracts §7); check that this is the file you meant",
			"%s is not an app model: it holds %s", name, shape(root, data))
	}
	app, err := d.app(root)
	if err != nil {
		return nil, err
	}
	if err := validate(app); err != nil {
		return nil, err
	}
	app.source = append([]byte(nil), data...)
	return app, nil
}

func appKeys() []string {
	return []string{"appId", "platform", "viewport", "start", "screens", "links"}
}

func (d *decoder) app(n *yaml.Node) (*App, error) {
	fs, err := d.mapping(n, "an app model", appKeys())
	if err != nil {
		return nil, err
	}
	app := &App{Pos: d.pos(resolve(n))}
	got := map[string]bool{}
	for _, f := range fs {
		got[f.key] = true
		switch f.key {
		case "appId":
			app.AppID, err = d.name(f.value, "appId")
		case "platform":
			app.Platform, err = d.platform(f.value)
		case "viewport":
			app.Viewport, err = d.viewport(f.value)
		case "start":
			app.Start, err = d.name(f.value, "start")
			app.startPos = d.pos(resolve(f.value))
		case "screens":
			app.Screens, err = d.screens(f.value)
		case "links":
			app.Links, err = d.links(f.value)
		}
		if err != nil {
			return nil, err
		}
	}
	for _, k := range []string{"appId", "platform", "viewport", "start", "screens"} {
		if !got[k] {
			return nil, d.errorf(n, requiredHint(k), "app model has no %s", k)
		}
	}
	return app, nil
}

func requiredHint(key string) string {
	switch key {
	case "appId":
		return "add appId: com.example.app, the id launchApp uses"
	case "platform":
		return "add platform: android or platform: ios, the planning profile for gestures"
	case "viewport":
		return "add viewport: {width: 1080, height: 2400}"
	case "start":
		return "add start: NAME, the screen the app opens on"
	}
	return "add screens: a list of {name, elements}"
}

func (d *decoder) platform(n *yaml.Node) (string, error) {
	s, err := d.text(n, "platform")
	if err != nil {
		return "", err
	}
	if s != "android" && s != "ios" {
		return "", d.errorf(n, "use platform: android or platform: ios", "platform must be android or ios, got %q", s)
	}
	return s, nil
}

func (d *decoder) viewport(n *yaml.Node) (Size, error) {
	fs, err := d.mapping(n, "viewport", []string{"width", "height"})
	if err != nil {
		return Size{}, err
	}
	var s Size
	for _, f := range fs {
		v, err := d.integer(f.value, "viewport "+f.key, 1, 100000)
		if err != nil {
			return Size{}, err
		}
		if f.key == "width" {
			s.Width = v
		} else {
			s.Height = v
		}
	}
	if s.Width == 0 || s.Height == 0 {
		return Size{}, d.errorf(n, "write viewport: {width: 1080, height: 2400}", "viewport needs both width and height")
	}
	return s, nil
}

func (d *decoder) screens(n *yaml.Node) ([]*Screen, error) {
	items, err := d.sequence(n, "screens")
	if err != nil {
		return nil, err
	}
	var out []*Screen
	for _, item := range items {
		fs, err := d.mapping(item, "a screen", []string{"name", "elements"})
		if err != nil {
			return nil, err
		}
		s := &Screen{Pos: d.pos(resolve(item))}
		for _, f := range fs {
			if f.key == "name" {
				s.Name, err = d.name(f.value, "screen name")
			} else {
				s.Elements, err = d.elements(f.value)
			}
			if err != nil {
				return nil, err
			}
		}
		if s.Name == "" {
			return nil, d.errorf(item, "give every screen a name: {name: home, elements: [...]}", "screen has no name")
		}
		out = append(out, s)
	}
	return out, nil
}

func (d *decoder) links(n *yaml.Node) ([]Link, error) {
	r := resolve(n)
	if r == nil || r.Kind != yaml.MappingNode {
		return nil, d.errorf(n, `write links: {"shop://login": login}`, "links must be a mapping of link to screen, got %s", kindName(n))
	}
	return d.linkPairs(r)
}

// linkPairs reads links without the allowed-key check: every key is a URL.
func (d *decoder) linkPairs(n *yaml.Node) ([]Link, error) {
	var fs []field
	seen := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		url, err := d.name(k, "link")
		if err != nil {
			return nil, err
		}
		if first, dup := seen[url]; dup {
			return nil, d.errorf(k, "keep one entry per link", "duplicate link %q (first given at line %d)", url, first.Line)
		}
		seen[url] = k
		fs = append(fs, field{key: url, keyN: k, value: v})
	}
	return d.linksOf(fs)
}

func (d *decoder) linksOf(fs []field) ([]Link, error) {
	var out []Link
	for _, f := range fs {
		screen, err := d.name(f.value, "the screen of link "+f.key)
		if err != nil {
			return nil, err
		}
		out = append(out, Link{URL: f.key, Screen: screen, Pos: d.pos(resolve(f.value))})
	}
	return out, nil
}
