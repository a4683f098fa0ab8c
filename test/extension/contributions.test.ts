/**
 * The editor conventions the manifest declares: Resolve and Odds at the cursor on keys and
 * in the editor's context menu, only in .battle editors; the New scenario command; a walkthrough
 * whose steps run the extension's own commands and whose pages are packed into the .vsix; and every
 * command the client registers is declared, and the other way round.
 */
import * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { UmpireCommands } from '../../src/protocol.js';

interface Contributes {
    commands: Array<{ command: string, title: string, category: string }>;
    keybindings: Array<{ command: string, key: string, mac?: string, when: string }>;
    menus: Record<string, Array<{ command: string, when: string, group?: string }>>;
    walkthroughs: Array<{ id: string, steps: Array<{ id: string, description: string, media: { markdown?: string }, completionEvents: string[] }> }>;
}
const manifest = JSON.parse(fs.readFileSync('package.json', 'utf8')) as { contributes: Contributes };
const { commands, keybindings, menus, walkthroughs } = manifest.contributes;
const clientSource = fs.readFileSync('src/extension/client.ts', 'utf8');

describe('package.json: the editor conventions', () => {
    it('binds Resolve and Odds at the cursor to keys in .battle editors only', () => {
        for (const command of [UmpireCommands.resolveAtCursor, UmpireCommands.showOddsAtCursor]) {
            const binding = keybindings.find(k => k.command === command);
            expect(binding, command).toBeDefined();
            expect(binding!.when).toMatch(/(^|&& )editorLangId == battle( &&|$)/);
            expect(binding!.key).toMatch(/^ctrl\+alt\+[a-z]$/);
            expect(binding!.mac).toMatch(/^cmd\+alt\+[a-z]$/);
        }
        expect(new Set(keybindings.map(k => k.key)).size).toBe(keybindings.length);
    });

    it('puts them in the editor\'s context menu and the palette of .battle files, with titles', () => {
        for (const command of [UmpireCommands.resolveAtCursor, UmpireCommands.showOddsAtCursor]) {
            expect(menus['editor/context'].find(m => m.command === command)?.when, command).toBe('editorLangId == battle');
            expect(menus.commandPalette.find(m => m.command === command)?.when, command).toBe('editorLangId == battle');
        }
        const titles = Object.fromEntries(commands.map(c => [c.command, `${c.category}: ${c.title}`]));
        expect(titles[UmpireCommands.resolveAtCursor]).toBe('Umpire: Resolve engagement at cursor');
        expect(titles[UmpireCommands.showOddsAtCursor]).toBe('Umpire: Show odds at cursor');
        expect(titles[UmpireCommands.newScenario]).toBe('Umpire: New scenario');
    });

    it('declares every command the client registers', () => {
        const registered = [...clientSource.matchAll(/registerCommand\(UmpireCommands\.(\w+)/g)].map(m => UmpireCommands[m[1] as keyof typeof UmpireCommands]);
        expect(registered).toEqual(expect.arrayContaining([UmpireCommands.resolveAtCursor, UmpireCommands.showOddsAtCursor, UmpireCommands.newScenario]));
        const declared = commands.map(c => c.command);
        for (const command of registered) expect(declared, command).toContain(command);
    });

    it('has a walkthrough of new scenario, Resolve, Odds and the campaign state, each page present and packed', () => {
        expect(walkthroughs).toHaveLength(1);
        const steps = walkthroughs[0].steps;
        expect(steps.map(s => s.id)).toEqual(['newScenario', 'resolve', 'odds', 'campaign']);
        const ignore = fs.readFileSync('.vscodeignore', 'utf8').split('\n');
        const declared = new Set(commands.map(c => c.command));
        for (const step of steps) {
            const page = step.media.markdown!;
            expect(fs.readFileSync(page, 'utf8'), page).toMatch(/^# \S/);
            expect(ignore, page).toContain(`!${page.replace(/[^/]+$/, '*.md')}`);
            // Each step links a command the extension declares, and is ticked off when it runs.
            const linked = [...step.description.matchAll(/\(command:([\w.]+)\)/g)].map(m => m[1]);
            expect(linked.length, step.id).toBeGreaterThan(0);
            for (const command of linked) expect(declared, `${step.id}: ${command}`).toContain(command);
            expect(step.completionEvents).toContain(`onCommand:${linked[0]}`);
        }
    });
});
