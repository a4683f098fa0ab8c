/**
 * The extension's page and its release: the manifest names the repository, homepage and issues; the
 * .vsix that `npm run package` packs is named for the version that package.json, package-lock.json and
 * `umpire --version` all give; and its README and CHANGELOG, rendered as the Marketplace renders them
 * (markdown-it), link only where the text wrote a link, each link absolute (vsce rewrites the relative
 * ones from "repository"), so the screenshot and the docs links work on the Marketplace page and no
 * `#2` becomes a link to an unrelated issue. Packs with the real vsce and the script's own flags.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import MarkdownIt from 'markdown-it';
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

    it('packs without waiving the repository or the link rewriting, and invents no issue links', () => {
        expect(manifest.scripts.package).toMatch(/vsce package/);
        expect(manifest.scripts.package).not.toMatch(/--allow-missing-repository|--no-rewrite-relative-links/);
        expect(manifest.scripts.package).toMatch(/--no-gitHubIssueLinking/);
        expect(manifest.scripts.package).toMatch(/--no-gitLabIssueLinking/);
    });
});

/** The targets of a markdown text's links and images, as the Marketplace renders it (markdown-it, no linkify). */
function linksOf(markdown: string): Array<{ kind: 'link' | 'image', target: string }> {
    const out: Array<{ kind: 'link' | 'image', target: string }> = [];
    const walk = (tokens: ReturnType<MarkdownIt['parse']>) => {
        for (const t of tokens) {
            if (t.type === 'link_open') out.push({ kind: 'link', target: t.attrGet('href')! });
            if (t.type === 'image') out.push({ kind: 'image', target: t.attrGet('src')! });
            if (t.type === 'html_inline' || t.type === 'html_block') {
                for (const m of t.content.matchAll(/<(a|img)\b[^>]*\b(?:href|src)="([^"]+)"/g)) out.push({ kind: m[1] === 'a' ? 'link' : 'image', target: m[2] });
            }
            if (t.children) walk(t.children);
        }
    };
    walk(new MarkdownIt({ html: true }).parse(markdown, {}));
    return out;
}

