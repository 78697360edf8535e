// Game Ledger dashboard: draws the charts (Chart.js) and runs the replay viewer.
"use strict";

const PALETTE = ["#2563eb", "#93c5fd", "#16a34a", "#f59e0b", "#dc2626", "#9333ea"];

function drawCharts(root) {
  root.querySelectorAll("canvas[data-chart]").forEach((canvas) => {
    if (canvas.dataset.drawn) return;
    canvas.dataset.drawn = "1";
    const spec = JSON.parse(canvas.dataset.chart);
    const pct = spec.percent;
    const valueAxis = {
      beginAtZero: true,
      ticks: pct ? { callback: (v) => Math.round(v * 100) + "%" } : {},
      max: spec.unit_range ? 1 : undefined,
    };
    const labelAxis = spec.x_title ? { title: { display: true, text: spec.x_title } } : {};
    const horizontal = !!spec.horizontal;
    const chart = new Chart(canvas, {
      type: spec.type,
      data: {
        labels: spec.labels,
        datasets: spec.datasets.map((d, i) => ({
          backgroundColor: PALETTE[i % PALETTE.length],
          borderColor: PALETTE[i % PALETTE.length],
          pointRadius: spec.links ? 4 : 2,
          pointHoverRadius: 7,
          ...d,
        })),
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        indexAxis: horizontal ? "y" : "x",
        scales: horizontal ? { x: valueAxis, y: labelAxis } : { y: valueAxis, x: labelAxis },
        plugins: {
          tooltip: pct
            ? {
                callbacks: {
                  label: (c) =>
                    c.dataset.label +
                    ": " +
                    (Array.isArray(c.raw)
                      ? c.raw.map((v) => (v * 100).toFixed(1) + "%").join(" – ")
                      : (c.raw * 100).toFixed(1) + "%"),
                },
              }
            : {},
        },
        onClick: spec.links
          ? (event, elements) => {
              if (elements.length) window.location.href = spec.links[elements[0].index];
            }
          : undefined,
        onHover: spec.links
          ? (event, elements) => {
              event.native.target.style.cursor = elements.length ? "pointer" : "default";
            }
          : undefined,
      },
    });
    canvas.chart = chart;
  });
}

