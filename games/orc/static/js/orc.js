// De l'Orc's table: slaps with immediate local feedback, and the deal's small pushes.
(() => {
  // The page says now and then that its player is still at the table, well within the
  // mark's lifetime (accounts.presence): an event that runs itself finds its absent players
  // by it, and would take a player whose page stays silent for one who left.
  let heartbeat;
  document.body.addEventListener("htmx:wsOpen", (event) => {
    document.body.dataset.ws = "open";
    clearInterval(heartbeat);
    heartbeat = setInterval(() => event.detail.socketWrapper.send("{}"), 20000);
  });

  // A touch screen has no keys to press: the page hides their hints (the stylesheet does
  // too, for browsers that report the media features).
  if (matchMedia("(hover: none), (pointer: coarse)").matches) document.documentElement.dataset.touch = "1";

  // During the deal every pile should be in view. Where the piles are off the screen (below
  // it on a phone, or above it when the page was left further down after the last round),
  // the page scrolls to them, until the player scrolls himself; the header, the line saying
  // what happens now and the holdings stay a scroll away. Each deal anew.
  let scrolledByHand = false;
  let dealing = false;
  const byHand = () => { scrolledByHand = true; };
  window.addEventListener("wheel", byHand, { passive: true });
  window.addEventListener("touchmove", byHand, { passive: true });
  window.addEventListener("keydown", (event) => {
    if (/^(Page(Up|Down)|Arrow(Up|Down)|Home|End| )$/.test(event.key)) byHand();
  });
  const keepDealInView = () => {
    const board = document.getElementById("board");
    const deal = document.getElementById("deal");
    const now = !!board && board.dataset.dealing === "1";
    if (now && !dealing) scrolledByHand = false;
    dealing = now;
    const piles = document.getElementById("orc-piles");
    if (!now || !deal || !piles || scrolledByHand) return;
    const box = piles.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) deal.scrollIntoView({ block: "start" });
  };
  keepDealInView();
  document.body.addEventListener("htmx:wsAfterMessage", keepDealInView);
  document.body.addEventListener("htmx:wsClose", () => { document.body.dataset.ws = "closed"; });

  // A small push of the deal: swap each pile, counter or list it carries, unless the page
  // already shows a newer one (pushes from two processes may cross on the way).
  document.body.addEventListener("htmx:wsBeforeMessage", (event) => {
    const text = event.detail.message;
    if (typeof text !== "string" || !text.startsWith("<template data-deal")) return;
    event.preventDefault();
    const holder = document.createElement("div");
    holder.innerHTML = text;
    const template = holder.querySelector("template");
    for (const fresh of Array.from(template.content.children)) {
      const shown = fresh.id && document.getElementById(fresh.id);
      if (!shown) continue;
      if (Number(shown.dataset.stamp || 0) > Number(fresh.dataset.stamp || 0)) continue;
      shown.replaceWith(document.importNode(fresh, true));
    }
    document.body.dataset.dealStamp = template.dataset.deal;
    keepDealInView();
    // Piles not in this update keep their buttons: hide those for cards the viewer no
    // longer holds.
    const counter = document.getElementById("deal-counter");
    for (const pile of document.querySelectorAll(".orc-pile")) {
      pile.classList.toggle("next", !!counter && pile.dataset.pile === counter.dataset.next);
    }
    const left = document.getElementById("cards-left");
    if (left && left.dataset.myShields !== undefined) {
      for (const b of document.querySelectorAll("button.slap.shield")) b.hidden = left.dataset.myShields === "0";
      for (const b of document.querySelectorAll("button.slap.desert")) b.hidden = left.dataset.myDeserters === "0";
    }
  });

  const notice = (message, error) => {
    const box = document.getElementById("notice");
    if (!box) return;
    box.innerHTML = "";
    const p = document.createElement("p");
    p.className = error ? "notice error" : "notice";
    p.textContent = message;
    box.appendChild(p);
  };

  const csrf = () => JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"];

  const slap = async (action, pile) => {
    const piles = document.getElementById("orc-piles");
    if (!piles) return;
    const node = document.getElementById("pile-" + pile);
    if (node) node.classList.add("slapping");  // corrected by the push or the refusal
    const body = new URLSearchParams({ action, version: "" });
    const answer = await fetch(piles.dataset.slapUrl, {
      method: "POST",
      headers: { "X-CSRFToken": csrf(), "HX-Request": "true", "X-Slap": "1" },
      body,
    });
    const again = document.getElementById("pile-" + pile);
    if (again) again.classList.remove("slapping");
    if (answer.status === 204) return;
    const holder = document.createElement("div");
    holder.innerHTML = await answer.text();
    notice(holder.textContent.trim(), true);
  };

  document.body.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-slap]");
    if (!button) return;
    event.preventDefault();
    slap(button.dataset.slap, button.dataset.slap.split(" P")[1]);
  });

  // A card's strength: its title shows on hover; a tap (phones have no hover) shows it in a
  // tip beside the card, outside the board so that a push does not take it away.
  let tip = null;
  let tipTimer = 0;
  const hideTip = () => { if (tip) tip.hidden = true; };
  document.body.addEventListener("click", (event) => {
    const card = event.target.closest(".orc-card[title]");
    if (!card) { hideTip(); return; }
    if (!tip) {
      tip = document.createElement("div");
      tip.className = "card-tip";
      tip.setAttribute("role", "status");
      document.body.appendChild(tip);
    }
    tip.textContent = (card.querySelector(".card-name") || card).textContent.trim() + " · " + card.title;
    tip.hidden = false;
    const box = card.getBoundingClientRect();
    const width = tip.offsetWidth;
    tip.style.left = Math.max(4, Math.min(box.left, window.innerWidth - width - 4)) + "px";
    tip.style.top = (box.bottom + 4) + "px";
    clearTimeout(tipTimer);
    tipTimer = setTimeout(hideTip, 6000);
  });
  window.addEventListener("scroll", hideTip, { passive: true });

  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input, textarea, select")) return;
    const digit = /^Digit(\d)$/.exec(event.code);
    if (!digit) return;
    const pile = digit[1] === "0" ? "10" : digit[1];
    const verb = event.shiftKey ? "desert" : "shield";
    const button = document.querySelector(`button[data-slap="${verb} P${pile}"]:not([disabled])`);
    if (button) { event.preventDefault(); slap(button.dataset.slap, pile); }
  });

  // A push (another player's move, a clock) redraws the board while the player makes up his
  // mind: what he ticked stays ticked, as long as it is the same decision.
  const choices = (form) => Array.from(form.querySelectorAll("input[type=checkbox], input[type=radio]"));
  const decisionKey = (form) => {
    const battle = document.querySelector(".battle[data-battle]");
    const title = form.querySelector("h2");
    return [form.className, battle ? battle.dataset.battle : "", title ? title.textContent : "",
      ...choices(form).map((i) => i.name + "=" + i.value)].join("|");
  };
  let ticked = null;
  document.body.addEventListener("htmx:wsBeforeMessage", () => {
    const form = document.getElementById("decision");
    ticked = form && { key: decisionKey(form), on: choices(form).map((i) => i.checked) };
  });
  document.body.addEventListener("htmx:wsAfterMessage", () => {
    const form = document.getElementById("decision");
    if (!form || !ticked || decisionKey(form) !== ticked.key) return;
    const inputs = choices(form);
    inputs.forEach((input, i) => {
      if (input.checked === ticked.on[i]) return;
      input.checked = ticked.on[i];
      input.dispatchEvent(new Event("change", { bubbles: true }));
    });
  });

  // Decisions made of choices. Mercenaries: the army's strength as the ticked cards would
  // make it, from the server's table for the viewer's own cards ("giants-trolls-machines-
  // gremlins"). A spy: once a player is chosen, how many of each kind he holds (public).
  document.body.addEventListener("change", (event) => {
    const form = event.target.closest("form#decision");
    if (!form) return;
    if (form.dataset.strengths) {
      const counts = { GI: 0, TR: 0, WM: 0, GR: 0 };
      for (const box of form.querySelectorAll("input[data-code]:checked")) counts[box.dataset.code] += 1;
      const key = [counts.GI, counts.TR, counts.WM, counts.GR].join("-");
      const strength = JSON.parse(form.dataset.strengths)[key];
      const shown = document.getElementById("would-be");
      if (shown && strength !== undefined) { shown.textContent = strength; shown.dataset.strength = strength; }
    }
    if (event.target.name === "target" && event.target.dataset.holds) {
      const holds = JSON.parse(event.target.dataset.holds);
      for (const mark of form.querySelectorAll("small.holds[data-code]")) {
        const n = holds[mark.dataset.code] || 0;
        mark.textContent = n ? "×" + n : "";
        mark.closest("label").classList.toggle("held", n > 0);
      }
    }
  });

  // A battle's reveal brought by a push while the player looks further down the page: show
  // it, the game's climax, from its top.
  let revealShown = null;
  document.body.addEventListener("htmx:wsAfterMessage", () => {
    const reveal = document.getElementById("reveal");
    const key = reveal ? reveal.dataset.round + ":" + reveal.dataset.battle : null;
    if (key && key !== revealShown) {
      const top = reveal.getBoundingClientRect().top;
      if (top < 0 || top > window.innerHeight / 2) document.getElementById("round-pause").scrollIntoView();
    }
    revealShown = key;
  });

  setInterval(() => {
    keepDealInView();
    for (const clock of document.querySelectorAll(".clock[data-deadline]")) {
      const left = Math.max(0, Math.round((Date.parse(clock.dataset.deadline) - Date.now()) / 1000));
      const m = Math.floor(left / 60), s = left % 60;
      clock.querySelector("time").textContent = m + ":" + String(s).padStart(2, "0");
    }
  }, 1000);
})();
