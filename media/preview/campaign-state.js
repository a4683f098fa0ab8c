/* global window, document, requestAnimationFrame, cancelAnimationFrame */
// The campaign state in VS Code's Markdown preview (see campaign-state.css): each cell learns its
// column's name (shown beside the value when the table is stacked), and the table is stacked when
// its rows, one line each, are wider than the preview. Measured again when the preview is resized
// or its content is drawn anew. Only a .umpire-state box is touched.
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
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', layAll);
    else layAll();
}());
