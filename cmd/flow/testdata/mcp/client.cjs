// A real MCP client that is not ours: the reference TypeScript SDK
// (@modelcontextprotocol/sdk, pinned in .ci/run) drives `flow mcp` over
// stdio. Run by cmd/flow TestMCPWithTheTypeScriptSDK with
// FLOW_MCP_SDK_DIR=<folder holding node_modules>, FLOW_BIN and FLOW_ARGS
// (JSON) naming the server to spawn. It prints one JSON object of what it
// saw; the Go test asserts on it, and any exception exits 1.
const path = require('path');
const { createRequire } = require('module');
const sdk = createRequire(path.join(process.env.FLOW_MCP_SDK_DIR, 'node_modules', 'x.js'));
const { Client } = sdk('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = sdk('@modelcontextprotocol/sdk/client/stdio.js');
const Ajv = sdk('ajv');

function text(res) {
  if (!res.content || res.content.length !== 1 || res.content[0].type !== 'text') {
    throw new Error('want one text content item, got ' + JSON.stringify(res));
  }
  return JSON.parse(res.content[0].text);
}

async function main() {
  const transport = new StdioClientTransport({
    command: process.env.FLOW_BIN,
    args: JSON.parse(process.env.FLOW_ARGS),
    env: process.env,
    stderr: 'inherit',
  });
  const client = new Client({ name: 'flow-ts-test', version: '1.0.0' });
  await client.connect(transport);
  const seen = { tools: [], schemaErrors: [], calls: {} };

  const { tools } = await client.listTools();
  const ajv = new Ajv({ strict: false, allErrors: true });
  for (const t of tools) {
    seen.tools.push(t.name);
    try {
      ajv.compile(t.inputSchema);
    } catch (e) {
      seen.schemaErrors.push(t.name + ': ' + e.message);
    }
  }

  const ok = async (name, args) => {
    const res = await client.callTool({ name, arguments: args });
    const out = text(res);
    if (res.isError) throw new Error(name + ' failed: ' + JSON.stringify(out));
    return out;
  };
  const fail = async (name, args) => {
    const res = await client.callTool({ name, arguments: args });
    const out = text(res);
    if (!res.isError) throw new Error(name + ' should have failed: ' + JSON.stringify(out));
    return out;
  };

  await ok('open_device', { device: 'sim' });
  await ok('launch_app', { appId: 'com.example.shop' });
  await ok('press', { selector: 'text="Log in"' });
  await ok('fill', { selector: 'id=email', text: 'ada@example.com' });
  await ok('fill', { selector: 'text=Password', text: 'correct-horse' });
  await ok('press', { selector: 'text=Submit' });
  seen.calls.catalog = await ok('is', { predicate: 'visible', selector: 'text=Catalog' });

  const pinch = { kind: 'pinch', scale: 0.5 };
  seen.calls.pinch = await ok('gesture', { input: pinch });
  seen.calls.plan = await ok('plan_gesture', { input: pinch, platform: 'android' });

  seen.calls.removed = await fail('gesture', { input: { kind: 'fling', direction: 'up', origin: { x: 540, y: 1200 }, durationMs: 300 } });
  seen.calls.outOfBounds = await fail('gesture', { input: { kind: 'pan', origin: { x: 99999, y: 10 }, delta: { x: 10, y: 0 } } });
  seen.calls.missing = await fail('press', { selector: 'text="No such button"' });

  await ok('close_device', {});
  await client.close();
  process.stdout.write(JSON.stringify(seen) + '\n');
}

main().catch((e) => {
  process.stderr.write(String(e && e.stack || e) + '\n');
  process.exit(1);
});
