/**
 * The page's first script, a small classic one in the page's head: it starts the language server's
 * worker at once, so that the worker reads its bundle and makes its services while the browser is
 * still fetching and running main.js (Monaco and the page, most of the page's JavaScript). main.ts
 * takes the worker from here when it starts; the first diagnostics wait for whichever is last, not
 * for both one after the other (docs/performance.md, "Start-up").
 */
(window as unknown as { umpireServerWorker?: Worker }).umpireServerWorker = new Worker('./main-browser.js', { name: 'Umpire language server' });
