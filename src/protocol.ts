/**
 * The contract between the language server and its clients (the VS Code extension, the protocol
 * tests, any LSP client): command ids, their arguments and their results. The client imports only
 * this module, `vscode` and `vscode-languageclient`; the server implements what is written here.
 * Types only and constants: nothing here runs.
 */

/**
 * Command ids. The server advertises those it executes; `showOdds` and `showStatus` are the client's.
 * A client that runs `showOdds` itself lists it at initialize in `experimental.commands.commands`
 * (src/language/lsp/client-support.ts); other clients' lenses and code actions get `oddsText`.
 */
export const UmpireCommands = {
    /** Server: resolve one action and write its outcome (arguments: [ResolveArgs]). */
    resolve: 'umpire.resolve',
    /** Server: throw new dice for one action and write its outcome (arguments: [ResolveArgs]). */
    reroll: 'umpire.reroll',
    /** Server: write every missing or stale outcome in one edit (arguments: [DocumentArgs]). */
    resolveAll: 'umpire.resolveAll',
    /** Server: exact odds of one action or of all (arguments: [OddsArgs]); answers an OddsAnswer. */
    odds: 'umpire.odds',
    /** Server: the odds of the whole campaign through a turn (arguments: [CampaignOddsArgs]); answers a CampaignOddsAnswer. */
    campaignOdds: 'umpire.campaignOdds',
    /** Server: the campaign state as markdown (arguments: [StatusArgs]); answers a StatusResult. */
    status: 'umpire.status',
    /** Server: a battle report of the file (arguments: [ReportArgs]); answers a ReportResult. */
    report: 'umpire.report',
    /** Server: a sealed file's seeds and outcomes checked (arguments: [{ uri, secret? }]); answers a VerifyAnswer. */
    verify: 'umpire.verify',
    /**
     * Server: one action's odds (or every action's) as Markdown, for a client without the Odds view
     * (arguments: [OddsArgs]): shown with window/showDocument where the client can, else as a message;
     * answers an OddsText.
     */
    oddsText: 'umpire.oddsText',
    /** Client: "Export battle report": writes the server's report beside the file. */
    exportReport: 'umpire.exportReport',
    /** Client: the Odds panel beside the file (arguments: [OddsArgs]). */
    showOdds: 'umpire.showOdds',
    /** Client: the open Odds panel's figures (as shown: each result, or each result or worse) to the clipboard as a Markdown table; answers the text. */
    copyOddsMarkdown: 'umpire.copyOddsMarkdown',
    /** Client: the same as CSV (percentages as numbers); answers the text. */
    copyOddsCsv: 'umpire.copyOddsCsv',
    /** Client: the open Odds panel's (first) chart saved as SVG, where the umpire says. */
    saveOddsChartSvg: 'umpire.saveOddsChartSvg',
    /** Client: the same as PNG. */
    saveOddsChartPng: 'umpire.saveOddsChartPng',
    /** Client: the campaign state beside the file. */
    showStatus: 'umpire.showStatus',
    /** Client: restart the language server. */
    restartServer: 'umpire.restartServer',
    /** Server: the action at a position (arguments: [PositionArgs]); answers an ActionAtResult. */
    actionAt: 'umpire.actionAt',
    /** Server: what the language status item shows of a file (arguments: [{ uri }]); answers a FileSummary. */
    fileSummary: 'umpire.fileSummary',
    /** Server: the rule sets a new scenario may use, each with a starting text (no arguments); answers a ScenarioTemplates. */
    scenarioTemplates: 'umpire.scenarioTemplates',
    /** Client: "Resolve engagement at cursor": Resolve on the action the cursor is in. */
    resolveAtCursor: 'umpire.resolveAtCursor',
    /** Client: "Show odds at cursor": the Odds panel of the action the cursor is in. */
    showOddsAtCursor: 'umpire.showOddsAtCursor',
    /** Client: "New scenario": a rule set picked, an untitled .battle file with its starting text. */
    newScenario: 'umpire.newScenario'
} as const;


/** A document as the client saw it: the edit is refused if the document has changed since. */
interface DocumentArgs {
    uri: string;
    version: number;
}

export interface ResolveArgs extends DocumentArgs {
    /** The action's name. */
    action: string;
}

