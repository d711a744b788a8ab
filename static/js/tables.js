// A table with friends (the page catches up after a sleep with catchup.js).
// Answers may arrive out of order (a stream event rendered just before the answer to this
// phone's own move): one showing an older position than the page is dropped.
(function () {
  "use strict";
  // (deal number, moves of the deal, changes of the seats): each only grows.
  function position(html) {
    var m = /id="game"[^>]*data-deal="(\d+)" data-version="(\d+)" data-table="(\d+)"/.exec(html || "");
    return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
  }
  function older(html) {
    var game = document.getElementById("game");
    var now = game && [Number(game.dataset.deal), Number(game.dataset.version), Number(game.dataset.table)];
    var next = position(html);
    if (!now || !next) return false;
    for (var i = 0; i < 3; i++) if (next[i] !== now[i]) return next[i] < now[i];
    return false;
  }
  document.addEventListener("htmx:sseBeforeMessage", function (event) {
    if (older(event.detail && event.detail.data)) event.preventDefault();
  });
  // Once the cards are dealt the invitation folds away (it stays a click away).
  document.addEventListener("htmx:afterSettle", function () {
    var game = document.getElementById("game");
    var invite = document.querySelector(".tables-invite");
    if (game && invite && invite.open && game.dataset.deal !== "0" && !invite.dataset.folded) {
      invite.open = false;
      invite.dataset.folded = "true";
    }
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    var xhr = event.detail && event.detail.xhr;
    if (xhr && document.querySelector(".tables") && older(xhr.responseText)) event.detail.shouldSwap = false;
  });
})();
