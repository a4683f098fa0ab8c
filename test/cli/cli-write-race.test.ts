/**
 * Another program saves the file while `umpire resolve --write` runs: at every stage of the write
 * (before and after the first read, before and after the verification read, with the new text
 * ready, while the path names nothing, after the swap, after the old file's check, after the read
 * back), with the run paused there, another program saves the file in place (as VS Code and
 * fs.writeFile do), appends to it, or renames a new file over it (as Emacs and vim do), 50 times
 * each. Every time, the other program's text survives whole, in the file or in a file the message
 * names; no file holds a mix of both texts; and what the CLI says is what is on disk.
 *
 * The 50 runs of each stage go through the write itself (`replaceFileText`, with the read and the
 * resolution of the command around it, the resolution taken from a real run); the real command is
 * run once per stage and way, and the real CLI, paused by UMPIRE_WRITE_PAUSE, against a second
 * process at three stages. scripts/write-race.mjs runs the whole matrix against the real CLI.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EXIT_CODES, nodeIo, replaceFileText, WRITE_STAGES, WriteError, type WriteIo, type WriteStage } from '../../src/cli/atomic-write.js';
import { ensureServerBundle, repoRoot } from '../protocol/lsp-harness.js';
import { runWrite, scratchDir, SMALL, type Run } from './cli-write-support.js';

const MARK = '// saved by the editor meanwhile\n';
const EDITED = SMALL + MARK;
const RUNS = 50;

let dir: string;
let file: string;
/** What `resolve --write` makes of each text it may read. */
const resolvedOf = new Map<string, string>();

async function resolveOnce(text: string): Promise<string> {
    const d = scratchDir();
    const f = path.join(d, 'small.battle');
    fs.writeFileSync(f, text);
    expect((await runWrite(f)).code).toBe(0);
    const out = fs.readFileSync(f, 'utf8');
    fs.rmSync(d, { recursive: true, force: true });
    return out;
}

beforeAll(async () => {
    for (const text of [SMALL, EDITED]) resolvedOf.set(text, await resolveOnce(text));
});
beforeEach(() => {
    // In memory where there is such a folder: a run flushes its files to disk, and 3,600 runs would wait on the disk.
    dir = fs.existsSync('/dev/shm') ? fs.mkdtempSync(path.join('/dev/shm', 'umpire-race-')) : scratchDir();
    file = path.join(dir, 'small.battle');
    fs.writeFileSync(file, SMALL);
});
afterEach(() => { fs.rmSync(dir, { recursive: true, force: true }); });

type Way = 'in place' | 'appended' | 'by rename';
const WAYS: readonly Way[] = ['in place', 'appended', 'by rename'];

/** The other program's save; returns the text it meant the file to hold. */
function save(way: Way): string {
    if (way === 'appended') {
        const there = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
        fs.appendFileSync(file, MARK);
        return there + MARK;
    }
    if (way === 'in place') fs.writeFileSync(file, EDITED);
    else {
        fs.writeFileSync(path.join(dir, 'small.battle.editor-save'), EDITED);
        fs.renameSync(path.join(dir, 'small.battle.editor-save'), file);
    }
    return EDITED;
}

/** The command as it runs: the read, the resolution of what was read, the write; a pause at `at`. */
function pausedRun(at: WriteStage, way: Way, reached: Set<WriteStage>): Run & { meant?: string } {
    let meant: string | undefined;
    const io: WriteIo = { ...nodeIo, pause: stage => { reached.add(stage); if (stage === at) meant = save(way); } };
    io.pause!('before-read');
    const read = fs.readFileSync(file);
    io.pause!('after-read');
    const resolved = resolvedOf.get(read.toString('utf8'));
    expect(resolved, `resolving ${JSON.stringify(read.toString('utf8').slice(-40))}`).toBeDefined();
    try {
        replaceFileText(file, resolved!, read, io);
        return { code: 0, lines: [], meant };
    } catch (err) {
        if (!(err instanceof WriteError)) throw err;
        return { code: EXIT_CODES[err.kind], lines: [err.message], message: err.message, meant };
    }
}

