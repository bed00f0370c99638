package adb

import (
	"context"
	"strings"
)

// DeviceEntry is one line of the server's device list (host:devices-l).
type DeviceEntry struct {
	Serial string `json:"serial"`
	// State is the server's word for the connection: "device" (usable),
	// "offline", "unauthorized", "authorizing", "connecting", "recovery",
	// "bootloader", "sideload", "no permissions", …
	State       string `json:"state"`
	Product     string `json:"product,omitempty"`
	Model       string `json:"model,omitempty"`
	Device      string `json:"device,omitempty"`
	TransportID string `json:"transportId,omitempty"`
}

// Online reports whether commands can run on the device.
func (d DeviceEntry) Online() bool { return d.State == "device" }

// Devices lists every device the server knows, in its order, whatever
// their state: an offline or unauthorized device is listed so callers can
// name it instead of reporting "no device".
func (c *Client) Devices(ctx context.Context) ([]DeviceEntry, error) {
	s, err := c.query(ctx, "", "host:devices-l")
	if err != nil {
		return nil, err
	}
	return ParseDevices(s), nil
}

// ParseDevices reads host:devices-l text. Each line is the serial, the
// state, then space-separated attributes (usb:…, product:…, model:…,
// device:…, transport_id:…), as adb's transport.cpp append_transport
// writes them; the state "no permissions" is followed by an explanation
// in free text, which is skipped.
func ParseDevices(s string) []DeviceEntry {
	var out []DeviceEntry
	for _, line := range strings.Split(s, "\n") {
		fields := strings.Fields(line)
		if len(fields) < 2 {
			continue
		}
		d := DeviceEntry{Serial: fields[0], State: fields[1]}
		rest := fields[2:]
		if d.State == "no" && len(rest) > 0 && rest[0] == "permissions" {
			d.State = "no permissions"
		}
		for _, f := range rest {
			k, v, ok := strings.Cut(f, ":")
			if !ok {
				continue
			}
			switch k {
			case "product":
				d.Product = v
			case "model":
				d.Model = v
			case "device":
				d.Device = v
			case "transport_id":
				d.TransportID = v
			}
		}
		out = append(out, d)
	}
	return out
}
