/**
 * The checks of `import "file.battle"` (docs/campaigns.md#campaigns-across-files): the file is there and
 * readable, imports do not lead back to the importing file, no name is declared in two files, and an
 * imported file is written for the same rule set.
 */
import { UriUtils, type ValidationAcceptor } from 'langium';
import { isForce, isGrade, isModifier, type Force, type Grade, type Modifier, type Scenario } from '../generated/ast.js';
import { contextOf } from '../../core/model-cache.js';
import { Codes } from '../../core/codes.js';
import { importsOf, misplacedRules, unquote } from '../../core/scenario.js';
import type { ImportGraph } from '../battle-imports.js';

type Declaration = Grade | Modifier | Force;
const KIND: Record<string, string> = { Grade: 'grade', Modifier: 'modifier', Force: 'force' };

function declarations(root: Scenario): Declaration[] {
    return root.elements.filter((el): el is Declaration => (isGrade(el) || isModifier(el) || isForce(el)) && !!el.name);
}

function rulesOf(root: Scenario): string {
    return root.rules ?? misplacedRules(root)?.name ?? contextOf(root).rulesets.defaultId;
}

export function checkImports(root: Scenario, graph: ImportGraph | undefined, accept: ValidationAcceptor): void {
    if (importsOf(root).length === 0 || !graph) return;
    const own = new Map<string, Declaration>();
    for (const d of declarations(root)) if (!own.has(`${d.$type} ${d.name}`)) own.set(`${d.$type} ${d.name}`, d);
    /** Each imported name, with the file that declared it first. */
    const imported = new Map<string, string>();
    const counted = new Set<string>();
    const home = root.$document?.uri.toString();
    for (const link of graph.direct(root)) {
        const name = link.node.path ?? '';
        if (link.uri.toString() === home) {
            accept('error', `A file cannot import itself: remove this line.`, { node: link.node, property: 'path', code: Codes.importCycle });
            continue;
        }
        if (!link.document) {
            const why = graph.failure(link.uri);
            if (why === undefined || why === 'no such file') {
                accept('error', `There is no file ${name} (looked for ${link.uri.fsPath || link.uri.toString()}): an import's path is relative to this file.`,
                    { node: link.node, property: 'path', code: Codes.importMissing });
            } else {
                accept('error', `${name} cannot be imported: ${why}.`, { node: link.node, property: 'path', code: Codes.importUnreadable });
            }
            continue;
        }
        const cycle = graph.cycleThrough(root, link);
        if (cycle) {
            accept('error', `This import leads back to this file (${cycle.join(' → ')}): files import each other in one direction only, the order of battle at the bottom.`,
                { node: link.node, property: 'path', code: Codes.importCycle });
        }
        const theirs = link.document.parseResult.value;
        const ours = rulesOf(root);
        if (rulesOf(theirs) !== ours) {
            accept('error', `${name} is written for the ${rulesOf(theirs)} rules and this file for ${ours}: a unit's stats mean different things under each, so both files must have the same 'rules' line.`,
                { node: link.node, property: 'path', code: Codes.importRulesDiffer });
        }
        // The files this import brings in: its own imports first, then itself.
        for (const document of [...graph.closure(theirs), link.document]) {
            const key = document.uri.toString();
            if (counted.has(key) || key === home) continue;
            counted.add(key);
            const file = UriUtils.basename(document.uri);
            for (const d of declarations(document.parseResult.value)) {
                const id = `${d.$type} ${d.name}`;
                const mine = own.get(id);
                if (mine) {
                    accept('error', `There is also a ${KIND[d.$type]} named '${d.name}' in ${file}: rename one. This file uses its own.`,
                        { node: mine, property: 'name', code: Codes.importNameClash });
                    own.delete(id);
                } else if (imported.has(id) && imported.get(id) !== file) {
                    const from = file === unquote(name).split('/').pop() ? `${name} declares` : `${name} brings from ${file}`;
                    accept('error', `${from} a ${KIND[d.$type]} named '${d.name}', already imported from ${imported.get(id)}: rename one. The first is used.`,
                        { node: link.node, property: 'path', code: Codes.importNameClash });
                } else if (!imported.has(id)) imported.set(id, file);
            }
        }
    }
}
