// A table with friends: htmx's SSE extension swaps in each change; when the page comes back
// (a phone waking, the network returning) the current state is fetched at once as well.
(function () {
  "use strict";
  var last = 0;
  function catchUp() {
    var root = document.querySelector("[data-now-url]");
    if (!root || !window.htmx || document.visibilityState === "hidden") return;
    if (Date.now() - last < 1000) return;
    last = Date.now();
    window.htmx.ajax("GET", root.getAttribute("data-now-url"), { target: "#table-live", swap: "innerHTML" });
  }
  document.addEventListener("visibilitychange", catchUp);
  window.addEventListener("online", catchUp);
  window.addEventListener("pageshow", function (event) { if (event.persisted) catchUp(); });
})();
