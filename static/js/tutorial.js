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
  // FLIP: remember where each card was, let the morph move it, then animate it from there.
  // A card that arrives comes from the stock (or fades in); one that leaves flies to the
  // discard pile when the step shows one.
  var reduced = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;
  var before = null;

  function cardKey(el) {
    return el.getAttribute("data-card");
  }
  function positions(root) {
    var map = {};
    root.querySelectorAll("[data-card]").forEach(function (el) {
      var r = el.getBoundingClientRect();
      if (r.width) map[cardKey(el)] = { rect: r, el: el };
    });
    return map;
  }
  function rectOf(root, selector) {
    var el = root.querySelector(selector);
    if (!el) return null;
    var r = el.getBoundingClientRect();
    return r.width ? r : null;
  }
  function fly(el, from, to, duration) {
    var dx = from.left - to.left, dy = from.top - to.top;
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return;
    el.animate([{ transform: "translate(" + dx + "px," + dy + "px)" }, { transform: "none" }],
      { duration: duration, easing: "cubic-bezier(.2,.7,.3,1)" });
  }
  function ghost(el, from, to) {
    // A copy of a card that left the page, drawn where it was and sent to the pile.
    var copy = el.cloneNode(true);
    copy.removeAttribute("id");
    copy.classList.add("card-ghost");
    copy.setAttribute("aria-hidden", "true");
    copy.style.cssText = "position:fixed;margin:0;pointer-events:none;z-index:10;left:" + from.left +
      "px;top:" + from.top + "px;width:" + from.width + "px;height:" + from.height + "px";
    document.body.appendChild(copy);
    var anim = copy.animate([
      { transform: "none", opacity: 1 },
      { transform: "translate(" + (to.left - from.left) + "px," + (to.top - from.top) + "px) scale(.8)", opacity: 0.2 }
    ], { duration: 420, easing: "ease-in" });
    anim.onfinish = anim.oncancel = function () { copy.remove(); };
  }
  function animate(root) {
    if (!before || (reduced && reduced.matches) || !root.animate) { before = null; return; }
    var old = before;
    before = null;
    var now = positions(root);
    var stock = rectOf(root, "#pile-stock");
    var pile = rectOf(root, "#pile-discard");
    Object.keys(now).forEach(function (key) {
      var el = now[key].el, to = now[key].rect;
      if (old[key]) fly(el, old[key].rect, to, 380);
      else if (stock) fly(el, stock, to, 420);
      else el.animate([{ opacity: 0 }, { opacity: 1 }], { duration: 300 });
    });
    if (pile) {
      Object.keys(old).forEach(function (key) {
        if (!now[key]) ghost(old[key].el, old[key].rect, pile);
      });
    }
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    if (inTutorial(event)) busy = true;
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (inTutorial(event) && !(event.detail && event.detail.successful)) { busy = false; pending = null; }
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (inTutorial(event)) before = positions(event.detail.target);
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
