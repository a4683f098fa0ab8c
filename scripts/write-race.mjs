#!/usr/bin/env node
/* global process, console, setTimeout */
// The concurrent-save race, against the real CLI:
//   node scripts/write-race.mjs [runs]     (default 100; needs the bundle: npm run build)
// Each run copies examples/campaign.battle without its outcomes, starts `umpire resolve FILE --write`,
// and, as an editor would, saves the file with one more line while it runs: in half the runs the
// moment the write's backup appears (the instant before the file itself is written), in the others
// after a delay spread over a quiet run's time; in place (as VS Code and fs.writeFile save) in odd
// runs, by renaming a new file over it (as Emacs and vim do) in even ones. After each run:
//   - the editor's line must be in the file (its text kept), and
//   - what the CLI said must be what is on disk: "wrote 3 outcomes" with the outcomes on disk or saved
//     over later by the editor; exit 3 with the editor's text and nothing of the CLI's; exit 5 with the
//     backup it names holding the text from before; and no other file left in the folder.
// Prints one line per kind of result and exits 1 if any run lost text or said something untrue.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'bin', 'umpire.cjs');
const runs = Number(process.argv[2] ?? 100);
const ORIGINAL = fs.readFileSync(path.join(root, 'examples', 'campaign.battle'), 'utf8').replace(/\n[ \t]*outcome [^{]*\{[^}]*\}/g, '');
const MARK = '// saved by the editor while umpire was writing\n';
const EDITED = ORIGINAL + MARK;

if (!fs.existsSync(path.join(root, 'out', 'cli', 'main.cjs'))) {
    console.error('write-race: out/cli/main.cjs is missing: run npm run build first');
    process.exit(2);
}

function runCli(file) {
    return new Promise(resolve => {
        const child = spawn(process.execPath, [cli, 'resolve', file, '--write'], { stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', d => { stdout += d; });
        child.stderr.on('data', d => { stderr += d; });
        child.on('close', code => resolve({ code, stdout, stderr, exitedAt: process.hrtime.bigint() }));
    });
}

function save(file, byRename) {
    const sawBefore = fs.readFileSync(file, 'utf8');
    if (byRename) {
        const fresh = `${file}.editor-save`;
        fs.writeFileSync(fresh, EDITED);
        fs.renameSync(fresh, file);
    } else {
        fs.writeFileSync(file, EDITED);
    }
    return { sawBefore, savedAt: process.hrtime.bigint() };
}

// A quiet run: how long the CLI takes, and the text it writes.
const quietDir = fs.mkdtempSync(path.join(os.tmpdir(), 'umpire-race-'));
const quietFile = path.join(quietDir, 'campaign.battle');
fs.writeFileSync(quietFile, ORIGINAL);
const t0 = Date.now();
const quiet = await runCli(quietFile);
const quietMs = Date.now() - t0;
const RESOLVED = fs.readFileSync(quietFile, 'utf8');
fs.rmSync(quietDir, { recursive: true, force: true });
if (quiet.code !== 0 || RESOLVED === ORIGINAL) {
    console.error(`write-race: the quiet run failed (exit ${quiet.code}): ${quiet.stderr}`);
    process.exit(2);
}

const tally = new Map();
const bad = [];
for (let i = 0; i < runs; i++) {
    const onBackup = i % 4 < 2;
    const byRename = i % 2 === 0;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'umpire-race-'));
    const file = path.join(dir, 'campaign.battle');
    fs.writeFileSync(file, ORIGINAL);
    let saved;
    let watcher;
    const saveOnce = () => { if (!saved) saved = save(file, byRename); };
    if (onBackup) {
        watcher = fs.watch(dir, (_event, name) => { if (name && name.includes('.umpire-backup-')) saveOnce(); });
    } else {
        // Spread over the quiet run's time, the same moments on every machine (golden-ratio steps).
        setTimeout(saveOnce, ((i * 0.6180339887) % 1) * quietMs);
    }
    const run = await runCli(file);
    watcher?.close();
    // The editor saves in every run: if its moment never came, it saves now, after the CLI.
    saveOnce();
    const disk = fs.readFileSync(file, 'utf8');
    const others = fs.readdirSync(dir).filter(n => n !== 'campaign.battle');
    const lastOut = run.stdout.trim().split('\n').pop();
    const message = run.stderr.trim();
    const problems = [];
    if (!disk.includes(MARK)) problems.push('the editor\'s text is lost');
    if (run.code === 0) {
        if (lastOut !== `${file}: wrote 3 outcomes.`) problems.push(`exit 0 but said: ${lastOut}`);
        const outcomesOnDisk = disk.includes('outcome seed');
        const savedOverThem = saved.sawBefore.includes('outcome seed') || saved.savedAt > run.exitedAt;
        if (!outcomesOnDisk && !savedOverThem) problems.push('said "wrote" but its outcomes were never seen on disk');
        if (others.length > 0) problems.push(`left ${others.join(', ')}`);
    } else if (run.code === 3) {
        if (disk !== EDITED) problems.push('exit 3 but the file is not the editor\'s text');
        if (message.split('\n').length !== 1) problems.push('exit 3 with more than one line');
        if (others.length > 0) problems.push(`left ${others.join(', ')}`);
    } else if (run.code === 5) {
        const named = others.filter(n => message.includes(path.join(dir, n)));
        if (named.length !== 1 || others.length !== 1) problems.push(`exit 5 naming ${named.join(', ') || 'no file'} among ${others.join(', ')}`);
        else if (fs.readFileSync(path.join(dir, named[0]), 'utf8') !== ORIGINAL) problems.push('exit 5 but the backup is not the text from before');
    } else {
        problems.push(`exit ${run.code}: ${message}`);
    }
    const kind = `${onBackup ? 'when the backup appears' : 'after a spread delay   '}, ${byRename ? 'by rename' : 'in place '}: exit ${run.code}${run.code === 0 ? (disk.includes('outcome seed') ? ' (saved before the read)' : ' (saved after the write)') : ''}`;
    tally.set(kind, (tally.get(kind) ?? 0) + 1);
    if (problems.length > 0) bad.push(`run ${i + 1} (${kind}): ${problems.join('; ')}`);
    fs.rmSync(dir, { recursive: true, force: true });
}

console.log(`write-race: ${runs} runs of umpire resolve --write with a concurrent save (a quiet run takes ${quietMs} ms)`);
for (const [kind, n] of [...tally].sort()) console.log(`  ${String(n).padStart(3)}  saved ${kind}`);
for (const line of bad) console.log(`  BAD ${line}`);
console.log(`write-race: ${bad.length} of ${runs} runs lost text or said something untrue`);
process.exit(bad.length > 0 ? 1 : 0);
