// Hands Telegram's signed launch data to the server, which opens a session when the signature holds.
(function () {
  "use strict";
  var status = document.getElementById("launch-status");
  function launchData() {
    var hash = new URLSearchParams(window.location.hash.slice(1)).get("tgWebAppData");
    if (hash) { return hash; }
    var app = window.Telegram && window.Telegram.WebApp;
    return app && app.initData ? app.initData : "";
  }
  function refused() { status.textContent = status.dataset.refused; }
  var data = launchData();
  history.replaceState(null, "", window.location.pathname); // the launch data leaves the address bar
  if (!data) { refused(); return; }
  fetch(status.dataset.session, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ init_data: data }).toString()
  }).then(function (response) {
    return response.ok ? response.json() : null;
  }).then(function (answer) {
    if (answer && answer.ok) {
      window.location.replace(answer.next);
    } else {
      refused();
    }
  }).catch(refused);
})();
