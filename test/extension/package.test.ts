/**
 * The extension's page: the manifest names the repository, homepage and issues, and the README packed
 * into the .vsix has absolute links and images (vsce rewrites them from "repository"), so the
 * screenshot and the docs links work on the Marketplace page. Packs with the real vsce, as
 * `npm run package` does after its build.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureServerBundle } from '../protocol/lsp-harness.js';

const manifest = JSON.parse(fs.readFileSync('package.json', 'utf8'));
const REPO = 'https://github.com/umpire-dev/umpire';

/** The files of a .vsix (a zip): name → contents, read from the zip's central directory. */
function unzip(file: string): Map<string, Buffer> {
    const zip = fs.readFileSync(file);
    const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
    const count = zip.readUInt16LE(end + 10);
    let at = zip.readUInt32LE(end + 16);
    const files = new Map<string, Buffer>();
    for (let i = 0; i < count; i++) {
        const method = zip.readUInt16LE(at + 10), size = zip.readUInt32LE(at + 20);
        const nameLength = zip.readUInt16LE(at + 28), extra = zip.readUInt16LE(at + 30), comment = zip.readUInt16LE(at + 32);
        const local = zip.readUInt32LE(at + 42);
        const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
        const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
        const data = zip.subarray(start, start + size);
        files.set(name, method === 8 ? zlib.inflateRawSync(data) : Buffer.from(data));
        at += 46 + nameLength + extra + comment;
    }
    return files;
}

describe('package.json: the extension page\'s links', () => {
    it('names one repository for the source, the homepage and the issues', () => {
        expect(manifest.repository).toEqual({ type: 'git', url: `${REPO}.git` });
        expect(manifest.homepage).toBe(`${REPO}#readme`);
        expect(manifest.bugs).toEqual({ url: `${REPO}/issues` });
        expect(manifest.galleryBanner.color).toMatch(/^#[0-9A-F]{6}$/i);
        expect(['dark', 'light']).toContain(manifest.galleryBanner.theme);
    });

    it('packs without waiving the repository or the link rewriting', () => {
        expect(manifest.scripts.package).toMatch(/vsce package/);
        expect(manifest.scripts.package).not.toMatch(/--allow-missing-repository|--no-rewrite-relative-links/);
    });
});

describe('the .vsix vsce packs', () => {
    let files: Map<string, Buffer>;
    beforeAll(() => {
        ensureServerBundle();
        const vsix = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'umpire-vsix-')), 'umpire.vsix');
        const vsce = path.join('node_modules', '@vscode', 'vsce', 'vsce');
        const r = spawnSync(process.execPath, [vsce, 'package', '--no-dependencies', '--out', vsix], { encoding: 'utf8' });
        expect(r.status, r.stdout + r.stderr).toBe(0);
        files = unzip(vsix);
        fs.rmSync(path.dirname(vsix), { recursive: true, force: true });
    }, 180_000);

    it('holds the bundles, both grammars and the documents, and no sources', () => {
        const names = [...files.keys()].filter(n => n.startsWith('extension/')).map(n => n.slice('extension/'.length));
        // vsce writes README, CHANGELOG and LICENSE under its own spelling: compare ignoring case.
        expect(names.map(n => n.toLowerCase())).toEqual(expect.arrayContaining([
            'out/language/main.cjs', 'out/extension/main.cjs', 'syntaxes/battle.tmlanguage.json',
            'syntaxes/battle.markdown.tmlanguage.json', 'language-configuration.json', 'images/icon.png',
            'readme.md', 'changelog.md', 'license.txt', 'package.json',
            // The walkthrough's pages (package.json contributes.walkthroughs).
            'media/walkthrough/new-scenario.md', 'media/walkthrough/resolve.md', 'media/walkthrough/odds.md', 'media/walkthrough/campaign.md'
        ]));
        expect(names.filter(n => /^(src|test|node_modules|docs|examples)\/|\.map$/.test(n))).toEqual([]);
    });

    it('has a README whose links and images all point at the repository', () => {
        const readmeName = [...files.keys()].find(n => /^extension\/readme\.md$/i.test(n))!;
        const readme = files.get(readmeName)!.toString('utf8');
        const targets = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map(m => m[1]);
        expect(targets.length).toBeGreaterThan(20);
        // Every link is absolute or an anchor on the page itself.
        expect(targets.filter(t => !/^(https:\/\/|#)/.test(t))).toEqual([]);
        expect(readme).toContain(`](${REPO}/raw/HEAD/docs/images/editor-resolve.png)`);
        expect(readme).toContain(`](${REPO}/blob/HEAD/docs/rules/)`);
        expect(readme).toContain(`](${REPO}/blob/HEAD/docs/rules/scrud.md)`);
        // The repository's own README keeps relative links (they work on GitHub and in a clone).
        expect(fs.readFileSync('README.md', 'utf8')).toContain('](docs/rules/scrud.md)');
    });

    it('carries the repository in its packed manifest', () => {
        const packed = JSON.parse(files.get('extension/package.json')!.toString('utf8'));
        expect(packed.repository.url).toBe(`${REPO}.git`);
        expect(packed.galleryBanner).toEqual(manifest.galleryBanner);
    });
});
