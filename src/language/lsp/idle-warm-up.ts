/**
 * What the server does while it is idle, so that the umpire's first requests run code that has run
 * before (docs/performance.md, "Start-up"): completion's parser made, and the odds engines warmed.
 *
 * Completion parses with a parser of its own, which Langium makes at the first completion request (the
 * grammar's lookahead worked out again, and the completion code run for the first time), so the
 * umpire's first completion cost several times a later one. The warm-up's first step, once the first
 * diagnostics are out and the client has been quiet for a while, asks one completion at the end of the
 * first rule set's new scenario. Not sooner: a request sent as the diagnostics arrive (the Odds view's,
 * the code lenses') would wait behind it. An umpire who starts typing at once never leaves the server
 * quiet, and an editor asks completions as one types: the first edit's build asks it then, once its
 * diagnostics are out (`edited`), quiet or not.
 *
 * The first odds call in a fresh server ran every function of its rule set's engine for the first time,
 * in V8's interpreter, and cost several times a later call. Once the first diagnostics are out and the client
 * has been quiet for a while, the server asks the odds of each rule set's own new scenario (its
 * `newScenario` text, parsed and linked here, never added to the workspace) through the same path as
 * `umpire.odds` (`oddsCommand`), twenty times, one small step at a time: the umpire's first odds then
 * run code that has run before.
 *
 * It never delays the client for more than one step: a step runs only when no message came from the
 * client since the last one was scheduled, and a message puts the rest off until the client has been
 * quiet again. It changes no answer: the odds are pure functions of a model, and the warm-up's
 * documents are nobody's (no address in the workspace, no index entry, no diagnostics). Only the
 * language server starts it (src/language/main.ts), never a one-shot command.
 */
import { URI, type LangiumDocument } from 'langium';
import type { LangiumServices } from 'langium/lsp';
import type { CompletionList } from 'vscode-languageserver';
import type { Scenario } from '../generated/ast.js';
import type { RulesetRegistry } from '../../core/ruleset.js';
import type { OddsReport, OddsUnavailable } from '../../protocol.js';
import { modelOf } from '../../core/model-cache.js';
import type { ScenarioModel } from '../../core/scenario.js';
import { oddsCommand } from './odds-request.js';

/** What the warm-up did for one rule set. */
interface WarmedRuleset {
    readonly ruleset: string;
    /** Odds runs made (each of every action of the rule set's new scenario). */
    runs: number;
    /** Actions whose odds the engine gave, over all runs (an action it refused warmed nothing). */
    answered: number;
}

/** The completion asked once the first diagnostics are out. */
interface WarmedCompletion {
    /** Completions asked (0 before it ran, then 1). */
    asked: number;
    /** The items it gave. */
    items: number;
}

interface IdleWarmUpOptions {
    /** How long the client must have sent nothing before a step runs (ms). */
    readonly quietMs?: number;
    /** Odds runs per rule set. */
    readonly runs?: number;
}

type Step = () => Promise<void> | void;

/** A rule set's new scenario, parsed and linked outside the workspace, and its model. */
interface Warmed {
    readonly document: LangiumDocument<Scenario>;
    readonly model: ScenarioModel;
}

export class IdleWarmUp {
    private readonly quietMs: number;
    private readonly runs: number;
    /** What was done so far, one entry per rule set once the first step has run. */
    readonly warmed: WarmedRuleset[] = [];
    /** The first completion, once asked. */
    readonly completion: WarmedCompletion = { asked: 0, items: 0 };
    private steps: Step[] | undefined;
    private next = 0;
    private heard = false;
    private started = false;
    private stopped = false;
    private timer: ReturnType<typeof setTimeout> | undefined;
    /** Each rule set's model, made once (by `prime` or the first step). */
    private readonly models = new Map<string, Promise<Warmed>>();
    /** The first completion, once started (by its step or by the first edit). */
    private completing: Promise<void> | undefined;
    private finish!: (report: readonly WarmedRuleset[]) => void;
    /** Resolves with what was done, when every step has run or the warm-up was stopped. */
    readonly done: Promise<readonly WarmedRuleset[]>;

    constructor(private readonly language: LangiumServices, private readonly rulesets: RulesetRegistry, options: IdleWarmUpOptions = {}) {
        this.quietMs = options.quietMs ?? 100;
        this.runs = options.runs ?? 20;
        this.done = new Promise(resolve => this.finish = resolve);
    }

    /** A message came from the client: the next step waits until it has been quiet for `quietMs`. */
    heardFromClient(): void {
        this.heard = true;
    }

    /** Starts the warm-up (once): its first step (the completion) comes after `quietMs` of quiet, then the odds steps. */
    start(): void {
        if (this.started || this.stopped) return;
        this.started = true;
        this.heard = false;
        this.schedule(this.quietMs);
    }

    /**
     * A document was built after an edit: the first completion, unless it ran, runs now (once), quiet or
     * not. Called once the build's diagnostics are out: it delays no diagnostics, only what the client
     * sent meanwhile, and that once, by about what the umpire's own first completion would have cost.
     */
    edited(): void {
        if (this.started && !this.stopped) void this.completeOnce();
    }

    private completeOnce(): Promise<void> {
        return this.completing ??= this.completeFirst();
    }

