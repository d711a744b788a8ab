// Practice mode: small comforts on top of htmx (everything also works without JavaScript).
(function () {
  "use strict";

  function inControl(el) {
    return el && el.closest && el.closest("input, textarea, select, button, summary, [contenteditable]");
  }
  function modified(event) {
    return event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey;
  }

  // ---------------------------------------------------------------- replay links
  // Left/right arrow: previous/next move; Home/End: start/end. The links push the step into
  // the address (hx-push-url), so a reload or a shared address shows the same move.
  var REPLAY_KEYS = { ArrowLeft: "replay-prev", ArrowRight: "replay-next", Home: "replay-start", End: "replay-end" };
  var replayBusy = false;
  document.addEventListener("keydown", function (event) {
    if (modified(event) || event.shiftKey || !document.getElementById("replay")) return;
    if (event.target && event.target.closest && event.target.closest("input, textarea, select, [contenteditable]")) return;
    var id = REPLAY_KEYS[event.key];
    if (!id) return;
    event.preventDefault();
    var link = document.getElementById(id);
    if (link && !replayBusy) { replayBusy = true; link.click(); }
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    var t = event.detail && event.detail.target;
    if (!t || t.id !== "replay") return;
    replayBusy = false;
    var active = document.activeElement;
    if (!active || active === document.body || !document.contains(active)) {
      var next = document.getElementById("replay-next") || document.getElementById("replay-prev");
      if (next) next.focus();
    }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (!event.detail || !event.detail.successful) replayBusy = false;
  });

  // ---------------------------------------------------------------- legal-move cues
  // A dimmed card (aria-disabled) takes part in no legal move: a click only shows why.
  document.addEventListener("click", function (event) {
    var off = event.target.closest && event.target.closest(".pick--off");
    if (!off || !document.getElementById("game")) return;
    event.preventDefault();
    off.classList.add("pick--why");
    window.setTimeout(function () { off.classList.remove("pick--why"); }, 2500);
  });
  // Dam's beat: tap your card, then the card on the table; the pair is shown before Beat.
  function cardName(input) {
    var card = input && input.parentNode.querySelector("[data-card]");
    return card ? card.getAttribute("aria-label") : "";
  }
  function pairing() {
    var pair = document.getElementById("practice-pair");
    if (!pair) return;
    var form = document.getElementById("move-form");
    var own = form.querySelector('input[name="card"]:checked');
    var target = form.querySelector('input[name="target"]:checked');
    var beats = own ? (own.getAttribute("data-beats") || "").split(" ") : null;
    form.querySelectorAll('input[name="target"]').forEach(function (t) {
      var label = t.closest(".pick");
      if (!label) return;
      label.classList.toggle("pick--dim", !!beats && beats.indexOf(t.value) < 0);
    });
    if (own && target) {
      pair.textContent = pair.getAttribute("data-template")
        .replace("{card}", cardName(own)).replace("{target}", cardName(target));
      pair.hidden = false;
    } else {
      pair.textContent = "";
      pair.hidden = true;
    }
  }
  document.addEventListener("change", function (event) {
    var input = event.target;
    if (!input.closest || !input.closest("#move-form")) return;
    if (input.getAttribute("aria-disabled") === "true") {
      input.checked = false;
      return;
    }
    if (document.getElementById("practice-pair") && input.name === "card" && input.checked) {
      // One card of yours beats one card on the table.
      input.form.querySelectorAll('input[name="card"]:checked').forEach(function (other) {
        if (other !== input) other.checked = false;
      });
    }
    pairing();
  });
  document.addEventListener("htmx:afterSettle", pairing);
  document.addEventListener("DOMContentLoaded", pairing);

  // After a refused move, put the keyboard focus on the explanation so it is read out.
  document.addEventListener("htmx:afterSwap", function () {
    var error = document.getElementById("move-error");
    if (error) {
      error.setAttribute("tabindex", "-1");
      error.focus();
    }
  });
  window.damPractice = { inControl: inControl, modified: modified };
})();
