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

  // Addresses outside the stage that name the step (the language switcher, the alternates in
  // the head, the page to come back to after the deck preference): the server leaves them out
  // of Next/Back answers that only carry swaps, as they differ only in the step number.
  function syncStepAddresses() {
    var bar = document.getElementById("tutorial-progressbar");
    if (!bar) return;
    var n = bar.getAttribute("value");
    if (!/^\d+$/.test(n)) return;
    var step = /\/\d+\/$/;
    document.querySelectorAll('.language-switcher a[href], link[rel="alternate"][hreflang]').forEach(function (a) {
      var href = a.getAttribute("href");
      if (step.test(href)) a.setAttribute("href", href.replace(step, "/" + n + "/"));
    });
    document.querySelectorAll('.deck-form input[name="next"]').forEach(function (input) {
      if (step.test(input.value)) input.setAttribute("value", input.value.replace(step, "/" + n + "/"));
    });
  }

  // After a swap, keep the keyboard where it was: htmx restores focus to an element with the
  // same id; when that element is gone (first or last step), focus the other link.
  document.addEventListener("htmx:afterSettle", function (event) {
    if (!event.target || event.target.id !== "tutorial-stage") return;
    busy = false;
    syncStepAddresses();
    var active = document.activeElement;
    if (!active || active === document.body || !document.contains(active)) {
      var fallback = document.getElementById("tutorial-next") || document.getElementById("tutorial-back") ||
        document.getElementById("tutorial-done");
      if (fallback) fallback.focus();
    }
    if (pending) { var id = pending; pending = null; follow(id); }
  });
  document.addEventListener("htmx:historyRestore", syncStepAddresses);

  // The "attrs" swap (hx-ext="tutorial" on the tutorial): <i hx-swap-oob="attrs:SELECTOR"
  // class="…" data-remove="checked"> sets the attributes given on the element SELECTOR matches
  // and removes those named in data-remove, keeping its content.  Next/Back answers use it for
  // an element whose attributes alone changed (a card no longer highlighted); the page says it
  // has it (X-Tutorial-Swaps), so a page without this script never gets it.
  function defineExtension() {
    if (!window.htmx || !htmx.defineExtension) return;
    htmx.defineExtension("tutorial", {
      onEvent: function (name, event) {
        if (name === "htmx:configRequest" && event.detail && event.detail.headers) {
          event.detail.headers["X-Tutorial-Swaps"] = "attrs";
        }
        return true;
      },
      handleSwap: function (style, target, fragment) {
        if (style !== "attrs") return false;
        var source = fragment.nodeType === 11 ? fragment.firstElementChild : fragment;
        if (!source) return true;
        var remove = source.getAttribute("data-remove");
        Array.prototype.forEach.call(source.attributes, function (attr) {
          if (attr.name !== "data-remove") target.setAttribute(attr.name, attr.value);
        });
        if (remove) remove.split(" ").forEach(function (name) { if (name) target.removeAttribute(name); });
        return true;
      }
    });
  }
  // htmx's script comes after this one (both deferred): it has run by DOMContentLoaded.
  if (window.htmx) defineExtension();
  else document.addEventListener("DOMContentLoaded", defineExtension);
})();
