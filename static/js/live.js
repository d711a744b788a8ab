// The live classroom (a student's page catches up after a sleep with catchup.js).
// Projector: right arrow, Page Down or space = Next; left arrow or Page Up = Back (clickers
// send Page Up/Down), and the "full screen" button.
(function () {
  "use strict";
  function inControl(el, key) {
    if (!el || !el.closest) return false;
    if (el.closest("input, textarea, select, [contenteditable]")) return true;
    return (key === " " || key === "Spacebar") && !!el.closest("button, summary, a");
  }
  // Keys pressed while a step is loading wait for it (a clicker pressed twice goes two steps).
  var busy = false;
  var pending = [];
  function press(id) {
    var button = document.getElementById(id);
    if (button) button.click();
  }
  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (!document.querySelector(".live-projector") || inControl(event.target, event.key)) return;
    var id = null;
    if (event.key === "ArrowRight" || event.key === "PageDown" || event.key === " " || event.key === "Spacebar") id = "present-next";
    else if (event.key === "ArrowLeft" || event.key === "PageUp") id = "present-back";
    if (!id || (!busy && !document.getElementById(id))) return;
    event.preventDefault();
    if (busy) { if (pending.length < 10) pending.push(id); return; }
    press(id);
  });
  function inRoot(event) {
    var root = document.getElementById("live-root");
    return !!(root && event.target && root.contains(event.target));
  }
  document.addEventListener("htmx:beforeRequest", function (event) { if (inRoot(event)) busy = true; });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (inRoot(event) && !(event.detail && event.detail.successful)) { busy = false; pending = []; }
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    if (!event.target || event.target.id !== "live-root") return;
    busy = false;
    if (pending.length) press(pending.shift());
  });

  // A student's phone goes to their class table once, when the teacher has made the tables
  // (the link stays on the page for coming back).
  function goToTable() {
    var go = document.querySelector("[data-live-go]");
    if (!go || !window.sessionStorage) return;
    var key = "live-go-" + go.getAttribute("data-live-go");
    try {
      if (sessionStorage.getItem(key)) return;
      sessionStorage.setItem(key, "1");
    } catch (e) { return; }
    window.location.assign(go.getAttribute("href"));
  }
  document.addEventListener("htmx:afterSettle", goToTable);

  function setup() {
    goToTable();
    var print = document.querySelector("[data-print]");
    if (print && window.print) {
      print.hidden = false;
      print.addEventListener("click", function () { window.print(); });
    }
    var full = document.getElementById("present-fullscreen");
    var root = document.getElementById("present");
    if (full && root && document.fullscreenEnabled) {
      full.hidden = false;
      full.setAttribute("aria-pressed", "false");
      full.addEventListener("click", function () {
        if (document.fullscreenElement) document.exitFullscreen();
        else root.requestFullscreen().catch(function () {});
      });
      document.addEventListener("fullscreenchange", function () {
        full.setAttribute("aria-pressed", document.fullscreenElement ? "true" : "false");
      });
    }
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setup);
  else setup();
})();
