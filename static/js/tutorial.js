// Tutorial keyboard: right arrow or space = next step, left arrow = previous step.
// The links are real links (htmx swaps the stage when it is loaded; without JS they navigate).
(function () {
  "use strict";
  function inControl(el) {
    return el && el.closest && el.closest("input, textarea, select, button, summary, [contenteditable]");
  }
  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (!document.getElementById("tutorial-stage") || inControl(event.target)) return;
    var id = null;
    if (event.key === "ArrowRight" || event.key === " " || event.key === "Spacebar") id = "tutorial-next";
    else if (event.key === "ArrowLeft") id = "tutorial-back";
    if (!id) return;
    var link = document.getElementById(id);
    if (!link) return;
    event.preventDefault();
    link.click();
  });
  // After a swap, keep the keyboard where it was: htmx restores focus to an element with the
  // same id; when that element is gone (first or last step), focus the other link.
  document.addEventListener("htmx:afterSettle", function (event) {
    if (!event.target || event.target.id !== "tutorial-stage") return;
    var active = document.activeElement;
    if (active && active !== document.body && document.contains(active)) return;
    var fallback = document.getElementById("tutorial-next") || document.getElementById("tutorial-back") ||
      document.getElementById("tutorial-done");
    if (fallback) fallback.focus();
  });
})();
