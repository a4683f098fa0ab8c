/**
 * The one interface every rule set implements (src/rulesets/<id>/), and the registry that lists
 * them. The core, the language server, the CLI and the client know rule sets only through these:
 * no code outside a rule set's folder names one (ARCHITECTURE.md, "How to add a rule set").
 */
import type { ValidationAcceptor } from 'langium';
import type { Action, Dice, Grade, House, Unit } from '../language/generated/ast.js';
import type { TableSchemas, TablesInForce } from './house-rules.js';
import type { UnitStatus } from './unit-campaign-state.js';
import type { CampaignCounter, StateColumn } from './campaign-counters.js';
import type { OddsReport, ResultSeverity } from '../protocol.js';
import type { DiceChoice, OutcomeLineText, Resolution, Unresolvable } from './resolution.js';
import type { DicePlan } from './dice-plan.js';
import type { ActionModel, ScenarioModel } from './scenario.js';

/** One stat a rule set reads from a grade's or unit's braces; `values` lists the words it accepts. */
export interface StatVocabulary {
    readonly doc: string;
    readonly values?: readonly string[];
}

/**
 * The words a rule set gives meaning to: the single source for completion, quick fixes, hovers
 * and validation.
 */
export interface RulesetVocabulary {
    /** Stats read from a grade's or unit's braces (`size large`, `class 2`). */
    readonly stats: Readonly<Record<string, StatVocabulary>>;
    /** Facts read on `Unit: fact, fact` lines, by action kind. */
    readonly facts: Readonly<Record<string, readonly string[]>>;
    /**
     * Fact keys whose number may be a fraction (distances: `range 9.5`); every other fact takes a
     * whole number (`fraction-not-allowed`). None when absent.
     */
    readonly fractionalFacts?: readonly string[];
    /** `option NAME …` lines the rule set understands. */
    readonly options: readonly string[];
    /** Arms offered for a new unit (besides those the file already uses). */
    readonly arms: readonly string[];
    /** The per-unit result labels its outcomes write (docs/json.md). */
    readonly results: readonly string[];
    /**
     * The results worth odds, from best to worst for the unit that gets them; labels in one group are
     * as good as each other. Battle reports measure luck against it (docs/reports.md#luck).
     */
    readonly resultLadder?: ReadonlyArray<readonly string[]>;
    /**
     * Each result on the one scale of severities every rule set shares (src/core/severity.ts), for the
     * colours of the Odds view and the reports; without it, the ladder is spread over the scale.
     */
    readonly resultSeverity?: Readonly<Record<string, ResultSeverity>>;
    /** The labels a `dice` line may carry in this action: arms, throws or dice. */
    diceLabels(model: ScenarioModel, line: Dice): readonly string[];
    /**
     * Facts that cannot all be said of one unit in one action (`flank, rear`; `routs, retreats`): the
     * one list that the checks (`facts-exclusive`), completion and the rules reference read.
     */
    readonly exclusive?: readonly ExclusiveFacts[];
    /** The numbers a stat may take, where the rules bound it: the checks, completion and the reference read them. */
    readonly ranges?: Readonly<Record<string, StatRange>>;
}

/** A group of facts of which a unit line of the named action kinds may state one at most. */
export interface ExclusiveFacts {
    /** The action kinds whose unit lines and relations may carry them. */
    readonly kinds: readonly string[];
    readonly facts: readonly string[];
    /** An error when no reading makes two of them true; a warning where the rules allow one. */
    readonly severity: 'error' | 'warning';
    /** The rule's anchor in the rule set's reference (`l2.10`), and why only one can hold, in the rules' words. */
    readonly rule: string;
    readonly why: string;
}

/** The numbers a stat may take; outside them, an error, or a warning where the rules still read it. */
export interface StatRange {
    readonly min: number;
    readonly max?: number;
    readonly severity: 'error' | 'warning';
    /** The rule's anchor in the rule set's reference, and what the bounds mean. */
    readonly rule: string;
    readonly why: string;
}

/** What a written outcome means for the next fight (docs/campaigns.md). */
interface CampaignKeys {
    /**
     * The counters each unit's campaign state keeps for this rule set, declared in a file of its own in its
     * folder (`<id>-counters.ts`): what changes them, their start and the stats they lay over.
     */
    readonly counters: readonly CampaignCounter[];
    /** What `umpire status`, hovers and the campaign's odds show of the counters, in their order. */
    readonly columns: readonly StateColumn[];
    /** Result labels that take a unit out of the fight, with the status they leave it in. */
    readonly outResults: Readonly<Record<string, UnitStatus>>;
    /** Outcome facts that take a unit out of the fight whatever its result (a unit that flees the field), with the status. */
    readonly outFacts?: Readonly<Record<string, UnitStatus>>;
    /**
     * The action kinds a unit fights in at most once a turn (docs/campaigns.md#one-fight-a-turn): a
     * second one in the same turn is `unit-fights-twice`. None when absent.
     */
    readonly fightsOnceATurn?: readonly string[];
}

