// pdf.js (pdfjs-dist, legacy build) as Firefox's viewer uses it.
// usage: node pdfjs_tool.mjs JOB.json OUT.json
//   JOB = [{pdf, queries: [...], marked: bool}]
//   OUT = [{pdf, pages: [text], found: {query: hits}, marked: [{mcid: text}]}]
// Text: getTextContent({disableNormalization: true}) items joined exactly as
// PDFFindController#extractText joins them (item.str, "\n" after hasEOL items).
// Find: the real PDFFindController (web/pdf_viewer.mjs) with a stub link service.
// Marked: each page's text per MCID (getTextContent({includeMarkedContent: true})),
// what Firefox's accessibility tree reads for each structure element.
import fs from 'fs';
import path from 'path';
const PKG = process.env.PDFJS_PKG;
const pdfjs = await import(path.join(PKG, 'legacy/build/pdf.mjs'));
globalThis.pdfjsLib = pdfjs;
globalThis.window = globalThis;
if (typeof navigator === 'undefined') {
  globalThis.navigator = {userAgent: 'node', platform: 'Linux', language: 'en-US'};
}
globalThis.requestAnimationFrame = (f) => setTimeout(f, 0);
globalThis.document = {
  documentElement: {style: {}},
  createElement: () => ({style: {}, classList: {add() {}}}),
  addEventListener() {},
};
const {EventBus, PDFFindController} = await import(path.join(PKG, 'legacy/web/pdf_viewer.mjs'));

async function markedText(page) {
  const content = await page.getTextContent({includeMarkedContent: true, disableNormalization: true});
  const texts = {};
  const stack = [];
  for (const item of content.items) {
    if (item.type === 'beginMarkedContentProps' || item.type === 'beginMarkedContent') {
      const match = item.id ? /_mc(\d+)$/.exec(item.id) : null;
      stack.push(match ? Number(match[1]) : null);
    } else if (item.type === 'endMarkedContent') {
      stack.pop();
    } else {
      const mcid = stack.findLast((m) => m !== null);
      if (mcid === undefined) continue;
      texts[mcid] = (texts[mcid] || '') + item.str + (item.hasEOL ? '\n' : '');
    }
  }
  return texts;
}

const jobs = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const out = [];
for (const job of jobs) {
  const data = new Uint8Array(fs.readFileSync(job.pdf));
  const doc = await pdfjs.getDocument({data, verbosity: 0, useSystemFonts: false}).promise;
  const pages = [];
  const marked = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const page = await doc.getPage(i);
    const content = await page.getTextContent({disableNormalization: true});
    pages.push(content.items.map((it) => it.str + (it.hasEOL ? '\n' : '')).join(''));
    if (job.marked) marked.push(await markedText(page));
  }
  const found = {};
  if (job.queries && job.queries.length) {
    const eventBus = new EventBus();
    const linkService = {pagesCount: doc.numPages, page: 1};
    const finder = new PDFFindController({linkService, eventBus, updateMatchesCountOnProgress: false});
    finder.setDocument(doc);
    for (const query of job.queries) {
      eventBus.dispatch('find', {source: null, type: 'again', query, caseSensitive: false,
        entireWord: false, highlightAll: true, findPrevious: false, matchDiacritics: false});
      await new Promise((r) => setTimeout(r, 0));
      await Promise.all(finder._extractTextPromises);
      await new Promise((r) => setTimeout(r, 0));
      found[query] = finder.pageMatches.reduce((a, m) => a + (m ? m.length : 0), 0);
    }
  }
  out.push({pdf: job.pdf, pages, found, marked});
  await doc.destroy();
}
fs.writeFileSync(process.argv[3], JSON.stringify(out));
