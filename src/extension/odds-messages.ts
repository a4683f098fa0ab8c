/**
 * What the Odds panel's page (odds-webview.ts) and the extension (odds-view.ts) say to each other
 * over the webview's postMessage. Types only.
 */
import type { OddsDistribution } from './odds-table.js';

/** Page → extension. */
export type OddsPageMessage =
    | { type: 'choices', distribution: OddsDistribution }
    | { type: 'copy', format: 'markdown' | 'csv', distribution: OddsDistribution }
    | { type: 'save', format: 'svg' | 'png', action: string, data: string }
    | { type: 'problem', text: string }
    /**
     * The what-ifs now on (none: the set-up as written only); on the Campaign tab also the engagement
     * a change of one action's lines is made to, and the file whose house rules are put in (empty: none).
     */
    | { type: 'whatIf', changes: string[], engagement?: string, house?: string }
    /** The tab shown: each action's odds, or the whole campaign's. */
    | { type: 'tab', tab: 'actions' | 'campaign' }
    /** The Campaign tab's turn (empty: the end of the file). */
    | { type: 'through', through: string };

/** Extension → page: the palette's "Save odds chart as …". */
export type OddsPanelMessage = { type: 'save', format: 'svg' | 'png' };