export interface ResolveResult {
    applied: boolean;
    /** False when the file already held this outcome, byte for byte (nothing was sent). */
    changed?: boolean;
    summary?: string;
    /** The seed recorded, or null when the dice were entered from the table. */
    seed?: number | null;
    reason?: string;
}

export interface ResolveAllResult {
    applied: boolean;
    changed?: boolean;
    resolved: Array<{ action: string, summary: string, seed: number | null }>;
    skipped: Array<{ action: string, reason: string }>;
    reason?: string;
}

export interface OddsArgs {
    uri: string;
    /** Without it, every action's odds in file order. */
    action?: string;
    /**
     * What-ifs on `action`'s set-up (docs/reports.md#what-if), made in order: `without Uphill`,
     * `with Uphill on French`, `grade French.Ligne Guard`, `option NAME [VALUE]`, `without option NAME`.
     * Given (even empty), the answer also lists the what-ifs the action offers (`whatIfChoices`); with
     * changes, it holds the changed set-up's odds in `whatIf`. An unknown change is refused there, with why.
     */
    whatIf?: string[];
}

/** A change the Odds view offers for one action's set-up, built from what the action and file have. */
export interface WhatIfChoice {
    /**
     * factor: a factor applied (`without X`); modifier: one not applied (`with X on Side`); fact: a fact
     * written on a unit (`without fact charged on Greeks.Companions`); grade: a unit's grade; option: a rule-set option.
     */
    kind: 'factor' | 'modifier' | 'fact' | 'grade' | 'option';
    /** The what-if to send back in `OddsArgs.whatIf`; for a grade, `grade UNIT` without the grade. */
    change: string;
    /** grade: the unit (`French.Ligne`), its grade as written, and the grades the file declares. */
    unit?: string;
    grade?: string;
    grades?: string[];
}

/** The changed set-up's odds, beside those as written; or why there are none. */
export interface WhatIfOdds {
    changes: string[];
    after?: OddsReport;
    /** After minus as written, per unit (by id) and label, and per side's expected counts. */
    difference?: {
        units: Array<{ id: string, probabilities: Record<string, number>, atLeast: Record<string, number> }>;
        sides: Array<{ force: string, expected: Record<string, number> }>;
    };
    problem?: string;
    /** The errors of a changed set-up that has some, each at its place in the file on disk. */
    errors?: WhatIfError[];
}

/**
 * An error of a what-if's changed set-up at its place (0-based) in the file on disk; one in a line a
 * what-if put in is at the place it went in, `addedBy` naming that what-if (the change to mend).
 */
export interface WhatIfError {
    line: number;
    character: number;
    message: string;
    addedBy?: string;
}

/** One unit's chances. Probabilities are keyed by the rule set's result labels and sum to 1. */
export interface UnitOdds {
    force: string;
    /** The unit's name, with `#k` for one of several (as in resolve's JSON). */
    unit: string;
    /** `Force.Unit` or `Force.Unit#k`, as written in the file. */
    id: string;
    probabilities: Record<string, number>;
    /** Cumulative chances along the rule set's ladder of results, e.g. "retire or worse". */
    atLeast?: Record<string, number>;
    /** Ancients: hits[h] = P(exactly h unsaved hits taken). */
    hits?: number[];
    /**
     * Every count a rule set gives the mean of as `expectedX` (`expectedHits`, `expectedDp`, …) has its
     * standard deviation beside it as `sdX` (`sdHits`, `sdDp`, …), from the count's exact law (docs/json.md "Odds").
     */
    [extra: string]: unknown;
}

export interface SideOdds {
    force: string;
    /** Expected number of the side's units with each label. */
    expected: Record<string, number>;
    /**
     * The standard deviation of the number of the side's units with each label, for the labels whose
     * count the engine knows exactly (its units' results may depend on one another); absent where it
     * knows none, and then a note says so.
     */
    sd?: Record<string, number>;
    /** P(at least one of the side's units gets the label), for the labels the engine computes jointly. */
    atLeastOne: Record<string, number>;
    [extra: string]: unknown;
}

/**
 * How bad a result is for the unit that gets it, on one scale for every rule set (docs/odds.md#colours):
 * `none` is a result where nothing happened to the unit (unpaired, no effect, moved), `even` one where
 * it fought and neither side gained (a stand-off). Each rule set maps its results onto it.
 */
export const RESULT_SEVERITIES = ['best', 'good', 'none', 'even', 'setback', 'bad', 'worse', 'worst'] as const;
export type ResultSeverity = typeof RESULT_SEVERITIES[number];