/** Where vsce points a link of the repository's own text: absolute and anchors stay, relative ones go to the repository. */
function onTheMarketplace({ kind, target }: { kind: 'link' | 'image', target: string }): string {
    if (/^(https?:|mailto:|#)/.test(target)) return target;
    return `${REPO}/${kind === 'image' ? 'raw' : 'blob'}/HEAD/${target.replace(/^\.\//, '')}`;
}

describe('the release: one version everywhere', () => {
    it('package.json, package-lock.json and `umpire --version` give the same version', () => {
        const lock = JSON.parse(fs.readFileSync('package-lock.json', 'utf8'));
        expect(lock.version).toBe(manifest.version);
        expect(lock.packages[''].version).toBe(manifest.version);
        ensureServerBundle();
        const r = spawnSync(process.execPath, ['bin/umpire.cjs', '--version'], { encoding: 'utf8' });
        expect(r.stdout.trim()).toBe(manifest.version);
    }, 120_000);

    it('the CHANGELOG has a dated section for that version, in Keep a Changelog\'s form', () => {
        const changelog = fs.readFileSync('CHANGELOG.md', 'utf8');
        expect(changelog).toMatch(new RegExp(`^## \\[${manifest.version.replace(/\./g, '\\.')}\\] - \\d{4}-\\d\\d-\\d\\d$`, 'm'));
        const sections = [...changelog.matchAll(/^### (.+)$/gm)].map(m => m[1]);
        expect(sections.filter(s => !['Added', 'Changed', 'Deprecated', 'Removed', 'Fixed', 'Security'].includes(s))).toEqual([]);
    });

    it('is a preview while 0.x, in fitting categories, with a file icon for .battle files', () => {
        expect(manifest.preview).toBe(/^0\./.test(manifest.version));
        expect(manifest.categories).toEqual(expect.arrayContaining(['Programming Languages', 'Linters']));
        expect(manifest.categories).not.toContain('Other');
        const battle = manifest.contributes.languages.find((l: { id: string }) => l.id === 'battle');
        for (const theme of ['light', 'dark']) expect(fs.existsSync(battle.icon[theme]), battle.icon[theme]).toBe(true);
    });
});

describe('the .vsix `npm run package` packs', () => {
    let files: Map<string, Buffer>;
    let vsixName: string;
    beforeAll(() => {
        ensureServerBundle();
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'umpire-vsix-'));
        // The script's own flags, with the package written into a folder of its own (vsce names it).
        const flags = /vsce package (.*)$/.exec(manifest.scripts.package)![1].split(' ').filter(Boolean);
        expect(flags).not.toContain('--out');
        const vsce = path.join('node_modules', '@vscode', 'vsce', 'vsce');
        const r = spawnSync(process.execPath, [vsce, 'package', ...flags, '--out', dir], { encoding: 'utf8' });
        expect(r.status, r.stdout + r.stderr).toBe(0);
        [vsixName] = fs.readdirSync(dir);
        files = unzip(path.join(dir, vsixName));
        fs.rmSync(dir, { recursive: true, force: true });
    }, 180_000);

    it('is named for the version, as the README and CONTRIBUTING.md name it', () => {
        expect(vsixName).toBe(`${manifest.name}-${manifest.version}.vsix`);
        const named = ['README.md', 'CONTRIBUTING.md'].flatMap(f => [...fs.readFileSync(f, 'utf8').matchAll(/\bumpire[-\w.]*\.vsix\b/g)].map(m => m[0]));
        expect(named.filter(n => n !== vsixName && n !== 'umpire-VERSION.vsix')).toEqual([]);
        expect(JSON.parse(files.get('extension/package.json')!.toString('utf8')).version).toBe(manifest.version);
    });

    it('holds the bundles, both grammars, the icons and the documents, and no sources', () => {
        const names = [...files.keys()].filter(n => n.startsWith('extension/')).map(n => n.slice('extension/'.length));
        // vsce writes README, CHANGELOG and LICENSE under its own spelling: compare ignoring case.
        expect(names.map(n => n.toLowerCase())).toEqual(expect.arrayContaining([
            'out/language/main.cjs', 'out/extension/main.cjs', 'syntaxes/battle.tmlanguage.json',
            // The server's start (src/extension/main.ts): its loader and the code cache it runs the bundle from.
            'bin/language-server.cjs', 'bin/code-cache.cjs',
            'syntaxes/battle.markdown.tmlanguage.json', 'language-configuration.json', 'images/icon.png', 'images/battle-file.svg',
            'readme.md', 'changelog.md', 'license.txt', 'package.json',
            // The walkthrough's pages (package.json contributes.walkthroughs).
            'media/walkthrough/new-scenario.md', 'media/walkthrough/resolve.md', 'media/walkthrough/odds.md', 'media/walkthrough/campaign.md'
        ]));
        expect(names.filter(n => /^(src|test|node_modules|docs|examples)\/|\.map$/.test(n))).toEqual([]);
    });

    it.each(['README.md', 'CHANGELOG.md'])('renders %s with the links the text wrote, each absolute, and no other', name => {
        const packedName = [...files.keys()].find(n => n.toLowerCase() === `extension/${name.toLowerCase()}`)!;
        const packed = linksOf(files.get(packedName)!.toString('utf8'));
        const written = linksOf(fs.readFileSync(name, 'utf8'));
        expect(written.length).toBeGreaterThan(0);
        // Every link is absolute or an anchor on the page itself.
        expect(packed.filter(l => !/^(https:\/\/|#)/.test(l.target))).toEqual([]);
        // The same links as the text, in order: none invented (an issue number turned into a link), none lost.
        expect(packed).toEqual(written.map(l => ({ kind: l.kind, target: onTheMarketplace(l) })));
    });

    it('points the README\'s screenshot and references at the repository', () => {
        const readme = files.get([...files.keys()].find(n => /^extension\/readme\.md$/i.test(n))!)!.toString('utf8');
        expect(readme).toContain(`](${REPO}/raw/HEAD/docs/images/editor-resolve.png)`);
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
