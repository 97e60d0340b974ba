/* podgroup-plan's HTML report: the map's tooltip, keyboard moves, colour switch and group
   highlight. Reads the plan from #report-data; asks nothing of the network. */
(function () {
  "use strict";
  var DATA = JSON.parse(document.getElementById("report-data").textContent);
  var PALETTE = ["#f7fbff", "#deebf7", "#c6dbef", "#9ecae1", "#6baed6", "#4292c6", "#2171b5", "#08519c", "#08306b"];
  var NONE = "#e0e0e0";
  var CODES = DATA.codes;
  var maps = {};
  DATA.maps.forEach(function (m) { maps[m.key] = m; });
  var tip = document.getElementById("tip");
  var M_CPU = 0, M_MEM = 1, M_GPU = 2, M_PODS = 3;
  var NAMES = ["CPU", "memory", "GPU", "pods"];

  function amount(k, v) {
    if (k === M_CPU) { return (v / 1000).toLocaleString("en-US", {maximumFractionDigits: 3}); }
    if (k === M_MEM) { return (v / 1073741824).toFixed(1) + "Gi"; }
    return String(v);
  }
  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c];
    });
  }
  function cellsOf(key) { return document.querySelectorAll('.map[data-map="' + key + '"] .cell'); }
  function keyOf(cell) { return cell.closest(".map").getAttribute("data-map"); }
  function nodeOf(cell) { return maps[keyOf(cell)].nodes[+cell.getAttribute("data-i")]; }

  function details(node, gpu) {
    var rows = "";
    for (var k = 0; k < 4; k++) {
      if (k === M_GPU && !gpu) { continue; }
      rows += "<tr><th scope=\"row\">" + NAMES[k] + (k === M_GPU ? " (" + esc(gpu) + ")" : "") +
        "</th><td class=\"num\">" + amount(k, node[4][k]) + "</td><td class=\"num\">" + amount(k, node[5][k]) +
        "</td><td class=\"num\">" + amount(k, node[3][k]) + "</td></tr>";
    }
    var pods = node[6], parts = [], counts = {r: 0, n: 0, e: 0, m: 0};
    for (var i = 0; i < pods.length; i++) {
      counts[pods[i][1]] += 1;
      if (parts.length < 40) { parts.push(esc(pods[i][0]) + (pods[i][1] === "r" ? "" : " <em>(" + CODES[pods[i][1]] + ")</em>")); }
    }
    var more = pods.length > parts.length ? ", … +" + (pods.length - parts.length) + " more" : "";
    var where = [node[1], node[2]].filter(function (x) { return x !== null; }).map(esc).join(" / ");
    return "<strong>" + esc(node[0]) + "</strong>" + (where ? " <span class=\"count\">" + where + "</span>" : "") +
      "<table><thead><tr><th></th><th>before</th><th>after</th><th>allocatable</th></tr></thead><tbody>" + rows +
      "</tbody></table><p class=\"pods\">" + (counts.r + counts.n) + " pods after the plan (" + counts.n +
      " placed)" + (counts.e ? ", " + counts.e + " evicted" : "") + (counts.m ? ", " + counts.m + " moved" : "") +
      (parts.length ? ": " + parts.join(", ") + more : "") + "</p>";
  }

  function show(cell) {
    var m = maps[keyOf(cell)];
    tip.innerHTML = details(nodeOf(cell), m.gpu);
    tip.hidden = false;
    var r = cell.getBoundingClientRect();
    var left = r.right + window.scrollX + 8, top = r.top + window.scrollY;
    var width = tip.offsetWidth;
    if (left + width > window.scrollX + document.documentElement.clientWidth) { left = Math.max(4, r.left + window.scrollX - width - 8); }
    tip.style.left = left + "px";
    tip.style.top = top + "px";
  }
  function hide() { tip.hidden = true; }

  function recolour(key) {
    var measure = document.querySelector('input[name="measure-' + key + '"]:checked').value;
    var when = document.querySelector('input[name="when-' + key + '"]:checked').value === "before" ? 4 : 5;
    var m = maps[key];
    cellsOf(key).forEach(function (cell) {
      var node = m.nodes[+cell.getAttribute("data-i")];
      var k = {cpu: M_CPU, memory: M_MEM, gpu: M_GPU, pods: M_PODS}[measure];
      if (measure === "auto") { k = node[3][M_GPU] > 0 ? M_GPU : M_CPU; }
      var alloc = node[3][k], used = node[when][k], colour = NONE;
      if (alloc > 0) {
        var share = Math.min(Math.max(used / alloc, 0), 1);
        colour = PALETTE[Math.min(Math.floor(share * (PALETTE.length - 1) + 0.5), PALETTE.length - 1)];
      }
      cell.firstChild.setAttribute("fill", colour);
    });
  }

  function select(key, id, button) {
    var mapEl = document.querySelector('.map[data-map="' + key + '"]');
    var pressed = button && button.getAttribute("aria-pressed") === "true";
    clear(key);
    if (pressed || !id) { return; }
    var rows = maps[key].groups[id] || [];
    var wanted = {};
    rows.forEach(function (i) { wanted[i] = true; });
    cellsOf(key).forEach(function (cell) {
      if (wanted[+cell.getAttribute("data-i")]) { cell.classList.add("hl"); }
    });
    mapEl.classList.add("dimmed");
    if (button) { button.setAttribute("aria-pressed", "true"); }
    var status = document.querySelector('.selection[data-map="' + key + '"]');
    var label = (button && button.getAttribute("data-label")) || id.replace(/^[a-z]+:/, "");
    if (status) { status.textContent = label + ": " + rows.length + " node" + (rows.length === 1 ? "" : "s") + " highlighted (Escape clears)"; }
  }
  function clear(key) {
    var mapEl = document.querySelector('.map[data-map="' + key + '"]');
    mapEl.classList.remove("dimmed");
    cellsOf(key).forEach(function (cell) { cell.classList.remove("hl"); });
    document.querySelectorAll("button.show").forEach(function (b) {
      if ((b.getAttribute("data-map") || DATA.maps[0].key) === key) { b.setAttribute("aria-pressed", "false"); }
    });
    var status = document.querySelector('.selection[data-map="' + key + '"]');
    if (status) { status.textContent = ""; }
  }
  function cssEsc(s) { return String(s).replace(/["\\]/g, "\\$&"); }

  Object.keys(maps).forEach(function (key) {
    var cells = cellsOf(key);
    if (cells.length) { cells[0].setAttribute("tabindex", "0"); }
    document.querySelectorAll('input[data-map="' + key + '"]').forEach(function (input) {
      input.addEventListener("change", function () { recolour(key); });
    });
  });

  document.addEventListener("pointerover", function (e) {
    var cell = e.target.closest && e.target.closest(".cell");
    if (cell) { show(cell); }
  });
  document.addEventListener("pointerout", function (e) {
    var cell = e.target.closest && e.target.closest(".cell");
    if (cell && !cell.contains(e.relatedTarget)) { hide(); }
  });
  document.addEventListener("focusin", function (e) {
    var cell = e.target.closest && e.target.closest(".cell");
    if (cell) { show(cell); }
  });
  document.addEventListener("focusout", function (e) {
    if (e.target.closest && e.target.closest(".cell")) { hide(); }
  });
  document.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest("button.show");
    if (button) { select(button.getAttribute("data-map") || DATA.maps[0].key, button.getAttribute("data-group"), button); return; }
    var cell = e.target.closest && e.target.closest(".cell");
    if (cell) { pin(cell); }
  });
  function pin(cell) {
    var key = keyOf(cell);
    var panel = document.querySelector('.pinned[data-map="' + key + '"]');
    if (panel) { panel.innerHTML = details(nodeOf(cell), maps[key].gpu); }
  }
  document.addEventListener("keydown", function (e) {
    var cell = e.target.closest && e.target.closest(".cell");
    if (e.key === "Escape") {
      hide();
      Object.keys(maps).forEach(clear);
      return;
    }
    if (!cell) { return; }
    var key = keyOf(cell);
    var cells = Array.prototype.slice.call(cellsOf(key));
    var at = cells.indexOf(cell), next = null;
    var svg = cell.ownerSVGElement, inRack = Array.prototype.slice.call(svg.querySelectorAll(".cell"));
    var cols = 1, y0 = inRack[0].transform.baseVal.consolidate().matrix.f;
    while (cols < inRack.length && inRack[cols].transform.baseVal.consolidate().matrix.f === y0) { cols++; }
    var k = inRack.indexOf(cell);
    switch (e.key) {
      case "ArrowRight": next = cells[at + 1]; break;
      case "ArrowLeft": next = cells[at - 1]; break;
      case "ArrowDown": next = k + cols < inRack.length ? inRack[k + cols] : cells[at + (inRack.length - k)]; break;
      case "ArrowUp": next = k - cols >= 0 ? inRack[k - cols] : cells[at - k - 1]; break;
      case "Home": next = cells[0]; break;
      case "End": next = cells[cells.length - 1]; break;
      case "Enter": case " ": pin(cell); e.preventDefault(); return;
      default: return;
    }
    e.preventDefault();
    if (next) {
      cell.setAttribute("tabindex", "-1");
      next.setAttribute("tabindex", "0");
      next.focus();
    }
  });
  /* Printing shows what the folded parts hold. */
  var folded = [];
  window.addEventListener("beforeprint", function () {
    folded = Array.prototype.filter.call(document.querySelectorAll("details:not([open])"), function (d) { d.open = true; return true; });
  });
  window.addEventListener("afterprint", function () { folded.forEach(function (d) { d.open = false; }); folded = []; });
})();