/**
 * Each way an action's outcome can fall, with its chance, as the campaign carries it: the outcome lines
 * the action would write, of which only the result and the facts the campaign state reads count
 * (docs/odds.md#campaign-odds). The chances sum to 1.
 */
export type OutcomeLaw = ReadonlyArray<{ readonly p: number, readonly lines: readonly OutcomeLineText[] }>;

/** How a rule set's state enters the odds of a campaign (src/core/campaign-odds.ts). */
interface CampaignOddsHooks {
    /**
     * The exact joint law of the outcome lines the action writes, as it starts from the state the model's
     * timeline carries to it (read through `effectiveStats`, as resolving reads it). Undefined when it
     * has more than `budget` ways to fall or the rule set cannot list it: the campaign is then sampled.
     */
    outcomeLaw(model: ScenarioModel, action: ActionModel, budget: number): OutcomeLaw | Unresolvable | undefined;
    /**
     * The outcome lines `resolve` writes from each seed, for the action as it starts in this model, without
     * what only a written outcome needs (its fingerprint, its text): a sampled campaign throws each action
     * from thousands of seeds. Undefined where the rule set has none for this action (then `resolve`).
     */
    sampler?(model: ScenarioModel, action: ActionModel): ((seed: number) => readonly OutcomeLineText[] | Unresolvable) | undefined;
}

/** How a quick fix repairs one of the rule set's own diagnostics; the fixes themselves are generic. */
export type FixKind =
    /** A stat's value replaced by each word the vocabulary accepts for it. */
    | 'stat-value'
    /** An unknown stat key respelled to a close known one. */
    | 'respell-stat'
    /** An unknown fact respelled to a close known one. */
    | 'respell-fact'
    /** The diagnostic's `data.replacements`, each offered as a replacement of the flagged text. */
    | 'replacements'
    /** The diagnostic's `data.replacements`, each offered as the value of the flagged stat. */
    | 'stat-replacements';

/** The part of an odds report a rule set fills in; the action's name, kind and turn are added by the core. */
export type OddsBody = Pick<OddsReport, 'units' | 'sides' | 'notes'> & Record<string, unknown>;

/** A hint after one entered die: the node of the value, and what it fed. */
export interface DieHint {
    /** The dice line and the index of the value in it. */
    readonly line: Dice;
    readonly index: number;
    /** The unit the die feeds, by its name in its force (`Line#2`): the editor shows it before the die. */
    readonly label: string;
    /** What came of the die (its modifier, adjusted die and result), shown on demand. */
    readonly tooltip: string;
}

