// A page that follows a stream (a student's phone in a live session, a table with friends):
// htmx's SSE extension swaps in each change.  When the page comes back (a phone waking, the
// network returning) the current state is fetched at once (data-now-url, swapped into
// data-now-target), without waiting for EventSource to notice that its connection died.
// A stream that failed (an error answer; a lost network EventSource retries by itself, every
// second) is reopened by the extension after a delay that doubles up to a minute: a page
// coming back with its stream in that state is loaded afresh instead.
(function () {
  "use strict";
  var streamFailed = false;
  var last = 0;
  document.addEventListener("htmx:sseError", function (event) {
    var source = event.detail && event.detail.source;
    streamFailed = !!source && source.readyState === 2;  // EventSource.CLOSED
  });
  document.addEventListener("htmx:sseOpen", function () { streamFailed = false; });
  function catchUp() {
    var root = document.querySelector("[data-now-url]");
    if (!root || !window.htmx || document.visibilityState === "hidden") return;
    if (streamFailed) { window.location.reload(); return; }
    if (Date.now() - last < 1000) return;
    last = Date.now();
    window.htmx.ajax("GET", root.getAttribute("data-now-url"),
      { target: root.getAttribute("data-now-target"), swap: "innerHTML" });
  }
  document.addEventListener("visibilitychange", catchUp);
  window.addEventListener("online", catchUp);
  window.addEventListener("pageshow", function (event) { if (event.persisted) catchUp(); });
})();
