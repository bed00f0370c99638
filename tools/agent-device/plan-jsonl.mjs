#!/usr/bin/env node
// agent-device 0.21.5's answer to `flow plan --jsonl`, for the whole-process
// side-by-side benchmark (bench/plan-jsonl-side-by-side.sh). agent-device has
// no device-free planning command, so this does with agent-device's own
// modules what its daemon does for a gesture request, minus the device:
//
//   read stdin, split lines, and for each non-blank line
//   {"input":<structured input>,"viewport":{x,y,width,height},"platform":"..."}:
//     JSON.parse the line,
//     script.js E   public structured input -> normalized input,
//     script.js S   normalized input -> planner intent,
//     gesture-plan.js n   planGesture(intent, viewport, platform),
//   and write {"plan":<plan>} or {"error":{"code","message","details"?}} as
//   one JSON line, in order, to stdout (JSON.stringify; written in 64 KB
//   chunks, as flow writes in batches).
//
// Usage: AGENT_DEVICE_DIR=<install>/node_modules/agent-device node plan-jsonl.mjs < inputs.jsonl

import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

function fail(msg) {
  process.stderr.write(`plan-jsonl: ${msg}\n`);
  process.exit(1);
}

const adDir = process.env.AGENT_DEVICE_DIR;
if (!adDir) fail('AGENT_DEVICE_DIR must point at an installed agent-device package');
const src = path.join(adDir, 'dist', 'src');
const { n: planGesture } = await import(pathToFileURL(path.join(src, 'gesture-plan.js')).href);
const { E: normalizeInput, S: toPlannerIntent } = await import(pathToFileURL(path.join(src, 'script.js')).href);
const { C: AppError } = await import(pathToFileURL(path.join(src, 'sdk-contracts.js')).href);
for (const [name, fn] of Object.entries({ planGesture, normalizeInput, toPlannerIntent, AppError })) {
  if (typeof fn !== 'function') fail(`agent-device binding ${name} is not a function`);
}

function answer(text) {
  try {
    const line = JSON.parse(text);
    const intent = toPlannerIntent(normalizeInput(line.input));
    return { plan: planGesture(intent, line.viewport, line.platform) };
  } catch (e) {
    if (e instanceof AppError) {
      return { error: { code: e.code, message: e.message, ...(e.details === undefined ? {} : { details: e.details }) } };
    }
    return { error: { code: 'JS_EXCEPTION', message: String(e) } };
  }
}

// Writes all of s to stdout, also when stdout is a non-blocking pipe.
function writeAll(s) {
  const b = Buffer.from(s);
  for (let off = 0; off < b.length;) {
    try {
      off += fs.writeSync(1, b, off);
    } catch (e) {
      if (e.code !== 'EAGAIN') throw e;
    }
  }
}

const out = [];
let pending = 0;
for (const text of fs.readFileSync(0, 'utf8').split('\n')) {
  if (text.trim() === '') continue;
  const s = JSON.stringify(answer(text)) + '\n';
  out.push(s);
  pending += s.length;
  if (pending >= 64 * 1024) {
    writeAll(out.join(''));
    out.length = 0;
    pending = 0;
  }
}
if (out.length > 0) writeAll(out.join(''));