/**
 * The colour of each severity (the Odds view's bars and legend, the report's charts), with the text
 * colour that reads on it: green only for the good results, greys for nothing and a stand-off, then
 * yellow to red. The same colour means the same thing whatever the rule set.
 */
export const SEVERITY_COLOURS: Readonly<Record<ResultSeverity, { readonly fill: string, readonly text: string }>> = {
    best: { fill: '#2e7d32', text: '#ffffff' },
    good: { fill: '#81b862', text: '#14280c' },
    none: { fill: '#c9cdd3', text: '#1d1d1d' },
    even: { fill: '#6b7179', text: '#ffffff' },
    setback: { fill: '#e6c34a', text: '#2b2100' },
    bad: { fill: '#e8913a', text: '#2b1600' },
    worse: { fill: '#c0461c', text: '#ffffff' },
    worst: { fill: '#a82a1f', text: '#ffffff' }
};

/**
 * A count as "mean ± sd" to `digits` places (just the mean where its spread is not known): how the
 * CLI, the hovers, the odds as Markdown and the Odds view show every count of the odds.
 */
export function meanSdText(mean: number, sd: unknown, digits = 2): string {
    return `${mean.toFixed(digits)}${typeof sd === 'number' ? ` ± ${sd.toFixed(digits)}` : ''}`;
}

/**
 * Each count a unit's odds give a mean of (`expectedHits` …), as [mean key, sd key, name]: the name is
 * the key's own word (`hits`, `dp`), for the views that have no title of their own for it.
 */
export function unitCounts(units: readonly UnitOdds[]): Array<[string, string, string]> {
    const keys = [...new Set(units.flatMap(u => Object.keys(u).filter(k => /^expected[A-Z]/.test(k) && typeof u[k] === 'number')))];
    return keys.map(k => [k, `sd${k.slice('expected'.length)}`, k.slice('expected'.length).toLowerCase()]);
}

/**
 * A chart's label broken into lines that fit their room, so that Vega never has to cut one with an
 * ellipsis (the Odds view's chart and the report's): a unit's name in the column left of its bar, a
 * title across the chart. Lines break where a reader expects (after a space, a dot, a hyphen or a
 * `#`, between the words of a CamelCase name, between two wide characters such as 騎兵隊's), and a
 * piece longer than the whole room is broken between letters. `measure` gives a text's width in
 * pixels (the page's canvas, in the font Vega draws with).
 */
export function labelLines(text: string, room: number, measure: (text: string) => number): string[] {
    if (measure(text) <= room) return [text];
    const lines: string[] = [];
    let line = '';
    for (const piece of pieces(text)) {
        if (line && measure(line + piece) > room) {
            lines.push(line.trimEnd());
            line = '';
        }
        if (!line && measure(piece) > room) {
            // Longer than the room on its own: letter by letter, the rest starting the next line.
            for (const letter of Array.from(piece)) {
                if (line && measure(line + letter) > room) {
                    lines.push(line);
                    line = '';
                }
                line += letter;
            }
            continue;
        }
        line += line ? piece : piece.trimStart();
    }
    if (line.trim()) lines.push(line.trimEnd());
    return lines;
}

/** Wide characters (CJK, kana, Hangul, full-width forms): a line may break between any two. */
const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u;