/** What is wrong with a run's end: the other program's text lost, a mixed file, an untrue report. */
function judge(run: Run & { meant?: string, after?: boolean }, at: WriteStage): { lost: boolean, mixed: string[], untrue: string[] } {
    const meant = run.meant ?? '';
    // The whole texts: the umpire's, the other program's, either resolved, or appended to.
    const whole = new Set([SMALL, EDITED, meant, ...resolvedOf.values(), resolvedOf.get(SMALL)! + MARK, SMALL + MARK]);
    const disk = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '(no file)';
    const others = fs.readdirSync(dir).filter(n => n !== 'small.battle');
    const texts = [disk, ...others.map(n => fs.readFileSync(path.join(dir, n), 'utf8'))];
    // Saved before the read, the other program's text is what was resolved: whole in the outcomes' file.
    const kept = texts.some(t => t === meant || t === resolvedOf.get(meant) || (meant.endsWith(MARK) && t === resolvedOf.get(meant.slice(0, -MARK.length)) + MARK));
    const mixed = texts.filter(t => !whole.has(t));
    const untrue: string[] = [];
    const hasOutcomes = disk.includes('outcome seed');
    if (run.code === 0) {
        if (!hasOutcomes && !run.after && at !== 'read-back') untrue.push('said "written" but the outcomes are not on disk');
        if (others.length > 0) untrue.push(`left ${others.join(', ')} unnamed`);
    } else if (run.code === 3) {
        if (/nothing was written|not the outcomes/.test(run.message!) && hasOutcomes) untrue.push(`said "${run.message}" but the outcomes are on disk`);
        if (others.length > 0) untrue.push(`left ${others.join(', ')} unnamed`);
    } else if (run.code === 5) {
        const unnamed = others.filter(n => !run.message!.includes(path.join(dir, n)));
        if (unnamed.length > 0 || others.length === 0) untrue.push(`exit 5 naming ${others.filter(n => !unnamed.includes(n)).join(', ') || 'nothing'} among ${others.join(', ') || 'no file'}`);
        if (/the outcomes are written/.test(run.message!) && !hasOutcomes) untrue.push('said the outcomes are written, but they are not on disk');
    } else untrue.push(`exit ${run.code}: ${run.message}`);
    return { lost: !kept, mixed, untrue };
}

function tally(hardLinked: boolean, ways: readonly Way[] = WAYS) {
    const results: Record<string, { lost: number, mixed: number, untrue: string[], codes: Record<number, number> }> = {};
    const reached = new Set<WriteStage>();
    for (const at of WRITE_STAGES) {
        for (const way of ways) {
            const r = { lost: 0, mixed: 0, untrue: [] as string[], codes: {} as Record<number, number> };
            for (let i = 0; i < RUNS; i++) {
                for (const n of fs.readdirSync(dir)) fs.rmSync(path.join(dir, n));
                fs.writeFileSync(file, SMALL);
                if (hardLinked) fs.linkSync(file, path.join(dir, 'link.battle'));
                const stagesOfRun = new Set<WriteStage>();
                const run = pausedRun(at, way, stagesOfRun);
                for (const s of stagesOfRun) reached.add(s);
                // The other program saves in every run: if the run never paused there, it saves after it.
                if (!stagesOfRun.has(at)) Object.assign(run, { meant: save(way), after: true });
                if (hardLinked) fs.rmSync(path.join(dir, 'link.battle'));
                const j = judge(run, at);
                r.lost += j.lost ? 1 : 0;
                r.mixed += j.mixed.length > 0 ? 1 : 0;
                r.untrue.push(...j.untrue);
                r.codes[run.code] = (r.codes[run.code] ?? 0) + 1;
            }
            results[`${at}, ${way}`] = r;
        }
    }
    return { results, reached };
}

