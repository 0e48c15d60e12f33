// Hands Telegram's signed launch data to the server, which opens a session when the signature holds; the page
// then carries that session in its forms (inside Telegram Web's frame, the site's cookie may never be sent).
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
  function open(next, session) {
    var form = document.createElement("form");
    var field = document.createElement("input");
    form.method = "post";
    form.action = next;
    field.type = "hidden";
    field.name = "session";
    field.value = session;
    form.appendChild(field);
    document.body.appendChild(form);
    form.submit();
  }
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
    if (answer && answer.ok && answer.session) {
      open(answer.next, answer.session);
    } else {
      refused();
    }
  }).catch(refused);
})();