/** The text cut where a line may break, each piece keeping the mark it breaks after. */
function pieces(text: string): string[] {
    const out: string[] = [];
    let piece = '';
    const letters = Array.from(text);
    letters.forEach((c, i) => {
        const next = letters[i + 1] ?? '';
        piece += c;
        const breakAfter = /[\s.#\-‐–—/,;:]/u.test(c) && !/\s/u.test(next)
            || (/\p{Ll}/u.test(c) && /\p{Lu}/u.test(next))
            || (WIDE.test(c) || WIDE.test(next)) && next !== '' && !/[\s.#]/u.test(next);
        if (breakAfter) {
            out.push(piece);
            piece = '';
        }
    });
    if (piece) out.push(piece);
    return out;
}

/** A result label of the figures and its place on the one scale. */
export interface ResultRank {
    label: string;
    severity: ResultSeverity;
}

/** Exact odds of one action (docs/json.md, "Odds"). */
export interface OddsReport {
    name: string;
    kind: string;
    rules: string;
    turn: string | null;
    units: UnitOdds[];
    sides: SideOdds[];
    /** Anything the umpire should know about these figures (e.g. a joint chance left out). */
    notes: string[];
    /**
     * The language server's answer only (not `umpire odds --json`): the labels of these figures best to
     * worst, as the rule set's ladder orders them, each with its severity; labels the rule set does not
     * rank are left out (the client shows them after the others, in colours of their own).
     */
    results?: ResultRank[];
    /** Only when one action was asked for with `OddsArgs.whatIf`: the what-ifs its set-up offers. */
    whatIfChoices?: WhatIfChoice[];
    /** Only when `OddsArgs.whatIf` was given: the changed set-up. */
    whatIf?: WhatIfOdds;
    [extra: string]: unknown;
}

/** What `umpire.oddsText` answers: the odds as Markdown, and the generated file shown, if one was. */
export interface OddsText {
    markdown: string;
    shown?: string;
}

export interface OddsUnavailable {
    available: false;
    /** The action asked for, when there was one. */
    action?: string;
    reason: string;
}

/** What `umpire.odds` answers: one report, a reason there is none, or every action's. */
export type OddsAnswer = OddsReport | OddsUnavailable | { actions: Array<OddsReport | OddsUnavailable> };

/** The campaign's odds (docs/odds.md#campaign-odds): at the end of a turn, or of the file without `through`. */
export interface CampaignOddsArgs {
    uri: string;
    /** A turn's number, name or title. */
    through?: string;
    /**
     * What-ifs over the campaign (docs/odds.md#campaign-what-if), as `umpire odds --campaign --what-if`
     * takes them, made in order. Given (even empty), the answer lists the what-ifs the file offers
     * (`whatIfChoices`); with changes or `house`, it holds the changed campaign in `whatIf`.
     */
    whatIf?: string[];
    /** The action a change of one action's lines is made to (`--engagement`). */
    engagement?: string;
    /** Another file (its address) whose file-wide house rules take the place of this file's own (`--house`). */
    house?: string;
    /** The other file's text, for a file the language server has not read. */
    houseText?: string;
}

/** The what-ifs the Campaign tab offers: those of the engagement picked, and the file's grades and options. */
export interface CampaignWhatIfChoices {
    /** The actions a change of one action's lines can be made to, in the file's order. */
    engagements: string[];
    /** The engagement whose choices these are (none: the file-wide ones only). */
    engagement?: string;
    choices: WhatIfChoice[];
}

/** The campaign under a changed set-up, beside it as written, and the difference; or why there is none. */
export interface CampaignWhatIf {
    changes: string[];
    engagement?: string;
    /** The file whose house rules were put in, as the umpire knows it (its name). */
    house?: string;
    /** "with the house rules of rival.battle; what if without Uphill": what the changed campaign is. */
    label: string;
    after?: CampaignOddsView;
    /** After minus as written: chances as fractions, counters and losses in units (`umpire odds --campaign --json`'s `difference`). */
    difference?: CampaignDifferenceView;
    notes: string[];
    problem?: string;
    /** The errors of a changed set-up that has some, each at its place in the file on disk. */
    errors?: WhatIfError[];
}

/** After minus as written, per action, unit (by id) and side (by force); standard errors when sampled. */
export interface CampaignDifferenceView {
    actions: Array<{ name: string, kind: string, fought: number }>;
    units: Array<{ id: string, status: Record<string, number>, counters: Record<string, number>, flags: Record<string, number>,
        se?: { status: Record<string, number>, counters: Record<string, number>, flags: Record<string, number> } }>;
    sides: Array<{ force: string, atLeastOne: Record<string, number>, losses: Record<string, number>,
        se?: { atLeastOne: Record<string, number>, losses: Record<string, number> } }>;
}

/** A count's law (`law[k]` = P(k)), its mean and standard deviation; sampled, their standard errors. */
export interface CampaignCountLaw {
    law: number[];
    mean: number;
    sd: number;
    se?: { law: number[], mean: number };
}

/** One unit's chances at the end: of each status, its counters' laws, of having taken a break test. */
export interface CampaignUnitChances {
    force: string;
    unit: string;
    id: string;
    status: Record<string, number>;
    counters: Record<string, CampaignCountLaw>;
    tested?: number;
    se?: { status: Record<string, number>, tested?: number };
}

/** One side's chance of at least one unit in each out-of-the-fight status, and the number of them. */
export interface CampaignSideChances {
    force: string;
    atLeastOne: Record<string, number>;
    losses: Record<string, { mean: number, sd: number }>;
    se?: { atLeastOne: Record<string, number>, losses: Record<string, number> };
}

/** What the Odds view's Campaign tab shows (`umpire.campaignOdds`), the shape of `umpire odds --campaign --json` without each action's odds. */
export interface CampaignOddsView {
    available: true;
    rules: string;
    /** The turn asked about, as the file names it; null for the end of the file. */
    through: string | null;
    method: 'exact' | 'monte-carlo';
    samples?: number;
    seed?: number;
    states: number;
    /** The turns the campaign can be asked through, in the file's order. */
    turns: Array<{ label: string, title?: string }>;
    actions: Array<{ name: string, kind: string, turn: string | null, open: boolean, fought: number }>;
    units: CampaignUnitChances[];
    sides: CampaignSideChances[];
    /** The statuses on the one scale of severities, best to worst, for the client's colours. */
    statuses: ResultRank[];
    notes: string[];
    /** Only when `CampaignOddsArgs.whatIf` or `house` was given: the what-ifs the file offers. */
    whatIfChoices?: CampaignWhatIfChoices;
    /** Only with changes or `house`: the changed campaign. */
    whatIf?: CampaignWhatIf;
}

export type CampaignOddsAnswer = CampaignOddsView | OddsUnavailable;

export interface StatusArgs {
    uri: string;
    /** A turn's number or name: the state at the end of that turn; without it, at the end of the file. */
    at?: string | number;
}

export interface StatusResult {
    available: boolean;
    /** The table under a heading, ready to show or paste. */
    markdown?: string;
    reason?: string;
}

export interface ReportArgs {
    uri: string;
    /** 'html' (one self-contained page, the default) or 'md' (charts then come as separate SVG files). */
    format?: 'html' | 'md';
    /** Only this turn (its number or name), and the state after it. */
    turn?: string;
}

export interface ReportResult {
    available: boolean;
    /** The report's text: the page, or the Markdown whose chart links name the files in `charts`. */
    text?: string;
    /** Markdown only: each chart's file name (relative to the report, as linked) and its SVG. */
    charts?: Record<string, string>;
    reason?: string;
}

/** A place in a document as the client saw it (LSP positions: zero-based line, UTF-16 character). */
export interface PositionArgs extends DocumentArgs {
    position: { line: number, character: number };
}

/** The action a position sits in, and which commands it has (as its code lenses show them). */
export type ActionAtResult =
    | { found: true, action: string, kind: string, resolvable: boolean, hasOdds: boolean }
    | { found: false, reason: string };

/** The file at a glance, for the language status item. */
export interface FileSummary {
    available: boolean;
    /** The rule set the file is checked as, its id and the name umpires know it by. */
    rules?: string;
    rulesTitle?: string;
    /** False when the file has no `rules` line (it is checked as the default rule set). */
    rulesWritten?: boolean;
    /** Actions the rule set resolves; of them, those with a current outcome, none yet, or a stale one. */
    actions?: number;
    resolved?: number;
    unresolved?: number;
    stale?: number;
    /** Each side's luck over the season, when a written outcome has odds to measure it against. */
    luck?: FileSummaryLuck;
    reason?: string;
}

/**
 * Each side's season percentile (docs/reports.md#season-luck), as the server finds it cheaply: exact, or
 * seeded Monte Carlo from the fixed default seed (the same file gives the same figure).
 */
export interface FileSummaryLuck {
    method: 'exact' | 'monte-carlo';
    /** Seasons sampled (Monte Carlo). */
    samples?: number;
    /** The sides with a written result, in the order of the forces: P(lower) + ½ P(same), 0 to 1; `se` when sampled. */
    sides: Array<{ force: string, percentile: number, se?: number }>;
}

/** One rule set a new scenario may be written for, with a small scenario that checks clean. */
interface ScenarioTemplate {
    id: string;
    title: string;
    text: string;
}

export interface ScenarioTemplates {
    templates: ScenarioTemplate[];
}

/** The answer of `umpire.verify`: why nothing could be verified, or each action's verdict (docs/campaigns.md#sealed-dice). */
export type VerifyAnswer =
    | { problem: string }
    | { verdicts: Array<{ action: string, verdict: 'verified' | 'altered' | 'not sealed', detail: string }> };