describe('a save by another program at every stage of resolve --write', () => {
    it(`keeps the other program's text whole, never mixes the two, and says what is on disk (${RUNS} runs a stage and way)`, () => {
        const { results, reached } = tally(false);
        // Every stage of the swap was reached; the in-place stages belong to files with other links.
        expect([...reached].sort()).toEqual(WRITE_STAGES.filter(s => !['backed-up', 'last-check', 'written'].includes(s)).sort());
        for (const [where, r] of Object.entries(results)) {
            expect({ where, lost: r.lost, mixed: r.mixed, untrue: [...new Set(r.untrue)] }).toEqual({ where, lost: 0, mixed: 0, untrue: [] });
        }
        // Both sides of the write were seen: saves it wrote over (written before), and saves it kept.
        const codes = (key: string) => results[key].codes;
        expect(codes('before-read, in place')).toEqual({ 0: RUNS });
        expect(codes('opened, in place')).toEqual({ 3: RUNS });
        expect(codes('verified, in place')).toEqual({ 5: RUNS });
        expect(codes('prepared, in place')).toEqual({ 5: RUNS });
        expect(codes('swapping, by rename')).toEqual({ 5: RUNS });
        expect(codes('prepared, by rename')).toEqual({ 3: RUNS });
        expect(codes('swapped, in place')).toEqual({ 3: RUNS });
        expect(codes('checked, appended')).toEqual({ 0: RUNS });
    });

    it('a file with another hard link is written in place: one window is left, between its last read and its write', () => {
        const { results, reached } = tally(true);
        // (A save by rename before the read gives the path a file with one link, which is swapped.)
        expect([...reached]).toEqual(expect.arrayContaining(['backed-up', 'last-check', 'written']));
        for (const [where, r] of Object.entries(results)) {
            const gap = where === 'last-check, in place' || where === 'last-check, appended';
            expect({ where, mixed: r.mixed, untrue: [...new Set(r.untrue)] }).toEqual({ where, mixed: 0, untrue: [] });
            expect({ where, lost: r.lost }).toEqual({ where, lost: gap ? RUNS : 0 });
        }
    });

    it('the command itself, paused at each stage, keeps the other program\'s text and says what is on disk', async () => {
        for (const at of WRITE_STAGES) {
            for (const way of WAYS) {
                for (const n of fs.readdirSync(dir)) fs.rmSync(path.join(dir, n));
                fs.writeFileSync(file, SMALL);
                let meant: string | undefined;
                const run: Run & { meant?: string, after?: boolean } = await runWrite(file, { ...nodeIo, pause: stage => { if (stage === at) meant = save(way); } });
                run.after = meant === undefined;
                run.meant = meant ?? save(way);
                expect({ at, way, ...judge(run, at) }).toEqual({ at, way, lost: false, mixed: [], untrue: [] });
            }
        }
    }, 120_000);
});

describe('the real CLI, paused by UMPIRE_WRITE_PAUSE while a second process saves', () => {
    beforeAll(() => ensureServerBundle());

    function pausedCli(at: WriteStage, way: Way): Promise<Run & { meant?: string }> {
        return new Promise(resolve => {
            const child = spawn(process.execPath, [path.join(repoRoot, 'bin', 'umpire.cjs'), 'resolve', file, '--write'], {
                env: { ...process.env, UMPIRE_WRITE_PAUSE: at }, stdio: ['pipe', 'pipe', 'pipe']
            });
            let stdout = '';
            let stderr = '';
            let meant: string | undefined;
            child.stdout.on('data', d => { stdout += d; });
            child.stderr.on('data', d => {
                stderr += d;
                if (meant === undefined && stderr.includes(`umpire: paused at ${at}\n`)) {
                    // A second program saves while the CLI waits, then lets it go on.
                    meant = save(way);
                    child.stdin.end('\n');
                }
            });
            child.on('close', code => {
                const message = stderr.replace(`umpire: paused at ${at}\n`, '').trim().replace(/^umpire: /, '');
                resolve({ code: code ?? -1, lines: stdout.trim().split('\n'), message, meant });
            });
        });
    }

    for (const [at, way] of [['after-read', 'in place'], ['prepared', 'in place'], ['swapping', 'by rename']] as const) {
        it(`paused at ${at}, saved ${way}`, async () => {
            const run = await pausedCli(at, way);
            expect(run.meant, run.message).toBeDefined();
            expect(judge(run, at)).toEqual({ lost: false, mixed: [], untrue: [] });
            expect(run.code).toBe(at === 'after-read' ? 3 : 5);
        }, 60_000);
    }
});
