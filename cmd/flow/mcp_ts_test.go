package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	osexec "os/exec"
	"path/filepath"
	"sort"
	"testing"
	"time"
)

// requireMCPClient makes a missing TypeScript SDK a failure instead of a
// skip; .ci/run sets it after installing the SDK.
const requireMCPClient = "FLOW_REQUIRE_MCP_CLIENT"

// TestMCPWithTheTypeScriptSDK drives `flow mcp` with the reference
// TypeScript SDK's client (testdata/mcp/client.cjs) over stdio: it lists
// the tools and compiles every input schema with Ajv, opens sim, launches
// the demo app, logs in with selectors, pinches with structured input and
// plans the same input, and gets coded tool errors for a removed form, a
// gesture that does not fit and a missing element.
func TestMCPWithTheTypeScriptSDK(t *testing.T) {
	skip := func(why string) {
		t.Helper()
		if os.Getenv(requireMCPClient) != "" {
			t.Fatalf("%s (%s is set)", why, requireMCPClient)
		}
		t.Skip(why + ": install it with npm install --prefix DIR @modelcontextprotocol/sdk@1.32.2 and set FLOW_MCP_SDK_DIR=DIR, as .ci/run does")
	}
	node, err := osexec.LookPath("node")
	if err != nil {
		skip("node is not on PATH")
	}
	sdk := os.Getenv("FLOW_MCP_SDK_DIR")
	if sdk == "" {
		skip("FLOW_MCP_SDK_DIR is not set")
	}
	if _, err := os.Stat(filepath.Join(sdk, "node_modules", "@modelcontextprotocol", "sdk", "package.json")); err != nil {
		skip("no @modelcontextprotocol/sdk under " + sdk)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	script, _ := filepath.Abs("testdata/mcp/client.cjs")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := osexec.CommandContext(ctx, node, script)
	cmd.Env = append(os.Environ(), "FLOW_MCP_SDK_DIR="+sdk, "FLOW_BIN="+self, `FLOW_ARGS=["mcp"]`,
		asCLIEnv+"=1", "FLOW_STATE_DIR="+t.TempDir())
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("the TypeScript client failed: %v\n%s", err, errb.String())
	}
	var seen struct {
		Tools        []string                  `json:"tools"`
		SchemaErrors []string                  `json:"schemaErrors"`
		Calls        map[string]map[string]any `json:"calls"`
	}
	if err := json.Unmarshal(out.Bytes(), &seen); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	sort.Strings(seen.Tools)
	if len(seen.Tools) < 16 || len(seen.SchemaErrors) > 0 {
		t.Fatalf("tools %v, schema errors %v", seen.Tools, seen.SchemaErrors)
	}
	pinch, _ := seen.Calls["pinch"]["data"].(map[string]any)
	plan, _ := seen.Calls["plan"]["plan"].(map[string]any)
	if pinch == nil || plan == nil || pinch["kind"] != plan["intent"] || pinch["durationMs"] != plan["durationMs"] ||
		pinch["pointerCount"] != float64(len(plan["pointers"].([]any))) {
		t.Errorf("the pinch performed %v is not the plan %v", pinch, plan)
	}
	for name, code := range map[string]string{"removed": "INVALID_ARGS", "outOfBounds": "INVALID_ARGS", "missing": "ELEMENT_NOT_FOUND"} {
		e := seen.Calls[name]
		if e["code"] != code || e["message"] == "" || e["hint"] == nil {
			t.Errorf("%s: want a coded %s error with a hint, got %v", name, code, e)
		}
	}
}
