// flow studio's page: plain JavaScript, no build step. Every request
// carries the token the page was opened with (?token=…), when there is one.
"use strict";
(function () {
  const token = new URLSearchParams(location.search).get("token") || "";
  const $ = (id) => document.getElementById(id);
  let nodes = [];        // index -> {node, row}
  let viewport = null;
  let picked = -1;
  let passed = [];       // Maestro steps that passed, in order
  let flowVersion = 0;

  function api(path, opts) {
    opts = opts || {};
    opts.headers = Object.assign({}, opts.headers || {});
    if (token) opts.headers["Authorization"] = "Bearer " + token;
    return fetch(path, opts);
  }

  async function json(path, opts) {
    const r = await api(path, opts);
    const body = await r.json().catch(() => ({ error: { code: "INTERNAL", message: "flow studio answered " + r.status } }));
    if (body.error && r.status === 503) deviceLost(body.error);
    return body;
  }

  function errorText(e) {
    return e.code + ": " + e.message + (e.hint ? "\nhint: " + e.hint : "");
  }

  function deviceLost(e) {
    const el = $("device-error");
    el.textContent = errorText(e);
    el.hidden = false;
    $("reconnect").hidden = false;
  }

  function deviceBack() {
    $("device-error").hidden = true;
    $("reconnect").hidden = true;
  }

  async function refresh() {
    const h = await json("/api/hierarchy");
    if (h.error) { if (!$("reconnect").hidden) return; showError($("result"), h.error); return; }
    deviceBack();
    viewport = h.viewport;
    renderTree(h.root);
    const r = await api("/api/screenshot");
    if (r.ok) {
      const blob = await r.blob();
      const old = $("screen").src;
      $("screen").src = URL.createObjectURL(blob);
      if (old) URL.revokeObjectURL(old);
    } else {
      const body = await r.json().catch(() => null);
      if (body && body.error && r.status === 503) deviceLost(body.error);
    }
    if (picked >= 0 && picked < nodes.length) pick(picked); else { picked = -1; $("pick-box").hidden = true; }
  }

  function label(n) {
    const parts = [];
    if (n.id) parts.push("#" + n.id);
    const t = n.text || n.label || n.hint;
    if (t) parts.push(JSON.stringify(t));
    return parts.join(" ");
  }

  function renderTree(root) {
    const box = $("hierarchy");
    box.textContent = "";
    nodes = [];
    const walk = (n, depth) => {
      const row = document.createElement("div");
      row.className = "node";
      row.dataset.testid = "node";
      row.setAttribute("data-testid", "node");
      row.dataset.i = n.i;
      if (n.selector) row.setAttribute("data-selector", n.selector);
      row.style.paddingLeft = (depth * 12 + 4) + "px";
      const cls = document.createElement("span");
      cls.className = "cls";
      cls.textContent = (n.class || "node").split(".").pop() + " ";
      row.appendChild(cls);
      row.appendChild(document.createTextNode(label(n)));
      row.addEventListener("mouseenter", () => hover(n.i));
      row.addEventListener("mouseleave", () => hover(-1));
      row.addEventListener("click", () => pick(n.i));
      box.appendChild(row);
      nodes[n.i] = { node: n, row: row };
      (n.children || []).forEach((c) => walk(c, depth + 1));
    };
    walk(root, 0);
  }

  // place sets a box over an element's bounds on the screenshot, scaled
  // from the device's viewport to the image as shown.
  function place(box, n) {
    const img = $("screen");
    if (!n || !n.bounds || !viewport || !img.clientWidth) { box.hidden = true; return; }
    const sx = img.clientWidth / viewport.width, sy = img.clientHeight / viewport.height;
    const b = n.bounds;
    box.style.left = ((b.x - (viewport.x || 0)) * sx) + "px";
    box.style.top = ((b.y - (viewport.y || 0)) * sy) + "px";
    box.style.width = (b.width * sx) + "px";
    box.style.height = (b.height * sy) + "px";
    box.hidden = false;
  }

  let hovered = -1;
  function hover(i) {
    if (hovered >= 0 && nodes[hovered]) nodes[hovered].row.classList.remove("hover");
    hovered = i;
    if (i < 0 || !nodes[i]) { $("hover-box").hidden = true; return; }
    nodes[i].row.classList.add("hover");
    place($("hover-box"), nodes[i].node);
  }

  // at is the smallest element with bounds under a point of the screen.
  function at(ev) {
    const img = $("screen");
    if (!viewport) return -1;
    const r = img.getBoundingClientRect();
    const x = (ev.clientX - r.left) * viewport.width / r.width + (viewport.x || 0);
    const y = (ev.clientY - r.top) * viewport.height / r.height + (viewport.y || 0);
    let best = -1, area = Infinity;
    nodes.forEach((e, i) => {
      const b = e && e.node.bounds;
      if (!b || x < b.x || y < b.y || x >= b.x + b.width || y >= b.y + b.height) return;
      if (b.width * b.height <= area) { best = i; area = b.width * b.height; }
    });
    return best;
  }

  function pick(i) {
    if (picked >= 0 && nodes[picked]) nodes[picked].row.classList.remove("picked");
    picked = i;
    const e = nodes[i];
    if (!e) return;
    e.row.classList.add("picked");
    e.row.scrollIntoView({ block: "nearest" });
    place($("pick-box"), e.node);
    const n = e.node, dl = $("attributes");
    dl.textContent = "";
    const b = n.bounds ? "[" + n.bounds.x + "," + n.bounds.y + " " + n.bounds.width + "×" + n.bounds.height + "]" : "";
    [["text", n.text || ""], ["id", n.id || ""], ["label", n.label || ""], ["hint", n.hint || ""], ["class", n.class || ""],
     ["bounds", b], ["enabled", n.enabled], ["checked", n.checked], ["focused", n.focused], ["selected", n.selected]]
      .forEach(([k, v]) => {
        const dt = document.createElement("dt"); dt.textContent = k;
        const dd = document.createElement("dd"); dd.textContent = String(v); dd.dataset.attr = k;
        dl.appendChild(dt); dl.appendChild(dd);
      });
    suggest(i);
  }

  async function suggest(i) {
    const ul = $("selectors");
    ul.textContent = "";
    const s = await json("/api/suggest?i=" + i);
    if (s.error) { showError(ul, s.error); return; }
    if (!s.suggestions.length) {
      const li = document.createElement("li");
      li.textContent = "No selector finds this element alone: tap it by point, or pick a parent.";
      ul.appendChild(li);
    }
    s.suggestions.forEach((sg) => {
      const li = document.createElement("li");
      li.setAttribute("data-testid", "suggestion");
      li.dataset.kind = sg.kind;
      const pre = document.createElement("pre"); pre.textContent = sg.yaml;
      const copy = document.createElement("button"); copy.textContent = "Copy YAML";
      copy.addEventListener("click", () => {
        // The clipboard API needs a secure context: loopback is one, a LAN
        // address is not; there the YAML is selected for Ctrl+C instead.
        if (navigator.clipboard && window.isSecureContext) { navigator.clipboard.writeText(sg.yaml); return; }
        const range = document.createRange(); range.selectNodeContents(pre);
        const sel = window.getSelection(); sel.removeAllRanges(); sel.addRange(range);
      });
      const use = document.createElement("button"); use.textContent = "Use in tapOn";
      use.setAttribute("data-testid", "use");
      use.addEventListener("click", () => { $("command").value = sg.command; });
      const assert = document.createElement("button"); assert.textContent = "Use in assertVisible";
      assert.addEventListener("click", () => { $("command").value = sg.command.replace(/^tapOn:/, "assertVisible:"); });
      li.appendChild(document.createTextNode(sg.kind + " "));
      li.appendChild(copy); li.appendChild(use); li.appendChild(assert); li.appendChild(pre);
      ul.appendChild(li);
    });
  }

  function showError(el, e) {
    el.textContent = "";
    const p = document.createElement("pre");
    p.className = "failed";
    p.textContent = errorText(e);
    el.appendChild(p);
  }

  async function run() {
    const cmd = $("command").value;
    const btn = $("run");
    btn.disabled = true;
    $("result").textContent = "running…";
    try {
      const r = await json("/api/run", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ command: cmd }) });
      const out = $("result");
      out.textContent = "";
      if (r.error && !r.status) {
        showError(out, r.error);
        out.firstChild.setAttribute("data-status", "error");
        return;
      }
      const line = document.createElement("div");
      line.className = r.status;
      line.setAttribute("data-status", r.status);
      line.textContent = (r.status === "failed" ? "✗ " : "✓ ") + r.status + " in " + r.durationMs + " ms";
      out.appendChild(line);
      if (r.error) {
        const p = document.createElement("pre"); p.className = "failed"; p.textContent = errorText(r.error);
        out.appendChild(p);
      }
      if (r.kind === "ad") {
        // What an append would write for the line, or why it cannot.
        const p = document.createElement("pre");
        if (r.yaml) {
          p.setAttribute("data-testid", "ad-yaml");
          p.textContent = "appends as:\n" + r.yaml.join("\n");
        } else if (r.appendError) {
          p.setAttribute("data-testid", "append-error");
          p.className = "failed";
          p.textContent = "cannot be appended to a Maestro flow: " + errorText(r.appendError);
        }
        if (p.textContent) out.appendChild(p);
      }
      if (r.status !== "failed") { passed.push({ kind: r.kind, step: r.step, yaml: r.yaml }); renderSteps(); }
    } finally {
      btn.disabled = false;
      await refresh();
    }
  }

  function renderSteps() {
    const ul = $("steps");
    ul.textContent = "";
    passed.forEach((p) => {
      const li = document.createElement("li");
      if (p.kind === "ad" && p.yaml) li.textContent = p.step + "   →   " + p.yaml.join("\n");
      else li.textContent = p.step + (p.kind === "ad" ? "   (no Maestro form: not appendable)" : "");
      ul.appendChild(li);
    });
    $("append").disabled = !passed.some(appendable);
  }

  // An .ad line goes to the server as typed: it appends the Maestro steps
  // the line converts to, the ones shown here.
  function appendable(p) { return p.kind === "yaml" || !!p.yaml; }

  async function append() {
    const steps = passed.filter(appendable).map((p) => p.step);
    const r = await json("/api/append", { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ file: $("flow-file").value, steps: steps }) });
    const out = $("append-result");
    if (r.error) { showError(out, r.error); return; }
    out.textContent = "appended " + r.appended.length + " step(s) to " + r.file;
    out.className = "passed";
    const pre = document.createElement("pre");
    pre.setAttribute("data-testid", "appended");
    pre.textContent = r.appended.join("\n");
    out.appendChild(pre);
    passed = passed.filter((p) => !appendable(p));
    renderSteps();
    $("flow-text").textContent = r.text;
    $("undo-append").disabled = false;
  }

  // undoAppend drops the steps of the last append; the server refuses
  // when the file changed since, so an edit is never lost.
  async function undoAppend() {
    const r = await json("/api/undo", { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    const out = $("append-result");
    $("undo-append").disabled = true;
    if (r.error) { showError(out, r.error); return; }
    out.textContent = "undid the last append to " + r.file;
    out.className = "passed";
    $("flow-text").textContent = r.text;
  }

  // watchFlow long-polls the flow file: an edit made elsewhere shows here.
  async function watchFlow() {
    for (;;) {
      try {
        const f = await json("/api/flow?version=" + flowVersion + "&file=" + encodeURIComponent($("flow-file").value));
        if (f.version !== undefined) {
          flowVersion = f.version;
          if (!$("flow-file").value && f.file) $("flow-file").value = f.file;
          $("flow-text").textContent = f.text;
          $("flow-text").dataset.version = f.version;
        }
      } catch (e) {
        await new Promise((res) => setTimeout(res, 1000));
      }
    }
  }

  async function reconnect() {
    $("reconnect").disabled = true;
    try {
      const r = await json("/api/reconnect", { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
      if (!r.error) { deviceBack(); await refresh(); }
    } finally {
      $("reconnect").disabled = false;
    }
  }

  $("screen").addEventListener("mousemove", (ev) => hover(at(ev)));
  $("screen").addEventListener("mouseleave", () => hover(-1));
  $("screen").addEventListener("click", (ev) => { const i = at(ev); if (i >= 0) pick(i); });
  $("refresh").addEventListener("click", refresh);
  $("reconnect").addEventListener("click", reconnect);
  $("run").addEventListener("click", run);
  $("append").addEventListener("click", append);
  $("undo-append").addEventListener("click", undoAppend);
  $("command").addEventListener("keydown", (ev) => { if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) run(); });
  $("flow-file").addEventListener("change", () => { flowVersion = -1; });
  fetchInitial();
  async function fetchInitial() {
    const f = await json("/api/flow?version=-1");
    if (f.file) $("flow-file").value = f.file;
    if (f.text !== undefined) { $("flow-text").textContent = f.text; flowVersion = f.version; }
    watchFlow();
    refresh();
  }
})();
