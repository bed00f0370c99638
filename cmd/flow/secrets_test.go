package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// secretMarkers are substrings of the secret files below that no message
// may repeat.
var secretMarkers = []string{"MIIEpAIBAAK", "Zm9vYmFyc2VjcmV0", "hunter2", "sklive", "ghp0secret"}

// secretFiles are files that are neither flows nor app models, each
// holding a secret, in the shapes a user may point flow at by mistake: a
// private key, a .env file, YAML and JSON credentials, a YAML alias
// (whose name yaml.v3 repeats in its error) and a line that starts like
// an .ad command.
func secretFiles(t *testing.T) map[string]string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"key.pem":    "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEAx4Zm9vYmFyc2VjcmV0c2VjcmV0\nZm9vYmFyc2VjcmV0Zm9vYmFyc2VjcmV0Zm9vYmFy\n-----END RSA PRIVATE KEY-----\n",
		".env":       "DB_PASSWORD=hunter2\nAPI_KEY=sklive_123\nexport GH_TOKEN=ghp0secret\n",
		"creds.yaml": "password: hunter2\napi_key: sklive_123\ntokens:\n  - ghp0secret\n",
		"creds.json": `{"password": "hunter2", "token": "sklive_123"}`,
		"alias.yaml": "password: *hunter2\n",
		"list.yaml":  "- hunter2\n- sklive_123\n",
		"token.txt":  "ghp0secret_hunter2_sklive\n",
		"env.ad":     "DB_PASSWORD=hunter2\nAPI_KEY=sklive_123\n",
		"quote.ad":   "TOKEN=\"hunter2 sklive\n",
	}
	out := map[string]string{}
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		out[name] = p
	}
	return out
}

func assertNoSecret(t *testing.T, what, text string) {
	t.Helper()
	for _, m := range secretMarkers {
		if strings.Contains(text, m) {
			t.Errorf("%s repeats the secret %q:\n%s", what, m, text)
		}
	}
}

// TestNoFileContentInMessages: a file that is not a recognised flow or
// app model, given as an app model (--app), a flow (flow test, flow
// check, flow convert), a workspace config or a capabilities file, is
// refused with its shape and position, never its content: the errors on
// stdout and stderr, in --json and in the report do not repeat a byte of
// the secrets it holds.
func TestNoFileContentInMessages(t *testing.T) {
	t.Parallel()
	files := secretFiles(t)
	for name, path := range files {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			report := filepath.Join(t.TempDir(), "report.json")
			runs := [][]string{
				{"test", "--app", path, "../../flows/demo/01-launch.yaml"},
				{"test", "--json", "--app", path, "../../flows/demo/01-launch.yaml"},
				{"test", path, "--output", report},
				{"check", path},
				{"check", "--json", path},
				{"convert", path, "--to", "ad"},
				{"convert", path, "--to", "maestro"},
				{"test", "--config", path, "../../flows/demo"},
				{"test", "--device", "web", "--webdriver-url", "http://127.0.0.1:1", "--capabilities", path, "../../flows/demo/01-launch.yaml"},
			}
			for _, args := range runs {
				r := runFlow(t, "", args...)
				if r.code == 0 && (args[1] == "--app" || args[0] == "check") {
					t.Errorf("flow %v: exit 0 for a file that is not one", args)
				}
				assertNoSecret(t, strings.Join(args, " "), r.String())
			}
			if data, err := os.ReadFile(report); err == nil {
				assertNoSecret(t, "the report", string(data))
			}
		})
	}
	// The error still says what is wrong and where: the app model's
	// shape, at its file and line.
	r := runFlow(t, "", "test", "--app", files["key.pem"], "../../flows/demo/01-launch.yaml")
	if r.code != 2 || !strings.Contains(r.stderr, files["key.pem"]+":1:1") || !strings.Contains(r.stderr, "not an app model") ||
		!strings.Contains(r.stderr, "a single string of") {
		t.Errorf("want exit 2 describing the key file's shape at its position, got\n%s", r)
	}
	r = runFlow(t, "", "test", "--app", files["creds.yaml"], "../../flows/demo/01-launch.yaml")
	if r.code != 2 || !strings.Contains(r.stderr, "a mapping of 3 keys") {
		t.Errorf("want exit 2 describing the mapping, got\n%s", r)
	}
}

// TestMCPOpenDeviceKeepsFileContentOut: open_device with an app model
// that is a secret file answers with a tool error that describes the
// file, never its content.
func TestMCPOpenDeviceKeepsFileContentOut(t *testing.T) {
	files := secretFiles(t)
	h := startMCP(t)
	for name, path := range files {
		out := h.mustFail("open_device", map[string]any{"device": "sim", "apps": []any{path}}, "INVALID_ARGS")
		text, _ := json.Marshal(out)
		assertNoSecret(t, "open_device with "+name, string(text))
	}
	for _, name := range []string{"key.pem", ".env", "creds.yaml"} {
		out, _ := h.call("check_flows", map[string]any{"paths": []any{files[name]}})
		text, _ := json.Marshal(out)
		assertNoSecret(t, "check_flows of "+name, string(text))
		out, _ = h.call("convert", map[string]any{"path": files[name], "to": "maestro"})
		text, _ = json.Marshal(out)
		assertNoSecret(t, "convert of "+name, string(text))
	}
	assertNoSecret(t, "the server's stderr", h.stderr.String())
}
