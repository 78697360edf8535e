// Game Ledger play page: a click on a board target (a button: Enter and Space
// press it too) narrows
// the move list to the moves that select it.  Everything else is plain forms
// and htmx's SSE swaps; the page works without this script.
"use strict";

// A drawn thing's data-target lists alternatives (space-separated), each one
// or more field:value pairs (comma-separated); a move selects the thing when
// every pair of one alternative is among its own pairs (data-targets).
function selects(target, pairs) {
  const mine = new Set(pairs.split(" "));
  return target
    .split(" ")
    .filter((alt) => alt)
    .some((alt) => alt.split(",").every((pair) => mine.has(pair)));
}

function named(target) {
  const first = target.split(" ")[0].split(",")[0];
  return first.split(":").slice(1).join(":");
}

function narrow(target) {
  const list = document.querySelector("#play-state ol.moves");
  if (!list) return;
  if (list.dataset.complete !== "yes") {
    // the list shown is cut short: ask the server for this target's moves
    const url = new URL(window.location.href);
    url.searchParams.set("target", target);
    window.location.assign(url.toString());
    return;
  }
  let shown = 0;
  list.querySelectorAll("li[data-targets]").forEach((li) => {
    const hit = selects(target, li.dataset.targets);
    li.hidden = !hit;
    if (hit) shown += 1;
  });
  const note = document.querySelector("#play-state .target-note");
  if (note) {
    note.hidden = false;
    note.querySelector("span").textContent =
      shown + " move" + (shown === 1 ? "" : "s") + " with " + named(target) + ".";
  }
  const first = list.querySelector("li:not([hidden]) button");
  if (first) first.focus();
}

function showAll() {
  document.querySelectorAll("#play-state ol.moves li").forEach((li) => (li.hidden = false));
  const note = document.querySelector("#play-state .target-note");
  if (note) note.hidden = true;
}

// a drawn target is an SVG element with role=button: Enter and Space press it
document.addEventListener("keydown", (e) => {
  if (e.key !== "Enter" && e.key !== " ") return;
  const target = e.target.closest && e.target.closest("#play-state svg [data-target]");
  if (target && target === e.target) {
    e.preventDefault();
    narrow(target.dataset.target);
  }
});

document.addEventListener("click", (e) => {
  const target = e.target.closest("#play-state [data-target]");
  if (target) narrow(target.dataset.target);
  if (e.target.closest("#play-state .show-all")) showAll();
});

// A move answered by htmx swaps the panel in place: keep the keyboard there
// (on the new status line), and skip the SSE copy of a version already shown.
document.addEventListener("htmx:afterSwap", (e) => {
  if (e.detail.target && e.detail.target.id === "play-state" && e.detail.requestConfig) {
    const status = document.querySelector("#play-state .status");
    if (status) status.focus();
  }
});

document.addEventListener("htmx:sseBeforeMessage", (e) => {
  if (e.detail.type !== "state") return;
  const shown = document.querySelector("#play-state .play-state");
  const incoming = /data-version="(\d+)"/.exec(e.detail.data || "");
  if (shown && incoming && shown.dataset.version === incoming[1]) e.preventDefault();
});
