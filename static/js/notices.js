// A signed-in person's notices on any page of the site (accounts.live): the page keeps a socket
// to his own group, shows each notice it pushes at the top of the page (one per tag: a later
// one replaces it), and has the browser show it too when he looks at another tab and has
// allowed the site's notifications. A socket that drops connects again, as the others do.
(() => {
  const box = document.getElementById("person-notices");
  if (!box) return;
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  let retries = 0;
  const show = (html) => {
    const template = document.createElement("template");
    template.innerHTML = html.trim();
    const notice = template.content.firstElementChild;
    if (!notice) return;
    const href = notice.dataset.href;
    // Already on the page it points to: nothing to tell.
    if (href && new URL(href, location.href).pathname === location.pathname) return;
    const tag = notice.dataset.tag;
    const old = tag && [...box.children].find((n) => n.dataset.tag === tag);
    if (old) old.replaceWith(notice);
    else box.append(notice);
    if (document.hidden && "Notification" in window && Notification.permission === "granted") {
      new Notification(document.title, { body: notice.textContent.trim(), tag: tag || undefined });
    }
  };
  box.addEventListener("click", (event) => {
    const close = event.target.closest("[data-dismiss]");
    if (close) close.closest("[data-tag]")?.remove();
  });
  const connect = () => {
    const socket = new WebSocket(scheme + location.host + "/ws/me/");
    socket.addEventListener("open", () => {
      retries = 0;
      document.body.dataset.personWs = "open";
    });
    socket.addEventListener("message", (event) => show(event.data));
    socket.addEventListener("close", () => {
      document.body.dataset.personWs = "closed";
      retries += 1;
      setTimeout(connect, retries === 1 ? 400 * Math.random() : 400 + 800 * Math.random());
    });
  };
  connect();
})();
