/* global window, document, requestAnimationFrame, cancelAnimationFrame, ResizeObserver */
// The campaign state in VS Code's Markdown preview (see campaign-state.css): each cell learns its
// column's name (shown beside the value when the table is stacked), and the table is stacked when
// its rows, one line each, are wider than the preview. Measured again when the preview is resized
// or its content is drawn anew, and once its style sheets and fonts have come: measured before them,
// the cells still wrap, the table fits, and it stays a wide table once they apply. Only a .umpire-state
// box is touched.
(function () {
    'use strict';
    function lay(box) {
        var table = box.querySelector('table');
        if (!table) return;
        var heads = Array.prototype.map.call(table.querySelectorAll('thead th'), function (th) { return th.textContent.trim(); });
        Array.prototype.forEach.call(table.querySelectorAll('tbody tr'), function (tr) {
            Array.prototype.forEach.call(tr.children, function (td, i) { if (heads[i]) td.setAttribute('data-label', heads[i]); });
        });
        box.classList.remove('stacked');
        if (table.getBoundingClientRect().width > box.clientWidth + 0.5) box.classList.add('stacked');
    }
    function layAll() {
        Array.prototype.forEach.call(document.querySelectorAll('.umpire-state'), lay);
    }
    var pending = 0;
    function later() {
        cancelAnimationFrame(pending);
        pending = requestAnimationFrame(layAll);
    }
    window.addEventListener('resize', later);
    window.addEventListener('vscode.markdown.updateContent', later);
    window.addEventListener('load', later);
    if (document.fonts && document.fonts.ready) document.fonts.ready.then(later);
    // Any change of the page's size (a style sheet applied late, the panel resized): measured again.
    // Laying out again gives the same classes, so the page's size settles after one more round.
    if (typeof ResizeObserver === 'function') new ResizeObserver(later).observe(document.body);
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', layAll);
    else layAll();
}());