function replayViewer(section) {
  const game = section.dataset.game;
  const head = Number(section.dataset.head);
  const page = Number(section.dataset.page);
  const frames = new Map();
  const slider = document.getElementById("slider");
  const position = document.getElementById("position");
  let current = Number(section.dataset.start);

  // a page of frames is the log's sentences; the shown frame's view and board
  // come one frame at a time, since drawing a board is most of a frame's cost
  const whole = new Map();
  async function load(version) {
    const after = Math.floor((version - 1) / page) * page;
    const response = await fetch(`/games/${game}/frames?after=${after}&limit=${page}`);
    if (!response.ok) throw new Error(await response.text());
    const body = await response.json();
    body.frames.forEach((f) => frames.set(Number(f.event.version), f));
  }

  function drawn(version) {
    if (!whole.has(version)) {
      const fetched = fetch(`/games/${game}/frames/${version}`).then(async (response) => {
        if (!response.ok) throw new Error(await response.text());
        return (await response.json()).frames[0] || null;
      });
      fetched.catch(() => whole.delete(version));
      whole.set(version, fetched);
    }
    return whole.get(version);
  }

  function clean(value) {
    if (value && typeof value === "object") {
      const out = Array.isArray(value) ? [] : {};
      for (const [k, v] of Object.entries(value)) if (k !== "@type") out[k] = clean(v);
      return out;
    }
    return value;
  }

  // the sentences of the page of events around the one shown; each steps there
  function showLog(version) {
    const first = Math.floor((version - 1) / page) * page + 1;
    const log = document.getElementById("log");
    log.start = first;
    log.replaceChildren();
    for (let v = first; v < first + page && v <= head; v++) {
      const li = document.createElement("li");
      const f = frames.get(v);
      const button = document.createElement("button");
      button.type = "button";
      button.className = "link";
      button.textContent = f ? f.sentence : "not public yet";
      button.addEventListener("click", () => show(v));
      if (v === version) li.setAttribute("aria-current", "step");
      li.append(button);
      log.append(li);
    }
  }

  async function show(version) {
    version = Math.max(1, Math.min(head, version));
    current = version;
    slider.value = version;
    position.textContent = `event ${version} / ${head}`;
    if (!frames.has(version)) await load(version);
    if (current !== version) return; // a later step won the race
    const frame = frames.get(version);
    if (!frame) {
      document.getElementById("frame-title").textContent = `${version}. not public yet`;
      document.getElementById("frame-event").textContent = "";
      document.getElementById("frame-view").textContent = "";
      document.getElementById("frame-sentence").textContent = "";
      document.getElementById("frame-board").replaceChildren();
      document.getElementById("frame-board").removeAttribute("aria-busy");
      section.dataset.shown = String(version);
      return;
    }
    const ev = frame.event;
    document.getElementById("frame-title").textContent = `${version}. ${ev.type}`;
    const meta = document.getElementById("frame-meta");
    meta.replaceChildren();
    const facts = [["time", ev.timestamp], ["decision", ev.decision ?? "–"], ["by", frame.actor ?? "–"]];
    if (ev.hash) facts.push(["hash", ev.hash.slice(0, 16) + "…"]);
    for (const [k, v] of facts) {
      const div = document.createElement("div");
      const dt = document.createElement("dt");
      const dd = document.createElement("dd");
      dt.textContent = k;
      dd.textContent = v;
      div.append(dt, dd);
      meta.append(div);
    }
    document.getElementById("frame-event").textContent = JSON.stringify(clean(ev.payload || {}), null, 1);
    document.getElementById("frame-sentence").textContent = frame.sentence || "";
    showLog(version);
    history.replaceState(null, "", `?v=${version}`);
    const board = document.getElementById("frame-board");
    board.setAttribute("aria-busy", "true"); // the board below is the last one until this one comes
    if (!whole.has(version)) {
      // a slider dragged across many events draws only where it stops
      await new Promise((resolve) => setTimeout(resolve, 40));
      if (current !== version) return;
    }
    const shown = await drawn(version);
    if (current !== version) return;
    board.removeAttribute("aria-busy");
    document.getElementById("frame-view").textContent = JSON.stringify(clean(shown?.view || {}), null, 1);
    // the board is the server's fragment, drawn from this frame's view and escaped there
    board.innerHTML = shown?.board || "";
    section.dataset.shown = String(version);
    if (version < head) drawn(version + 1); // the next step is the likeliest
  }

  document.getElementById("prev").addEventListener("click", () => show(current - 1));
  document.getElementById("next").addEventListener("click", () => show(current + 1));
  slider.addEventListener("input", () => show(Number(slider.value)));
  document.addEventListener("keydown", (event) => {
    if (event.target === slider || event.altKey || event.ctrlKey || event.metaKey) return;
    const tag = event.target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
    const step = { ArrowLeft: -1, ArrowRight: 1 }[event.key];
    if (step) show(current + step);
    else if (event.key === "Home") show(1);
    else if (event.key === "End") show(head);
    else return;
    event.preventDefault();
  });
  show(current);
}

// A table wider than the screen scrolls in its box; say so above it, only then.
let scrollBoxes = 0;
function hintScrolling(root) {
  root.querySelectorAll(".scroll").forEach((box) => {
    if (!box.id) box.id = `scroll-${++scrollBoxes}`;
    let hint = document.getElementById(`${box.id}-hint`);
    if (!hint) {
      hint = document.createElement("p");
      hint.id = `${box.id}-hint`;
      hint.className = "scroll-hint";
      hint.textContent = "Scroll sideways for more →";
      box.before(hint);
    }
    hint.hidden = box.scrollWidth <= box.clientWidth + 1;
  });
}

document.addEventListener("DOMContentLoaded", () => {
  drawCharts(document);
  hintScrolling(document);
  const replay = document.getElementById("replay");
  if (replay && Number(replay.dataset.head) > 0) replayViewer(replay);
});
document.addEventListener("htmx:afterSwap", (event) => {
  drawCharts(event.target);
  hintScrolling(document);
});
window.addEventListener("resize", () => hintScrolling(document));

// "Round 3 starts in 1:05": each [data-countdown] counts down to its ISO time.
function tickCountdowns() {
  document.querySelectorAll("[data-countdown]").forEach((el) => {
    const left = Math.max(0, Math.round((Date.parse(el.dataset.countdown) - Date.now()) / 1000));
    const m = Math.floor(left / 60);
    const s = String(left % 60).padStart(2, "0");
    el.textContent = left > 0 ? `in ${m}:${s}` : "starting";
  });
}
setInterval(tickCountdowns, 1000);
document.addEventListener("htmx:afterSwap", tickCountdowns);
document.addEventListener("DOMContentLoaded", tickCountdowns);
