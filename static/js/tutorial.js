// Tutorial keyboard: right arrow or space = next step, left arrow = previous step.
// The links are real links (htmx swaps the stage when it is loaded; without JS they navigate).
(function () {
  "use strict";
  var busy = false;   // an htmx request or swap is under way
  var pending = null; // a key pressed meanwhile, carried out once the new step has settled

  function inControl(el) {
    return el && el.closest && el.closest("input, textarea, select, button, summary, [contenteditable]");
  }
  function follow(id) {
    var link = document.getElementById(id);
    if (link) link.click();
  }
  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (!document.getElementById("tutorial-stage") || inControl(event.target)) return;
    var id = null;
    if (event.key === "ArrowRight" || event.key === " " || event.key === "Spacebar") id = "tutorial-next";
    else if (event.key === "ArrowLeft") id = "tutorial-back";
    if (!id) return;
    event.preventDefault();
    if (busy) { pending = id; return; }
    follow(id);
  });
  document.addEventListener("htmx:beforeRequest", function () { busy = true; });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (!event.detail || !event.detail.successful) { busy = false; pending = null; }
  });
  // After a swap, keep the keyboard where it was: htmx restores focus to an element with the
  // same id; when that element is gone (first or last step), focus the other link.
  document.addEventListener("htmx:afterSettle", function (event) {
    if (!event.target || event.target.id !== "tutorial-stage") return;
    busy = false;
    var active = document.activeElement;
    if (!active || active === document.body || !document.contains(active)) {
      var fallback = document.getElementById("tutorial-next") || document.getElementById("tutorial-back") ||
        document.getElementById("tutorial-done");
      if (fallback) fallback.focus();
    }
    if (pending) { var id = pending; pending = null; follow(id); }
  });
})();
