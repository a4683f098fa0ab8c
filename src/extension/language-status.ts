/**
 * The language status item of .battle files (the `{}` beside "Battle" in the status bar): the rule
 * set the file is checked as, and how many of its actions are resolved, not yet resolved or stale,
 * from the server's `umpire.fileSummary`, with a link to Resolve all (or to the campaign state when
 * everything is written). Refreshed when the server publishes the file's diagnostics, which it does
 * after each check.
 */
import * as vscode from 'vscode';
import { ExecuteCommandRequest, type BaseLanguageClient } from 'vscode-languageclient';
import { UmpireCommands, type FileSummary, type FileSummaryLuck } from '../protocol.js';

const REFRESH_DELAY_MS = 300;

export function languageStatus(client: () => BaseLanguageClient | undefined, output: vscode.LogOutputChannel): vscode.Disposable {
    const item = vscode.languages.createLanguageStatusItem('umpire.file', { language: 'battle' });
    item.name = 'Umpire';
    item.text = 'Umpire';
    item.detail = 'checking…';
    let timer: ReturnType<typeof setTimeout> | undefined;
    let asked = 0;

    const refresh = async () => {
        const editor = vscode.window.activeTextEditor;
        const c = client();
        if (!editor || editor.document.languageId !== 'battle' || !c?.isRunning()) return;
        const uri = editor.document.uri.toString();
        const ask = ++asked;
        item.busy = true;
        let summary: FileSummary | null;
        try {
            summary = await c.sendRequest(ExecuteCommandRequest.type, { command: UmpireCommands.fileSummary, arguments: [{ uri }] }) as FileSummary | null;
        } catch (err) {
            output.debug(`File summary of ${uri}: ${String(err)}`);
            summary = null;
        }
        // Another file became active, or a later change asked again: that answer is the one to show.
        if (ask !== asked) return;
        item.busy = false;
        show(item, summary);
    };
    const later = () => {
        if (timer) clearTimeout(timer);
        timer = setTimeout(() => void refresh(), REFRESH_DELAY_MS);
    };
    const subscriptions = [
        item,
        vscode.window.onDidChangeActiveTextEditor(later),
        vscode.languages.onDidChangeDiagnostics(e => {
            const active = vscode.window.activeTextEditor?.document.uri.toString();
            if (active && e.uris.some(u => u.toString() === active)) later();
        })
    ];
    later();
    return new vscode.Disposable(() => {
        if (timer) clearTimeout(timer);
        for (const s of subscriptions) s.dispose();
    });
}

/** What a screen reader says of the item: the rule set and the counts in one sentence. */
function sayAloud(item: vscode.LanguageStatusItem): void {
    item.accessibilityInformation = { label: `Umpire: ${item.text}, ${item.detail ?? ''}`.replace(/, $/, ''), role: item.command ? 'button' : undefined };
}

function show(item: vscode.LanguageStatusItem, summary: FileSummary | null): void {
    showSummary(item, summary);
    sayAloud(item);
}

function showSummary(item: vscode.LanguageStatusItem, summary: FileSummary | null): void {
    if (!summary?.rules) {
        item.text = 'Umpire';
        item.detail = summary?.reason ?? 'the language server did not answer';
        item.severity = vscode.LanguageStatusSeverity.Warning;
        item.command = undefined;
        return;
    }
    item.text = `${summary.rulesTitle ?? summary.rules}${summary.rulesWritten ? '' : ' (default)'}`;
    if (!summary.available) {
        item.detail = summary.reason;
        item.severity = vscode.LanguageStatusSeverity.Warning;
        item.command = undefined;
        return;
    }
    const { actions = 0, resolved = 0, unresolved = 0, stale = 0 } = summary;
    item.detail = (actions === 0
        ? 'no engagements yet'
        : `${actions} ${actions === 1 ? 'action' : 'actions'}: ${resolved} resolved, ${unresolved} unresolved, ${stale} stale`) + luckText(summary.luck);
    item.severity = stale > 0 ? vscode.LanguageStatusSeverity.Warning : vscode.LanguageStatusSeverity.Information;
    item.command = unresolved + stale > 0
        ? { title: 'Resolve all', command: UmpireCommands.resolveAll, tooltip: 'Write every missing or stale outcome' }
        : { title: 'Campaign state', command: UmpireCommands.showStatus, tooltip: 'The forces\' state at the end of a turn' };
}

/** "st", "nd", "rd" or "th" after a whole number. */
function ordinal(n: number): string {
    const tens = n % 100, ones = n % 10;
    return `${n}${tens >= 11 && tens <= 13 ? 'th' : ones === 1 ? 'st' : ones === 2 ? 'nd' : ones === 3 ? 'rd' : 'th'}`;
}

/** " · luck: Romans 71st pct, Boii 29th" (the season percentile of each side with a written result), or nothing. */
function luckText(luck: FileSummaryLuck | undefined): string {
    if (!luck || luck.sides.length === 0) return '';
    // A whole percentile, 0th and 100th kept for a figure of exactly 0 or 1.
    const whole = (p: number) => ordinal(p <= 0 ? 0 : p >= 1 ? 100 : Math.min(99, Math.max(1, Math.round(p * 100))));
    const sides = luck.sides.map((s, i) => `${s.force} ${whole(s.percentile)}${i === 0 ? ' pct' : ''}`);
    return ` · luck: ${sides.join(', ')}${luck.method === 'monte-carlo' ? ' (sampled)' : ''}`;
}
