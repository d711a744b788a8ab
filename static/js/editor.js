// Scenario editor: after htmx replaced the editor, say what happened (the status region is
// announced) and keep the chosen deal target, so dealing card after card needs no re-choosing.
(function () {
  "use strict";
  var target = null;
  document.addEventListener("htmx:beforeRequest", function () {
    var select = document.getElementById("deal-target");
    target = select ? select.value : null;
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    if (!event.target || !document.getElementById("editor")) return;
    var select = document.getElementById("deal-target");
    if (select && target) {
      for (var i = 0; i < select.options.length; i++) {
        if (select.options[i].value === target) { select.value = target; break; }
      }
    }
    var message = document.getElementById("editor-message");
    if (message && message.textContent.trim()) message.focus({preventScroll: false});
  });
})();
