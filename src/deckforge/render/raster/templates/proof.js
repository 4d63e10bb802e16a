// The soft-proof switch of a deck's page: it shows every card as the press prints it
// (the "-proof" image made beside each picture) or as drawn, and is remembered from page
// to page. A live page's reloaded images keep the address this gives them.
(() => {
  "use strict";
  const KEY = "deckforge-proof";

  function swap(address, on) {
    const plain = address.replace(/-proof(-small\.png|\.jpg)(?=$|\?)/, "$1");
    return on ? plain.replace(/(-small\.png|\.jpg)(?=$|\?)/, "-proof$1") : plain;
  }

  function show(on) {
    document.documentElement.classList.toggle("proof", on);
    for (const image of document.querySelectorAll("ol.cards img, dialog.card img")) {
      image.setAttribute("src", swap(image.getAttribute("src"), on));
    }
    for (const link of document.querySelectorAll("ol.cards a")) {
      link.setAttribute("href", swap(link.getAttribute("href"), on));
    }
  }

  document.addEventListener("DOMContentLoaded", () => {
    const box = document.getElementById("proof");
    if (!box) return;
    let on = false;
    try { on = localStorage.getItem(KEY) === "1"; } catch { /* no storage: off */ }
    box.checked = on;
    if (on) show(true);
    box.addEventListener("change", () => {
      show(box.checked);
      try { localStorage.setItem(KEY, box.checked ? "1" : "0"); } catch { /* not kept */ }
    });
  });
})();
