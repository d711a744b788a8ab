// Cards that travel (FLIP with the Web Animations API), shared by the tutorials and practice:
// remember where each card was (positions), let the page change, then animate every card from
// where it was to where it is now (play).  A card that arrives comes from the place its
// markup names (data-from="<element id>" on an ancestor), else from the stock, else fades in;
// one that leaves flies to the discard pile when there is one; a completed trick goes to the
// seat that took it (data-taken-to); a fresh deal is dealt from the deck (deal).  Nothing
// moves when the reader asks for less motion (prefers-reduced-motion).
window.DamFlip = (function () {
  "use strict";
  var reduced = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;

  function still() {
    return !!(reduced && reduced.matches) || !document.body || !document.body.animate;
  }
  function backs(root) {
    // Face-down cards per seat: a seat whose count grows took the cards that left the table.
    var out = {};
    root.querySelectorAll(".game-seat[id]").forEach(function (seat) {
      out[seat.id] = seat.querySelectorAll(".card--back").length;
    });
    return out;
  }
  function pileText(root) {
    var pile = root.querySelector("#pile-discard");
    return pile ? pile.textContent : "";
  }
  // The table's own place: a card is judged by where it lies on the table, so that text
  // appearing above the table (a tutorial's feedback, the practice news) moves no card.
  function tableRect(root) {
    var table = root.querySelector(".game-table");
    return table ? table.getBoundingClientRect() : null;
  }
  function positions(root) {
    var map = {};
    if (!root) return map;
    Object.defineProperty(map, "__table", { value: tableRect(root), enumerable: false });
    Object.defineProperty(map, "__backs", { value: backs(root), enumerable: false });
    Object.defineProperty(map, "__pile", { value: pileText(root), enumerable: false });
    Object.defineProperty(map, "__trick", { value: trickKey(root), enumerable: false });
    root.querySelectorAll("[data-card]").forEach(function (el) {
      var r = el.getBoundingClientRect();
      if (r.width) map[el.getAttribute("data-card")] = { rect: r, el: el };
    });
    return map;
  }
  function rectOf(root, selector) {
    var el = selector && (root.querySelector(selector) || document.getElementById(selector.replace(/^#/, "")));
    if (!el) return null;
    var r = el.getBoundingClientRect();
    return r.width ? r : null;
  }
  function fly(el, from, to, duration) {
    var dx = from.left - to.left, dy = from.top - to.top;
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return null;
    return el.animate([{ transform: "translate(" + dx + "px," + dy + "px)" }, { transform: "none" }],
      { duration: duration, easing: "cubic-bezier(.2,.7,.3,1)" });
  }
  function ghost(el, from, to, duration, delay) {
    // A copy of a card that left the page, drawn where it was and sent to the pile.  With a
    // delay it stays invisible until it sets off (the card itself is still shown till then).
    var copy = el.cloneNode(true);
    copy.removeAttribute("id");
    copy.removeAttribute("data-card"); // not a card of the page: only its picture, leaving
    copy.classList.add("card-ghost");
    copy.setAttribute("aria-hidden", "true");
    copy.style.cssText = "position:fixed;margin:0;pointer-events:none;z-index:10;left:" + from.left +
      "px;top:" + from.top + "px;width:" + from.width + "px;height:" + from.height + "px" +
      (delay ? ";opacity:0" : "");
    document.body.appendChild(copy);
    var anim = copy.animate([
      { transform: "none", opacity: 1 },
      { transform: "translate(" + (to.left - from.left) + "px," + (to.top - from.top) + "px) scale(.8)", opacity: 0.2 }
    ], { duration: duration || 420, delay: delay || 0, easing: "ease-in" });
    anim.onfinish = anim.oncancel = function () { copy.remove(); };
  }
  function trickKey(root) {
    var taken = root.querySelector("[data-taken-to]");
    return taken ? taken.getAttribute("data-trick") : "";
  }
  // A trick just completed: its cards arrive on the table as usual, stay a moment so the
  // reader sees the whole trick, then go to the seat that took it; the last trick is drawn
  // again (faintly) where it lay.
  function gather(root, k, now) {
    var taken = root.querySelector("[data-taken-to]");
    var seat = taken && rectOf(root, "#" + taken.getAttribute("data-taken-to"));
    if (!seat) return;
    var pause = 700 * k, away = 480 * k, back = 350 * k, total = pause + away + back;
    taken.querySelectorAll("[data-card]").forEach(function (el) {
      var at = now[el.getAttribute("data-card")];
      if (!at) return;
      var r = at.rect; // where it lies, whatever its arrival animation is doing now
      ghost(el, r, { left: seat.left + seat.width / 2 - r.width / 2, top: seat.top + 8 }, away, pause);
      el.animate([{ opacity: 1 }, { opacity: 1, offset: pause / total },
                  { opacity: 0, offset: pause / total + 0.001 }, { opacity: 0, offset: (pause + away) / total },
                  { opacity: 1 }], { duration: total });
    });
  }
  // A fresh deal: every card on the table comes from the deck (the stock, else the middle of
  // the table), one at a time round the table as a dealer deals.
  function deal(root, speed) {
    if (!root || still()) return 0;
    var k = speed || 1;
    var deck = rectOf(root, "#pile-stock") || rectOf(root, "#game-centre") || root.getBoundingClientRect();
    var seats = root.querySelectorAll(".game-seat");
    var rounds = [];
    seats.forEach(function (seat, s) {
      seat.querySelectorAll("[data-card], .card--back").forEach(function (el, i) {
        (rounds[i] = rounds[i] || [])[s] = el;
      });
    });
    var order = [];
    rounds.forEach(function (round) { round.forEach(function (el) { if (el) order.push(el); }); });
    var step = Math.min(45, 1100 / Math.max(order.length, 1)) * k;
    var from = { left: deck.left + deck.width / 2 - 20, top: deck.top + deck.height / 2 - 28 };
    order.forEach(function (el, i) {
      var r = el.getBoundingClientRect();
      if (!r.width) return;
      el.animate([{ transform: "translate(" + (from.left - r.left) + "px," + (from.top - r.top) + "px)", opacity: .3 },
                  { transform: "none", opacity: 1 }],
        { duration: 320 * k, delay: i * step, easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards" });
    });
    return order.length ? (order.length - 1) * step + 320 * k : 0;  // ms until the last card lands
  }
  function origin(root, el) {
    var from = el.closest("[data-from]");
    return from ? rectOf(root, "#" + from.getAttribute("data-from")) : null;
  }
  // old: positions() taken before the change; speed: 1 = the tutorials' pace.
  // A rect moved by the shift of the table (a copy: DOMRects are read-only).
  function shifted(r, dx, dy) {
    return { left: r.left + dx, top: r.top + dy, width: r.width, height: r.height };
  }
  function play(root, old, speed) {
    if (!old || !root || still()) return;
    var k = speed || 1;
    var now = positions(root);
    if (old.__table && now.__table) {
      // The page moved the whole table (a line of feedback above it, a scroll): every old
      // place moves with it, so only the cards that changed places on the table travel.
      var dx = now.__table.left - old.__table.left, dy = now.__table.top - old.__table.top;
      if (dx || dy) {
        Object.keys(old).forEach(function (key) {
          old[key] = { rect: shifted(old[key].rect, dx, dy), el: old[key].el };
        });
      }
    }
    var stock = rectOf(root, "#pile-stock");
    var pile = rectOf(root, "#pile-discard");
    Object.keys(now).forEach(function (key) {
      var el = now[key].el, to = now[key].rect;
      if (old[key]) { fly(el, old[key].rect, to, 380 * k); return; }
      var from = origin(root, el) || stock;
      if (from) fly(el, from, to, 420 * k);
      else el.animate([{ opacity: 0 }, { opacity: 1 }], { duration: 300 * k });
    });
    var key = trickKey(root);
    if (key && key !== old.__trick) gather(root, k, now);
    var was = old.__backs || {}, after = backs(root), taker = null;
    Object.keys(after).forEach(function (id) {
      if (was[id] !== undefined && after[id] > was[id]) taker = rectOf(root, "#" + id);
    });
    // Cards the discard pile got go there; otherwise to the seat that took them.
    var to = (pile && pileText(root) !== old.__pile) ? pile : (taker || pile);
    if (to) {
      Object.keys(old).forEach(function (key) {
        if (!now[key] && document.contains(old[key].el) === false) ghost(old[key].el, old[key].rect, to, 420 * k);
      });
    }
  }
  return { positions: positions, play: play, deal: deal, still: still };
})();
