/**
 * The Monaco features the playground's editor uses, each registered by its own module, instead of
 * all of them (`monaco-editor/features/register.all.js`): left out are those the language server
 * gives nothing for or the page turns off — inline completions, the diff editor, the colour picker,
 * parameter hints, linked editing, sticky scroll, drag and drop, GPU rendering, font zoom and the
 * like. They were 98 KB of the page's 1,424 KB of gzipped JavaScript, read before the first diagnostics
 * (docs/performance.md, "Start-up").
 */
import 'monaco-editor/features/bracketMatching/register.js';
import 'monaco-editor/features/clipboard/register.js';
import 'monaco-editor/features/codeAction/register.js';
import 'monaco-editor/features/codeEditor/register.js';
import 'monaco-editor/features/codelens/register.js';
import 'monaco-editor/features/codicon/register.js';
import 'monaco-editor/features/comment/register.js';
import 'monaco-editor/features/contextmenu/register.js';
import 'monaco-editor/features/cursorUndo/register.js';
import 'monaco-editor/features/find/register.js';
import 'monaco-editor/features/folding/register.js';
import 'monaco-editor/features/format/register.js';
import 'monaco-editor/features/gotoError/register.js';
import 'monaco-editor/features/gotoLine/register.js';
import 'monaco-editor/features/gotoSymbol/register.js';
import 'monaco-editor/features/hover/register.js';
import 'monaco-editor/features/indentation/register.js';
import 'monaco-editor/features/inlayHints/register.js';
import 'monaco-editor/features/inlineProgress/register.js';
import 'monaco-editor/features/lineSelection/register.js';
import 'monaco-editor/features/linesOperations/register.js';
import 'monaco-editor/features/links/register.js';
import 'monaco-editor/features/multicursor/register.js';
import 'monaco-editor/features/placeholderText/register.js';
import 'monaco-editor/features/quickCommand/register.js';
import 'monaco-editor/features/quickHelp/register.js';
import 'monaco-editor/features/quickOutline/register.js';
import 'monaco-editor/features/readOnlyMessage/register.js';
import 'monaco-editor/features/referenceSearch/register.js';
import 'monaco-editor/features/rename/register.js';
import 'monaco-editor/features/semanticTokens/register.js';
import 'monaco-editor/features/smartSelect/register.js';
import 'monaco-editor/features/snippet/register.js';
import 'monaco-editor/features/suggest/register.js';
import 'monaco-editor/features/tokenization/register.js';
import 'monaco-editor/features/wordHighlighter/register.js';
import 'monaco-editor/features/wordOperations/register.js';// The completion list itself: register.all.js reaches it only through the inline completions left out above.
import 'monaco-editor/editor/contrib/suggest/browser/suggestController.js';