    /** One completion at the end of the first rule set's new scenario: Langium makes completion's parser. */
    private async completeFirst(): Promise<void> {
        const [first] = this.scenarios();
        if (!first) return;
        try {
            const { document } = await this.modelOf(first.ruleset, first.text, first.uri);
            const lines = document.textDocument.lineCount;
            const position = { line: lines - 1, character: 0 };
            const list = await this.language.lsp.CompletionProvider?.getCompletion(document, { textDocument: { uri: document.uri.toString() }, position });
            this.completion.asked++;
            this.completion.items = (list as CompletionList | undefined)?.items.length ?? 0;
        } catch {
            // Nothing is warmed; the umpire's own completion makes the parser, as it would have.
        }
    }

    /**
     * Runs each rule set's odds `runs` times now, at once (the server calls it when the client says it is
     * initialized, before the first document is built): the umpire's first odds, asked as the first
     * diagnostics arrive, then run code that has run before. The idle steps go on from here.
     */
    async prime(runs = 1): Promise<void> {
        if (this.stopped) return;
        try {
            await this.primeEach(runs);
        } catch {
            // As a step that fails (below): nothing more is warmed, and the requests say what is wrong, if anything is.
            this.stop();
        }
    }

    private async primeEach(runs: number): Promise<void> {
        for (const { ruleset, warmed, uri, text } of this.rulesetsToWarm()) {
            const { model } = await this.modelOf(ruleset, text, uri);
            for (let i = 0; i < runs && !this.stopped; i++) await this.run(model, warmed);
        }
    }

    /** Stops it for good (the server shuts down): no step runs after this. */
    stop(): void {
        this.stopped = true;
        if (this.timer !== undefined) clearTimeout(this.timer);
        this.timer = undefined;
        this.finish(this.warmed);
    }

    private schedule(ms: number): void {
        this.timer = setTimeout(() => void this.tick(), ms);
        // The warm-up never keeps the process alive.
        this.timer.unref?.();
    }

    private async tick(): Promise<void> {
        this.timer = undefined;
        if (this.stopped) return;
        if (this.heard) {
            this.heard = false;
            this.schedule(this.quietMs);
            return;
        }
        this.steps ??= this.plan();
        const step = this.steps[this.next++];
        if (step === undefined) {
            this.stop();
            return;
        }
        try {
            await step();
        } catch {
            // A warm-up that fails warms nothing more; the requests will say what is wrong, if anything is.
            this.stop();
            return;
        }
        if (this.stopped) return;
        // A timer, not an immediate: a message read meanwhile is dispatched (and heard) before the next step.
        this.schedule(this.heard ? this.quietMs : 0);
        if (this.heard) this.heard = false;
    }

    /** Each rule set with a new scenario and odds, its entry in `warmed` (made at the first call) and its text. */
    private rulesetsToWarm(): Array<{ ruleset: string, warmed: WarmedRuleset, uri: URI, text: string }> {
        return this.scenarios().map(each => {
            let warmed = this.warmed.find(w => w.ruleset === each.ruleset);
            if (!warmed) {
                warmed = { ruleset: each.ruleset, runs: 0, answered: 0 };
                this.warmed.push(warmed);
            }
            return { ...each, warmed };
        });
    }

    /** Each rule set with a new scenario and odds, with the text and address of its warm-up document. */
    private scenarios(): Array<{ ruleset: string, uri: URI, text: string }> {
        const out: Array<{ ruleset: string, uri: URI, text: string }> = [];
        for (const ruleset of this.rulesets.all()) {
            const text = ruleset.newScenario;
            if (text === undefined || ruleset.oddsKinds.length === 0) continue;
            out.push({ ruleset: ruleset.id, uri: uriOf(out.length + 1, ruleset.id), text });
        }
        return out;
    }

    /** One odds run of a model, counted. */
    private async run(model: ScenarioModel, warmed: WarmedRuleset): Promise<void> {
        const answer = await oddsCommand(model, undefined);
        warmed.runs++;
        const actions = (answer as { actions?: Array<OddsReport | OddsUnavailable> }).actions ?? [];
        warmed.answered += actions.filter(a => !('available' in a)).length;
    }

    /**
     * The first completion; then for each rule set with a new scenario and odds: one step makes its model
     * (unless `prime` did), then one step per odds run.
     */
    private plan(): Step[] {
        // The completion first: a person types sooner than they ask the odds.
        const steps: Step[] = [() => this.completeOnce()];
        for (const { ruleset, warmed, uri, text } of this.rulesetsToWarm()) {
            let model: ScenarioModel | undefined;
            steps.push(async () => {
                model = (await this.modelOf(ruleset, text, uri)).model;
            });
            for (let i = 0; i < this.runs; i++) {
                steps.push(async () => {
                    if (model) await this.run(model, warmed);
                });
            }
        }
        return steps;
    }

    private modelOf(ruleset: string, text: string, uri: URI): Promise<Warmed> {
        let model = this.models.get(ruleset);
        if (!model) {
            model = this.modelOfText(text, uri);
            this.models.set(ruleset, model);
        }
        return model;
    }

    /** A text parsed and linked by the server's own services, outside the workspace, and its model. */
    private async modelOfText(text: string, uri: URI): Promise<Warmed> {
        const document = this.language.shared.workspace.LangiumDocumentFactory.fromString<Scenario>(text, uri) as LangiumDocument<Scenario>;
        document.localSymbols = await this.language.references.ScopeComputation.collectLocalSymbols(document);
        await this.language.references.Linker.link(document);
        return { document, model: modelOf(document.parseResult.value) };
    }
}

/** The address of the warm-up's document of a rule set: nobody's, outside any workspace. */
function uriOf(count: number, ruleset: string): URI {
    return URI.parse(`memory:///idle-warm-up/${count}-${ruleset}.battle`);
}
