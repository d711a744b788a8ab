// Practice mode: small comforts on top of htmx (everything also works without JavaScript).
(function () {
  "use strict";
  // After a refused move, put the keyboard focus on the explanation so it is read out.
  document.addEventListener("htmx:afterSwap", function () {
    var error = document.getElementById("move-error");
    if (error) {
      error.setAttribute("tabindex", "-1");
      error.focus();
    }
  });
})();
