#!/usr/bin/env node
/* global process, console */
// A second program saves the file while the real CLI runs `umpire resolve FILE --write`:
//   node scripts/write-race.mjs [runs]     (default 10 a stage and way; needs the bundle: npm run build)
// Each run copies examples/campaign.battle without its outcomes and starts the CLI paused at one stage
// of the write (UMPIRE_WRITE_PAUSE, src/cli/atomic-write.ts WRITE_STAGES); when it says it is paused,
// this process saves the file (in place, appending, or renaming a new file over it) and lets it go on.
// After each run:
//   - the other program's text must be whole in the file or in a file the CLI's message names,
//   - no file may hold a mix of the two texts,
//   - what the CLI said must be what is on disk, and it must leave no file it does not name.
// Prints one line per stage and way and exits 1 if any run lost text, mixed texts or said something untrue.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'bin', 'umpire.cjs');
const runs = Number(process.argv[2] ?? 10);
const STAGES = ['before-read', 'after-read', 'opened', 'verified', 'prepared', 'swapping', 'swapped', 'checked', 'read-back'];
const WAYS = ['in place', 'appended', 'by rename'];
const ORIGINAL = fs.readFileSync(path.join(root, 'examples', 'campaign.battle'), 'utf8').replace(/\n[ \t]*outcome [^{]*\{[^}]*\}/g, '');
const MARK = '// saved by another program while umpire was writing\n';

if (!fs.existsSync(path.join(root, 'out', 'cli', 'main.cjs'))) {
    console.error('write-race: out/cli/main.cjs is missing: run npm run build first');
    process.exit(2);
}

function runCli(file, stage, onPause) {
    return new Promise(resolve => {
        const child = spawn(process.execPath, [cli, 'resolve', file, '--write'], { env: { ...process.env, UMPIRE_WRITE_PAUSE: stage }, stdio: ['pipe', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        let paused = false;
        child.stdout.on('data', d => { stdout += d; });
        child.stderr.on('data', d => {
            stderr += d;
            if (!paused && stderr.includes(`umpire: paused at ${stage}\n`)) {
                paused = true;
                onPause();
                child.stdin.end('\n');
            }
        });
        child.on('close', code => resolve({ code, stdout, message: stderr.replace(`umpire: paused at ${stage}\n`, '').trim(), paused }));
    });
}

function save(file, way) {
    if (way === 'appended') {
        const there = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
        fs.appendFileSync(file, MARK);
        return there + MARK;
    }
    const text = ORIGINAL + MARK;
    if (way === 'in place') fs.writeFileSync(file, text);
    else {
        fs.writeFileSync(`${file}.editor-save`, text);
        fs.renameSync(`${file}.editor-save`, file);
    }
    return text;
}

const bad = [];
for (const stage of STAGES) {
    for (const way of WAYS) {
        const codes = new Map();
        for (let i = 0; i < runs; i++) {
            const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'umpire-race-'));
            const file = path.join(dir, 'campaign.battle');
            fs.writeFileSync(file, ORIGINAL);
            let meant;
            const run = await runCli(file, stage, () => { meant = save(file, way); });
            if (!run.paused) meant = save(file, way);
            const disk = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
            const others = fs.readdirSync(dir).filter(n => n !== 'campaign.battle');
            const texts = [disk, ...others.map(n => fs.readFileSync(path.join(dir, n), 'utf8'))];
            const problems = [];
            // The other program's text, whole: as saved, or as the CLI resolved it when saved before the read.
            const kept = texts.some(t => t === meant || (t.includes(MARK) && t.replace(/\n[ \t]*outcome [^{]*\{[^}]*\}/g, '') === meant));
            if (!kept) problems.push('the other program\'s text is lost');
            // A mix: the marked line with the umpire's text cut, or outcomes on part of the text.
            for (const t of texts) {
                const bare = t.replace(/\n[ \t]*outcome [^{]*\{[^}]*\}/g, '');
                if (![ORIGINAL, ORIGINAL + MARK, meant].includes(bare)) problems.push(`a file holds a mix: ${JSON.stringify(t.slice(-60))}`);
            }
            const unnamed = others.filter(n => !run.message.includes(path.join(dir, n)));
            if (unnamed.length > 0) problems.push(`left ${unnamed.join(', ')} unnamed`);
            if (run.code === 0 && !disk.includes('outcome seed') && run.paused && stage !== 'read-back') problems.push('said "wrote" but the outcomes are not on disk');
            if (run.code === 3 && /nothing was written|not the outcomes/.test(run.message) && disk.includes('outcome seed')) problems.push('said nothing was written, but the outcomes are on disk');
            if (![0, 3, 5].includes(run.code)) problems.push(`exit ${run.code}: ${run.message}`);
            codes.set(run.code, (codes.get(run.code) ?? 0) + 1);
            if (problems.length > 0) bad.push(`${stage}, ${way}, run ${i + 1}: ${problems.join('; ')}`);
            fs.rmSync(dir, { recursive: true, force: true });
        }
        console.log(`  ${stage.padEnd(12)} ${way.padEnd(10)} ${[...codes].sort().map(([c, n]) => `exit ${c} ×${n}`).join(', ')}`);
    }
}
for (const line of bad) console.log(`  BAD ${line}`);
console.log(`write-race: ${bad.length} of ${runs * STAGES.length * WAYS.length} runs lost text, mixed texts or said something untrue`);
process.exit(bad.length > 0 ? 1 : 0);
