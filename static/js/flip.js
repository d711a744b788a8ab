// Cards that travel (FLIP with the Web Animations API), shared by the tutorials and practice:
// remember where each card was (positions), let the page change, then animate every card from
// where it was to where it is now (play).  A card that arrives comes from the place its
// markup names (data-from="<element id>" on an ancestor), else from the stock, else fades in;
// one that leaves flies to the discard pile when there is one.  Nothing moves when the reader
// asks for less motion (prefers-reduced-motion).
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
  function positions(root) {
    var map = {};
    if (!root) return map;
    Object.defineProperty(map, "__backs", { value: backs(root), enumerable: false });
    Object.defineProperty(map, "__pile", { value: pileText(root), enumerable: false });
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
  function ghost(el, from, to, duration) {
    // A copy of a card that left the page, drawn where it was and sent to the pile.
    var copy = el.cloneNode(true);
    copy.removeAttribute("id");
    copy.removeAttribute("data-card"); // not a card of the page: only its picture, leaving
    copy.classList.add("card-ghost");
    copy.setAttribute("aria-hidden", "true");
    copy.style.cssText = "position:fixed;margin:0;pointer-events:none;z-index:10;left:" + from.left +
      "px;top:" + from.top + "px;width:" + from.width + "px;height:" + from.height + "px";
    document.body.appendChild(copy);
    var anim = copy.animate([
      { transform: "none", opacity: 1 },
      { transform: "translate(" + (to.left - from.left) + "px," + (to.top - from.top) + "px) scale(.8)", opacity: 0.2 }
    ], { duration: duration || 420, easing: "ease-in" });
    anim.onfinish = anim.oncancel = function () { copy.remove(); };
  }
  function origin(root, el) {
    var from = el.closest("[data-from]");
    return from ? rectOf(root, "#" + from.getAttribute("data-from")) : null;
  }
  // old: positions() taken before the change; speed: 1 = the tutorials' pace.
  function play(root, old, speed) {
    if (!old || !root || still()) return;
    var k = speed || 1;
    var now = positions(root);
    var stock = rectOf(root, "#pile-stock");
    var pile = rectOf(root, "#pile-discard");
    Object.keys(now).forEach(function (key) {
      var el = now[key].el, to = now[key].rect;
      if (old[key]) { fly(el, old[key].rect, to, 380 * k); return; }
      var from = origin(root, el) || stock;
      if (from) fly(el, from, to, 420 * k);
      else el.animate([{ opacity: 0 }, { opacity: 1 }], { duration: 300 * k });
    });
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
  return { positions: positions, play: play, still: still };
})();
