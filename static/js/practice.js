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
  // Left/right arrow: previous/next move; Home/End: start/end, on a replay link (#replay)
  // and on the review's step pages (#review-step), whose links are <root id>-prev and so on.
  // The links push the step into the address (data-hx-push-url), so a reload or a shared
  // address shows the same move.
  var STEP_KEYS = { ArrowLeft: "prev", ArrowRight: "next", Home: "start", End: "end" };
  function stepRoot() {
    return document.getElementById("replay") || document.getElementById("review-step");
  }
  var replayBusy = false;
  document.addEventListener("keydown", function (event) {
    var root = stepRoot();
    if (modified(event) || event.shiftKey || !root) return;
    if (event.target && event.target.closest && event.target.closest("input, textarea, select, [contenteditable]")) return;
    var which = STEP_KEYS[event.key];
    if (!which) return;
    event.preventDefault();
    var id = root.id + "-" + which;
    if (replayBusy) { replayPending = id; return; }  // carried out once the step has settled
    followReplay(id);
  });
  var replayPending = null;
  function followReplay(id) {
    var link = document.getElementById(id);
    if (link) { replayBusy = true; link.click(); }
  }
  document.addEventListener("htmx:afterSettle", function () {
    var root = stepRoot();
    if (!root) return;
    replayBusy = false;
    if (replayPending) { var id = replayPending; replayPending = null; followReplay(id); return; }
    var active = document.activeElement;
    if (!active || active === document.body || !document.contains(active)) {
      var next = document.getElementById(root.id + "-next") || document.getElementById(root.id + "-prev");
      if (next) next.focus();
    }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (!event.detail || !event.detail.successful) replayBusy = false;
  });

  // ---------------------------------------------------------------- legal-move cues
  // A tap on a card that takes part in no legal move says why, in a box beside the card
  // (#why, a live region), inside the screen: a dimmed card (aria-disabled) its own reason,
  // any other card the page's reason for where it lies (#game's data-why-own, -other with
  // the seat's name, -table), a number key no move button has data-why-key.
  var whyTimer = null, whyFor = null, whyScroll = 0;
  function showWhy(text, near) {
    var box = document.getElementById("why");
    if (!box || !text) return;
    box.textContent = text;
    whyFor = near || box;
    whyScroll = window.scrollY;
    var vw = document.documentElement.clientWidth, vh = window.innerHeight, margin = 8;
    var r = near ? near.getBoundingClientRect() : null;
    var w = box.offsetWidth, h = box.offsetHeight;
    var left = r ? r.left + r.width / 2 - w / 2 : (vw - w) / 2;
    left = Math.max(margin, Math.min(left, vw - w - margin));
    var top = r ? r.top - h - 6 : vh - h - margin;
    if (r && top < margin) top = r.bottom + 6;  // no room above the card: below it
    top = Math.max(margin, Math.min(top, vh - h - margin));
    box.style.left = left + "px";
    box.style.top = top + "px";
    window.clearTimeout(whyTimer);
    whyTimer = window.setTimeout(hideWhy, 5000);
  }
  function hideWhy() {
    var box = document.getElementById("why");
    if (box) box.textContent = "";
    whyFor = null;
  }
  // Scrolling the page on (not the small scroll of bringing a card into view) puts it away.
  window.addEventListener("scroll", function () {
    if (whyFor && Math.abs(window.scrollY - whyScroll) > 80) hideWhy();
  }, { passive: true });
  function idleReason(card) {
    var game = document.getElementById("game");
    if (!game) return "";
    var seat = card.closest(".game-seat");
    if (seat && seat.matches(".game-seat--viewer")) return game.getAttribute("data-why-own");
    if (seat) {
      var name = seat.querySelector(".game-seat__name");
      return (game.getAttribute("data-why-other") || "").replace("%(name)s", name ? name.textContent.trim() : "");
    }
    return game.getAttribute("data-why-table");
  }
  document.addEventListener("click", function (event) {
    var game = document.getElementById("game");
    if (!game || !event.target.closest) return;
    var off = event.target.closest(".pick--off");
    if (off && game.contains(off)) {
      event.preventDefault();
      // A mouse shows the reason on hover already (games.css); a tap or a key gets the box.
      if (event.pointerType !== "mouse" || !window.matchMedia("(hover: hover)").matches) {
        showWhy(off.getAttribute("data-why"), off);
      }
      return;
    }
    var card = event.target.closest(".game-table .card, .game-table .game-row__slot");
    if (!card || !game.contains(card) || card.closest(".pick, .game-tap")) {
      hideWhy();
      return;
    }
    if (card.matches(".game-row__slot")) {
      card = card.querySelector(".card");
      if (!card || card.closest(".pick, .game-tap")) return;
    }
    showWhy(idleReason(card), card);
  });
  // The hover and focus reason (games.css, ::after) moved sideways to stay inside the screen.
  function placeTip(label) {
    if (!label || !label.matches(".pick--off")) return;
    label.style.setProperty("--why-dx", "0px");
    window.requestAnimationFrame(function () {
      var tip = getComputedStyle(label, "::after");
      var w = parseFloat(tip.width);
      if (!w || tip.content === "none" || tip.content === "normal") return;
      var r = label.getBoundingClientRect(), vw = document.documentElement.clientWidth, margin = 8;
      var left = r.left + r.width / 2 - w / 2, dx = 0;
      if (left < margin) dx = margin - left;
      else if (left + w > vw - margin) dx = vw - margin - (left + w);
      label.style.setProperty("--why-dx", Math.round(dx) + "px");
    });
  }
  document.addEventListener("focusin", function (event) {
    placeTip(event.target.closest && event.target.closest(".pick--off"));
  });
  document.addEventListener("mouseover", function (event) {
    placeTip(event.target.closest && event.target.closest(".pick--off"));
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
    var most = parseInt(input.getAttribute("data-max") || "0", 10);
    if (most && input.type === "checkbox" && input.checked) {
      // A shield covers at most two cards: a third choice lets go of one chosen before.
      var chosen = Array.prototype.filter.call(
        input.form.querySelectorAll('input[name="' + input.name + '"]:checked'),
        function (other) { return other !== input; });
      if (chosen.length >= most) chosen[0].checked = false;
    }
    if (document.getElementById("practice-pair") && input.name === "card" && input.checked) {
      onlyOwn(input);
    }
    pairing();
  });
  // One card of yours beats one card on the table: choosing one lets go of the others.
  function onlyOwn(input) {
    input.checked = true;
    input.form.querySelectorAll('input[name="card"]:checked').forEach(function (other) {
      if (other !== input) other.checked = false;
    });
  }
  document.addEventListener("htmx:afterSettle", pairing);
  document.addEventListener("DOMContentLoaded", pairing);

  // Or drag your card onto the card on the table (mouse, pen or finger): the same two choices
  // as the two taps, and the pair is shown before Beat.
  var drag = null, swallowClick = false;
  function dropTarget(x, y) {
    var under = document.elementFromPoint(x, y);
    var label = under && under.closest && under.closest("label.pick");
    var input = label && label.querySelector('input[name="target"]');
    if (!input || label.classList.contains("pick--dim") || input.getAttribute("aria-disabled") === "true") return null;
    return label;
  }
  function endDrag() {
    if (!drag) return;
    if (drag.copy) drag.copy.remove();
    document.body.classList.remove("card-dragging");
    if (drag.over) drag.over.classList.remove("pick--over");
    drag = null;
  }
  document.addEventListener("pointerdown", function (event) {
    if (event.button !== 0 || !document.getElementById("practice-pair")) return;
    var label = event.target.closest && event.target.closest(".game-seat--viewer label.pick");
    var input = label && label.querySelector('input[name="card"]');
    if (!input || input.getAttribute("aria-disabled") === "true") return;
    drag = { input: input, label: label, x: event.clientX, y: event.clientY, id: event.pointerId,
             copy: null, over: null };
  });
  document.addEventListener("pointermove", function (event) {
    if (!drag || event.pointerId !== drag.id) return;
    var dx = event.clientX - drag.x, dy = event.clientY - drag.y;
    if (!drag.copy) {
      if (Math.abs(dx) + Math.abs(dy) < 10) return;  // a tap, not a drag
      var card = drag.label.querySelector(".card"), r = card.getBoundingClientRect();
      drag.copy = card.cloneNode(true);
      drag.copy.removeAttribute("data-card");
      drag.copy.setAttribute("aria-hidden", "true");
      drag.copy.classList.add("card-ghost", "card-dragged");
      drag.copy.style.cssText = "position:fixed;margin:0;pointer-events:none;z-index:20;left:" + r.left +
        "px;top:" + r.top + "px;width:" + r.width + "px;height:" + r.height + "px";
      document.body.appendChild(drag.copy);
      document.body.classList.add("card-dragging");  // no text selected on the way
      if (window.getSelection) window.getSelection().removeAllRanges();
      // Show which table cards this one may beat while it is dragged.
      onlyOwn(drag.input);
      pairing();
    }
    event.preventDefault();
    drag.copy.style.transform = "translate(" + dx + "px," + dy + "px) rotate(4deg)";
    var over = dropTarget(event.clientX, event.clientY);
    if (over !== drag.over) {
      if (drag.over) drag.over.classList.remove("pick--over");
      if (over) over.classList.add("pick--over");
      drag.over = over;
    }
  });
  document.addEventListener("pointerup", function (event) {
    if (!drag || event.pointerId !== drag.id) return;
    if (drag.copy) {
      swallowClick = true;  // the click that ends a drag must not toggle the card again
      window.setTimeout(function () { swallowClick = false; }, 0);
      var over = dropTarget(event.clientX, event.clientY);
      if (over) {
        var target = over.querySelector('input[name="target"]');
        target.checked = true;
        pairing();
        target.focus({ preventScroll: true });
      }
    }
    endDrag();
  });
  document.addEventListener("pointercancel", endDrag);
  document.addEventListener("click", function (event) {
    if (!swallowClick) return;
    swallowClick = false;
    event.preventDefault();
    event.stopPropagation();
  }, true);

  // After a refused move, put the keyboard focus on the explanation so it is read out.
  document.addEventListener("htmx:afterSwap", function () {
    var error = document.getElementById("move-error");
    if (error) {
      error.setAttribute("tabindex", "-1");
      error.focus();
    }
  });
  // ---------------------------------------------------------------- cards that travel
  // Each swap of #game (your move, each bot move one at a time) animates the cards from where
  // they were (static/js/flip.js); the pace follows the bots' pace the player chose.
  var before = null;
  var focusWas = null;
  function gameSwap(event) {
    var t = event.detail && event.detail.target;
    return t && t.id === "game";
  }
  function describeFocus() {
    var a = document.activeElement;
    if (!a || a === document.body) return { lost: true };
    if (!a.closest || !a.closest("#game")) return null; // focus is elsewhere: leave it there
    return { id: a.id, name: a.getAttribute("name"), value: a.getAttribute("value"),
             inHand: !!a.closest(".game-seat--viewer") };
  }
  // The replay link's steps travel too (but not the switch to every hand open), and so do
  // the review's.
  var replayBefore = null, replayOpen = null;
  document.addEventListener("htmx:beforeSwap", function (event) {
    var t = event.detail && event.detail.target;
    if (t && (t.id === "replay" || t.id === "review-step") && window.DamFlip) {
      replayBefore = window.DamFlip.positions(t);
      replayOpen = t.getAttribute("data-open");
    }
  });
  document.addEventListener("htmx:afterSettle", function () {
    var root = stepRoot();
    if (!root || !replayBefore) return;
    if (root.getAttribute("data-open") === replayOpen) window.DamFlip.play(root, replayBefore);
    replayBefore = null;
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (!gameSwap(event)) return;
    if (window.DamFlip) before = window.DamFlip.positions(event.detail.target);
    focusWas = describeFocus();
  });

  // ---------------------------------------------------------------- focus after a move
  // Focus stays on the hand: the same card or button when it is still there, else the first
  // card you can use, else the hand itself (while the others move), else the move buttons.
  function usable(root) {
    return root.querySelector(".game-seat--viewer .pick--tap, .game-seat--viewer .pick__box:not([aria-disabled='true'])");
  }
  function restoreFocus(root, was) {
    if (!was) return;
    var active = document.activeElement;
    if (active && active !== document.body && document.contains(active)) return;
    var target = null;
    if (was.id) target = document.getElementById(was.id);
    if (target && target.matches(".game-hand, .game-row")) target = usable(root) || target;
    if (target && target.matches(".game-hand, .game-row")) target.setAttribute("tabindex", "-1");
    if (!target && was.name && was.value) {
      target = root.querySelector('[name="' + was.name + '"][value="' + CSS.escape(was.value) + '"]');
      if (target && target.getAttribute("aria-disabled") === "true") target = null;
    }
    if (!target) target = usable(root);
    if (!target) {
      var hand = root.querySelector(".game-seat--viewer .game-hand, .game-seat--viewer .game-row");
      if (hand) { hand.setAttribute("tabindex", "-1"); target = hand; }
    }
    if (!target) target = root.querySelector(".practice-buttons button, #bot-step, #next-deal");
    if (target) target.focus({ preventScroll: true });
  }
  document.addEventListener("htmx:afterSettle", function (event) {
    if (!gameSwap(event)) return;
    var root = document.getElementById("game");
    if (!root) return;
    if (window.DamFlip) { window.DamFlip.play(root, before, pace(root)); before = null; }
    var asked = event.detail.requestConfig && event.detail.requestConfig.elt;
    if (asked && asked.id === "hint-link" && showHint()) { focusWas = null; return; }
    if (!document.getElementById("move-error")) restoreFocus(root, focusWas);
    focusWas = null;
  });
  // The hint opens where the player looks: focus moves to it (it is read out) and the page
  // scrolls so that its reason and its move are on screen.
  function showHint() {
    var hint = document.getElementById("hint");
    if (!hint) return false;
    hint.focus({ preventScroll: true });
    var r = hint.getBoundingClientRect(), vh = window.innerHeight;
    if (r.top < 0 || r.bottom > vh) {
      var reason = hint.querySelector(".practice-hint__reason") || hint;
      // The whole panel when it fits, else from its heading down.
      hint.scrollIntoView({ block: r.height <= vh ? "center" : "start" });
      if (reason.getBoundingClientRect().top < 0) reason.scrollIntoView({ block: "start" });
    }
    return true;
  }
  // A new deal is dealt out from the deck when its page opens.
  // The bots' first moves then follow at the chosen pace, once the cards have landed (the
  // step form waits for "dealt" instead of the page's load).
  document.addEventListener("DOMContentLoaded", function () {
    var root = document.getElementById("game");
    if (!root || root.getAttribute("data-fresh-deal") !== "true") return;
    var took = window.DamFlip ? window.DamFlip.deal(root, pace(root)) || 0 : 0;
    window.setTimeout(function () {
      var step = root.querySelector(".practice-step");
      if (step && window.htmx) window.htmx.trigger(step, "dealt");
    }, took);
  });
  function pace(root) {
    var ms = parseInt(root.getAttribute("data-pace") || "700", 10);
    if (!ms) return 1;  // bots move only when asked: the cards move at the usual speed
    return Math.max(0.4, Math.min(2, ms / 700));
  }

  // ---------------------------------------------------------------- arrow keys
  // Left/right (Home/End) within a group of cards: your hand, the cards on the table; up/down
  // between the groups and the move buttons.  Radio buttons keep their own arrows.
  // The piles a tap on which makes a move (Dam med dolda kort's stock and discard pile) are a
  // group too, above your hand.
  var GROUPS = ".game-seat--viewer .game-hand, .game-seat--viewer .game-row, .game-pairs, .game-centre, .practice-buttons";
  function items(group) {
    return Array.prototype.filter.call(group.querySelectorAll("button, input, a[href]"), function (el) {
      return !el.disabled && el.offsetParent !== null && el.type !== "hidden";
    });
  }
  function groupsInOrder() {
    var groups = Array.prototype.filter.call(document.querySelectorAll("#game .game-pairs, #game .game-centre, #game .game-seat--viewer .game-hand, #game .game-seat--viewer .game-row, #game .practice-buttons"),
      function (g) { return items(g).length && !(g.matches(".game-centre") && g.querySelector(".game-pairs")); });
    return [].concat(groups.filter(function (g) { return g.matches(".game-pairs, .game-centre"); }),
      groups.filter(function (g) { return g.matches(".game-hand, .game-row"); }),
      groups.filter(function (g) { return g.matches(".practice-buttons"); }));
  }
  // Where the arrows start from the table itself (the skip link) or from a hand with nothing
  // to pick in it (T while the piles are your move): your first usable card, else the first
  // place you can tap, else the move buttons.
  function firstItem(root) {
    var order = groupsInOrder();
    var hand = order.filter(function (g) { return g.matches(".game-hand, .game-row"); })[0];
    var group = hand || order[0];
    return usable(root) || (group ? (group.querySelector("input:checked") || items(group)[0]) : null);
  }
  document.addEventListener("keydown", function (event) {
    if (modified(event) || !document.getElementById("game")) return;
    var el = event.target;
    if (!el.closest || el.closest("textarea, select, [contenteditable]") || el.type === "text") return;
    var key = event.key;
    var ARROWS = ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"];
    if (ARROWS.indexOf(key) < 0) return;
    var root = document.getElementById("game");
    var group = el.closest(GROUPS);
    if (el.id === "card-table" || (group && el === group && !items(group).length)) {
      var start = firstItem(root);
      if (start) { event.preventDefault(); start.focus(); }
      return;
    }
    if (!group || !group.closest("#game")) return;
    if (el.type === "radio" && (key === "ArrowLeft" || key === "ArrowRight")) return;
    var list = items(group), i = list.indexOf(el);
    if (el === group) { event.preventDefault(); list[0].focus(); return; }
    if (i < 0) return;
    var next = null;
    if (key === "ArrowRight") next = list[Math.min(i + 1, list.length - 1)];
    else if (key === "ArrowLeft") next = list[Math.max(i - 1, 0)];
    else if (key === "Home") next = list[0];
    else if (key === "End") next = list[list.length - 1];
    else if (key === "ArrowDown" || key === "ArrowUp") {
      var order = groupsInOrder();
      var gi = order.indexOf(group);
      var other = order[key === "ArrowDown" ? gi + 1 : gi - 1];
      if (other) {
        var pick = items(other);
        next = other.querySelector("input:checked") || pick[0];
      }
    }
    if (next && next !== el) { event.preventDefault(); next.focus(); }
    else if (next === el) event.preventDefault();
  });

  // ---------------------------------------------------------------- shortcuts
  // Documented on the page (Keyboard shortcuts): H hint, U undo, N next bot move, T the table,
  // 1-9 the move buttons in order.
  document.addEventListener("keydown", function (event) {
    if (modified(event) || !document.getElementById("game")) return;
    var el = event.target;
    if (el && el.closest && el.closest("input[type=text], textarea, select, [contenteditable]")) return;
    var k = event.key.length === 1 ? event.key.toLowerCase() : "";
    var target = null;
    if (k === "h") target = document.getElementById("hint-link");
    else if (k === "u") target = document.getElementById("undo");
    else if (k === "n") target = document.getElementById("bot-step");
    else if (k === "t") {
      // The first card you can use (the arrow keys then move between the cards), else the
      // hand, else the table itself.
      var table = document.getElementById("card-table");
      if (!table) return;
      event.preventDefault();
      var first = firstItem(document.getElementById("game"));
      (first || table).focus({ preventScroll: true });
      table.scrollIntoView({ block: "start" });
      return;
    } else if (k >= "1" && k <= "9") {
      target = document.querySelector('#game [data-shortcut="' + k + '"]');
      if (!target) {
        var g = document.getElementById("game");
        showWhy((g.getAttribute("data-why-key") || "").replace("%(key)s", k), null);
        return;
      }
    }
    if (target) { event.preventDefault(); target.click(); }
  });
  window.damPractice = { inControl: inControl, modified: modified };
})();
