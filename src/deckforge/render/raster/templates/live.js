// The live preview of `deckforge serve`: the server's events say which images were drawn
// again and what the sources' problems are; the page loads those images afresh (the rest
// of the page, and where it is scrolled to, stay as they are). A click on a card shows it
// large; the filter hides the faces whose names do not hold its text.
(() => {
  "use strict";
  const pathOf = (address) => new URL(address, document.baseURI).pathname;
  window.deckforgeLive = { version: null, updates: 0 };

  function refresh(update) {
    const changed = new Map(update.changed.map((path) => ["/" + path, path]));
    for (const image of document.querySelectorAll("img")) {
      const path = pathOf(image.getAttribute("src"));
      if (!changed.has(path)) continue;
      image.src = path + "?v=" + update.version;
      const name = update.names[changed.get(path)];
      const item = image.closest("li[data-name]");
      if (name === undefined || !item) continue;
      image.alt = name;
      item.dataset.name = name;
      const caption = item.querySelector("figcaption bdi");
      if (caption) caption.textContent = name;
      const link = item.querySelector("a[data-title]");
      link.dataset.title = link.dataset.title.replace(/^(\d+\. ).*$/s, "$1" + name);
    }
    for (const link of document.querySelectorAll("ol.cards a")) {
      const path = pathOf(link.getAttribute("href"));
      if (changed.has(path)) link.href = path + "?v=" + update.version;
    }
    const shown = document.querySelector("dialog.card img");
    if (shown && changed.has(pathOf(shown.src))) shown.src = pathOf(shown.src) + "?v=" + update.version;
  }

  // What the page says of each card (names, where each is written) as the server has it
  // now: a line added above a card moves it without changing its picture.
  async function relabel() {
    const response = await fetch(location.pathname, { cache: "no-store" });
    if (!response.ok) return;
    const fresh = new DOMParser().parseFromString(await response.text(), "text/html");
    const items = document.querySelectorAll("ol.faces > li[data-name]");
    const freshItems = fresh.querySelectorAll("ol.faces > li[data-name]");
    if (items.length !== freshItems.length) return;
    items.forEach((item, index) => {
      const source = freshItems[index];
      item.dataset.name = source.dataset.name;
      const link = item.querySelector("a[data-title]");
      Object.assign(link.dataset, source.querySelector("a[data-title]").dataset);
      item.querySelector("img").alt = source.querySelector("img").alt;
      item.querySelector("figcaption bdi").textContent =
        source.querySelector("figcaption bdi").textContent;
    });
  }

  const events = new EventSource("/events");
  events.addEventListener("update", (message) => {
    const update = JSON.parse(message.data);
    // The panel is HTML the server made with every source text escaped.
    document.getElementById("problems").innerHTML = update.problems;
    if (window.deckforgeLive.version !== null) {
      refresh(update);
      relabel().catch(() => null);
    }
    window.deckforgeLive.version = update.version;
    window.deckforgeLive.updates += 1;
  });

  document.addEventListener("click", (event) => {
    const link = event.target.closest("ol.cards a[data-title]");
    if (!link || event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    let dialog = document.querySelector("dialog.card");
    if (!dialog) {
      dialog = document.createElement("dialog");
      dialog.className = "card";
      dialog.innerHTML = '<form method="dialog"><p class="title"></p><img alt="">' +
        '<p class="source note"></p><p><button>Close</button></p></form>';
      dialog.addEventListener("click", (click) => { if (click.target === dialog) dialog.close(); });
      document.body.append(dialog);
    }
    dialog.querySelector(".title").textContent = link.dataset.title;
    const where = [
      link.dataset.source,
      link.dataset.template && "template " + link.dataset.template,
      link.dataset.elements && "elements: " + link.dataset.elements,
    ];
    dialog.querySelector(".source").textContent = where.filter(Boolean).join(" · ");
    dialog.querySelector("img").src = link.href;
    dialog.showModal();
  });

  document.addEventListener("input", (event) => {
    if (event.target.id !== "filter") return;
    const words = event.target.value.trim().toLowerCase();
    for (const item of document.querySelectorAll("ol.faces > li[data-name]")) {
      item.hidden = words !== "" && !item.dataset.name.toLowerCase().includes(words);
    }
  });
})();