export interface Ruleset {
    /** The name written after `rules` (`rules scrud`). */
    readonly id: string;
    /** The name umpires know it by, for messages. */
    readonly title: string;
    /** The umpire's rules reference (docs/rules/…), linked from hovers and docs. */
    readonly reference: string;
    /**
     * The action kinds (`engagement`, `fire`, …) it resolves: the words that start an action
     * (`engagement Ridge { … }`). The grammar takes any kind a known rule set declares
     * (src/language/battle-token-builder.ts); completion, highlighting and the checks read them here.
     */
    readonly kinds: readonly string[];
    /**
     * The verbs of its relations (`A vs B`, `A fires at B`, `O inspires U`); none when absent. Like the
     * kinds, the grammar takes the verbs a known rule set declares.
     */
    readonly verbs?: readonly string[];
    /** The action kinds it gives exact odds for (a subset of `kinds`). */
    readonly oddsKinds: readonly string[];
    readonly vocabulary: RulesetVocabulary;
    readonly campaign: CampaignKeys;
    /** Its own diagnostic codes (stable, documented in docs/diagnostics.md). */
    readonly codes: Readonly<Record<string, string>>;
    /**
     * A small scenario that checks clean, for "Umpire: New scenario": grades, two forces and one
     * action, written as its reference does. Without it the editor offers a skeleton.
     */
    readonly newScenario?: string;
    /** Quick fixes for its own codes, by code. */
    readonly fixes?: Readonly<Record<string, FixKind>>;
    /**
     * Its tables (results by difference, dice by size, …) with the seed's values: what `house` blocks may
     * change (docs/house-rules.md). Its engines read the tables in force (src/core/house-rules.ts).
     */
    readonly tables?: TableSchemas;
    /**
     * Checks of the tables in force after a house block, beyond each entry's own fit (which the core
     * checks): an override that makes another rule impossible.
     */
    checkTables?(model: ScenarioModel, tables: TablesInForce, house: House, accept: ValidationAcceptor): void;
    /** Checks of the whole file (options, unit stats), once per file. */
    checkScenario?(model: ScenarioModel, accept: ValidationAcceptor): void;
    /**
     * Checks of one grade's or one unit's own stats that read nothing but its node (not its grade, the
     * options or the house rules): run with the node's own checks, and kept with them while the node is
     * kept, so an edit elsewhere does not run them again. What reads more belongs in `checkScenario`.
     */
    checkStatOwner?(owner: Grade | Unit, accept: ValidationAcceptor): void;
    /** Checks of one action of one of its kinds, which has parsed whole. */
    checkAction(model: ScenarioModel, action: Action, accept: ValidationAcceptor): void;
    /**
     * Whether the action's dice come from the table, or it throws none: then no seed is needed,
     * and a new one would change nothing.
     */
    usesEnteredDice(model: ScenarioModel, action: ActionModel): boolean;
    /**
     * The order in which one turn's actions are resolved and their outcomes carried, when the rule set
     * has an order of play (Loose Files: fire before movement before combat): a permutation of
     * `actions`, which come in file order. Without it, file order. The file keeps the umpire's order;
     * the campaign state and Resolve all follow this one.
     */
    orderWithinTurn?(model: ScenarioModel, actions: readonly ActionModel[]): readonly ActionModel[];
    /** Applies the rules. Never throws on a broken action: it says what is missing instead. */
    resolve(model: ScenarioModel, action: ActionModel, dice: DiceChoice): Resolution | Unresolvable;
    /** Exact odds of an action of one of `oddsKinds`. */
    odds(model: ScenarioModel, action: ActionModel): OddsBody | Unresolvable;
    /**
     * The exact law of what an action leaves behind, for the odds of a whole campaign. Without it, a
     * campaign whose actions throw dice is sampled (Monte Carlo through `resolve`).
     */
    readonly campaignOdds?: CampaignOddsHooks;
    /** The number of units on the action's largest side, for the size limits (docs/limits.md). */
    largestSide?(model: ScenarioModel, action: ActionModel): number;
    /**
     * The line of a unit's hover that shows the modifiers it has in an action, when the rule set
     * reads them in its own way (SCRUD adds them up); without it, the factors are listed.
     */
    modifierHover?(actionName: string, gradeValue: number, here: ReadonlyArray<{ name: string, value: number }>): string | undefined;
    /** Hints at entered dice: which unit each value feeds, and what came of it. */
    dieHints?(model: ScenarioModel, action: ActionModel, resolution: Resolution | undefined): DieHint[];
    /**
     * The dice the action needs, as requests in the order resolving takes them
     * (docs/rules/<id>.md#dice-plan): fixed ones counted before any die is thrown, conditional ones
     * with their reason and bound. Its checks walk it against the entered dice instead of resolving.
     * Undefined when the action cannot be read far enough to say.
     */
    dicePlan?(model: ScenarioModel, action: ActionModel): DicePlan | undefined;
}

/**
 * A command a rule set adds to the CLI (`umpire table` for Ancients), listed in
 * src/rulesets/ruleset-commands.ts. It must load quickly: no Langium, only its pure engine.
 */
export interface RulesetCommand {
    readonly name: string;
    readonly description: string;
    readonly options: ReadonlyArray<{ readonly flags: string, readonly description: string }>;
    /** `[command as typed, what it does]`, shown under its help. */
    readonly examples: ReadonlyArray<readonly [string, string]>;
    /** Runs it and returns the exit code; a bad option is a CommandError (src/core/command-error.ts). */
    run(options: Readonly<Record<string, unknown>>, out: (line: string) => void): number;
}

/** The rule sets a file may name; the first is the one a file without a `rules` line is checked as. */
export class RulesetRegistry {
    private readonly byId = new Map<string, Ruleset>();
    private kindWords = new Set<string>();
    private verbWords = new Set<string>();

    constructor(rulesets: readonly Ruleset[]) {
        for (const r of rulesets) this.register(r);
    }

    /** Adds a rule set (or replaces the one of its id): files may name it from then on, and its kinds and verbs lex as such. */
    register(ruleset: Ruleset): void {
        this.byId.set(ruleset.id, ruleset);
        const all = this.all();
        this.kindWords = new Set(all.flatMap(r => r.kinds));
        this.verbWords = new Set(all.flatMap(r => r.verbs ?? []));
    }

    /** Every action kind some rule set declares: the words the lexer reads as a kind. */
    get kinds(): ReadonlySet<string> {
        return this.kindWords;
    }

    /** Every relation verb some rule set declares. */
    get verbs(): ReadonlySet<string> {
        return this.verbWords;
    }

    get(id: string): Ruleset | undefined {
        return this.byId.get(id);
    }

    /** The rule set of a file without a `rules` line. */
    get defaultId(): string {
        return this.byId.keys().next().value ?? '';
    }

    all(): Ruleset[] {
        return [...this.byId.values()];
    }

    ids(): string[] {
        return [...this.byId.keys()];
    }
}
