// Presenter mode: right arrow, Page Down or space = next step; left arrow or Page Up = back
// (presentation clickers send Page Up/Down).  The links are real links: htmx swaps the stage
// when it is loaded, without JS they navigate.  A "full screen" button (Fullscreen API) and a
// "print" button on the handout appear only when JS runs.
(function () {
  "use strict";
  var busy = false;
  var pending = null;

  // Typing in a field keeps its keys; on a button (the full-screen one keeps focus after a
  // click) only Space stays the button's, so a clicker's Page Up/Down still turns the page.
  function inControl(el, key) {
    if (!el || !el.closest) return false;
    if (el.closest("input, textarea, select, [contenteditable]")) return true;
    return (key === " " || key === "Spacebar") && !!el.closest("button, summary");
  }
  function follow(id) {
    var link = document.getElementById(id);
    if (link) link.click();
  }
  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (!document.getElementById("present-stage") || inControl(event.target, event.key)) return;
    var id = null;
    if (event.key === "ArrowRight" || event.key === "PageDown" || event.key === " " || event.key === "Spacebar") id = "present-next";
    else if (event.key === "ArrowLeft" || event.key === "PageUp") id = "present-back";
    if (!id) return;
    event.preventDefault();
    if (busy) { pending = id; return; }
    follow(id);
  });
  document.addEventListener("htmx:beforeRequest", function () { busy = true; });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (!event.detail || !event.detail.successful) { busy = false; pending = null; }
  });
  // Cards travel between steps (static/js/flip.js), unless less motion is asked for.
  // A change of whose cards are shown is not a move: nothing travels then.
  var before = null, seatBefore = null;
  function seatOf(stage) {
    var table = stage.querySelector(".present-table");
    return table ? table.getAttribute("data-seat") : null;
  }
  document.addEventListener("htmx:beforeSwap", function (event) {
    var t = event.detail && event.detail.target;
    if (t && t.id === "present-stage" && window.DamFlip) {
      before = window.DamFlip.positions(t);
      seatBefore = seatOf(t);
    }
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    if (!event.target || event.target.id !== "present-stage") return;
    busy = false;
    if (window.DamFlip && seatOf(event.target) === seatBefore) window.DamFlip.play(event.target, before);
    before = null;
    var active = document.activeElement;
    if (!active || active === document.body || !document.contains(active)) {
      var fallback = document.getElementById("present-next") || document.getElementById("present-back");
      if (fallback) fallback.focus();
    }
    if (pending) { var id = pending; pending = null; follow(id); }
  });

  function setup() {
    var full = document.getElementById("present-fullscreen");
    var root = document.getElementById("present");
    if (full && root && document.fullscreenEnabled) {
      full.hidden = false;
      full.addEventListener("click", function () {
        if (document.fullscreenElement) document.exitFullscreen();
        else root.requestFullscreen().catch(function () {});
      });
      document.addEventListener("fullscreenchange", function () {
        full.setAttribute("aria-pressed", document.fullscreenElement ? "true" : "false");
      });
      full.setAttribute("aria-pressed", "false");
    }
    var print = document.querySelector("[data-print]");
    if (print && window.print) {
      print.hidden = false;
      print.addEventListener("click", function () { window.print(); });
    }
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setup);
  else setup();
})();
