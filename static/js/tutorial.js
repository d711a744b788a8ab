// Tutorial pages: keys, focus after an answer, and cards that travel between steps.
// The links and forms are real (htmx morphs #tutorial when it is loaded; without JS they load
// pages), so this script only adds comfort; the page is right without it.
(function () {
  "use strict";
  var busy = false;   // an htmx request or swap is under way
  var pending = null; // a key pressed meanwhile, carried out once the new step has settled

  function inControl(el) {
    return el && el.closest && el.closest("input, textarea, select, button, summary, [contenteditable]");
  }
  function follow(id) {
    var link = document.getElementById(id);
    // A "your move" step is not skipped by a stray key: Skip is a link of its own.
    if (link && !link.hasAttribute("data-skip")) link.click();
  }
  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (!document.getElementById("tutorial") || inControl(event.target)) return;
    var id = null;
    if (event.key === "ArrowRight" || event.key === " " || event.key === "Spacebar") id = "tutorial-next";
    else if (event.key === "ArrowLeft") id = "tutorial-back";
    if (!id) return;
    event.preventDefault();
    if (busy) { pending = id; return; }
    follow(id);
  });

  // A morphed box takes the ticks of the answer, attribute and state alike: idiomorph updates
  // the attribute only when the state differs, and a box the learner ticked by hand before the
  // answer ticks it too would otherwise differ from a fresh load in its markup.
  // (Deferred scripts run in document order and this one comes before idiomorph's.)
  document.addEventListener("DOMContentLoaded", function () {
    if (!(window.Idiomorph && Idiomorph.defaults && Idiomorph.defaults.callbacks)) return;
    var morphed = Idiomorph.defaults.callbacks.afterNodeMorphed;
    Idiomorph.defaults.callbacks.afterNodeMorphed = function (oldNode, newNode) {
      if (oldNode instanceof HTMLInputElement && newNode instanceof HTMLInputElement) {
        if (newNode.hasAttribute("checked")) oldNode.setAttribute("checked", "");
        else oldNode.removeAttribute("checked");
        oldNode.checked = newNode.hasAttribute("checked");
      }
      if (morphed) return morphed.apply(this, arguments);
    };
  });

  function inTutorial(event) {
    var t = event.detail && event.detail.target;
    return t && t.id === "tutorial";
  }

  // ---------------------------------------------------------------- cards that travel
  // static/js/flip.js (DamFlip): positions before the morph, the journey after it.
  var before = null;
  function animate(root) {
    var old = before;
    before = null;
    if (window.DamFlip) window.DamFlip.play(root, old);
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    if (inTutorial(event)) busy = true;
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (inTutorial(event) && !(event.detail && event.detail.successful)) { busy = false; pending = null; }
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (inTutorial(event) && window.DamFlip) before = window.DamFlip.positions(event.detail.target);
  });
  // After an answer: the learner's attention goes to what it says (feedback, then hints);
  // otherwise htmx and the morph keep focus on the link that was used.
  document.addEventListener("htmx:afterSettle", function (event) {
    if (!inTutorial(event)) return;
    busy = false;
    var root = event.detail.target;
    animate(root);
    var say = root.querySelector("[data-autofocus]");
    var active = document.activeElement;
    if (say) say.focus({ preventScroll: false });
    else if (!active || active === document.body || !document.contains(active)) {
      var fallback = document.getElementById("tutorial-next") || document.getElementById("tutorial-back") ||
        document.getElementById("tutorial-done");
      if (fallback) fallback.focus();
    }
    if (pending) { var id = pending; pending = null; follow(id); }
  });
})();
