#!/usr/bin/env node
/* global process, console, URL */
// `npm run playground:serve [-- --port N]`: serves playground-dist/ on http://127.0.0.1:N (8080 by default),
// static files only, for trying the page locally (a worker cannot start from a file:// page).
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const root = path.join(repoRoot, 'playground-dist');
const portArg = process.argv.indexOf('--port');
const port = Number(portArg >= 0 ? process.argv[portArg + 1] : process.env.PORT ?? 8080);

const TYPES = {
    '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
    '.json': 'application/json', '.png': 'image/png', '.ttf': 'font/ttf', '.map': 'application/json', '.svg': 'image/svg+xml'
};

if (!fs.existsSync(path.join(root, 'index.html'))) {
    console.error(`[playground] ${path.relative(repoRoot, root)}/ has no page: run 'npm run playground' first.`);
    process.exit(1);
}
if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`[playground] --port wants a port number, not '${process.argv[portArg + 1]}'.`);
    process.exit(1);
}

const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    let file = path.normalize(path.join(root, decodeURIComponent(url.pathname)));
    // Only what is inside playground-dist/ is served.
    if (file !== root && !file.startsWith(root + path.sep)) {
        res.writeHead(403).end('forbidden');
        return;
    }
    if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405).end();
        return;
    }
    fs.readFile(file, (err, data) => {
        if (err) {
            res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
            return;
        }
        res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-cache' });
        res.end(req.method === 'HEAD' ? undefined : data);
    });
});
server.listen(port, '127.0.0.1', () => {
    const address = server.address();
    console.log(`[playground] serving ${path.relative(repoRoot, root)}/ on http://127.0.0.1:${address.port}/`);
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.close(() => process.exit(0)));
