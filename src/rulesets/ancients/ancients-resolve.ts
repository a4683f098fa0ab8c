/**
 * Ancients as a rule set plugin: reads the melee, throws or takes the dice, and reports it in the
 * JSON of docs/json.md, the outcome block's lines, and lines an umpire can check by hand.
 */
import { ancientsEnteredValues, buildAncientsInput, splitProblem, type AncientsReading, type StatsAt } from './ancients-reader.js';
import { advantageUses, houseNote, type TableUse } from './ancients-house.js';
import { turnLabel, type ActionModel, type ScenarioModel } from '../../core/scenario.js';
import { enteredDiceSource, seededDiceSource } from '../../core/dice-source.js';
import {
    resolveAncients, throwsFrom, type AdvantageStep, type AncientsDiceSource, type AncientsOutcome,
    type AncientsUnitResult, type TestModifier
} from './engine/ancients-engine.js';
import { signedTypeset as signed } from '../../core/signed.js';
import { nameAliases, withLazyFingerprint } from '../../core/fingerprint.js';
import type { DiceChoice, OutcomeLineText, Resolution, Unresolvable } from '../../core/resolution.js';

/**
 * Seeded dice, thrown one d6 at a time from one stream in the engine's order (A-rules order:
 * every hit roll, then every save, then every break test; see `resolveAncients`).
 */
export function seededAncientsDice(seed: number): AncientsDiceSource {
    return throwsFrom(seededDiceSource(seed));
}

/**
 * Resolves one Ancients engagement. `statsAt` lets a campaign give each unit the tokens and tested
 * flag left by earlier fights (`u => effectiveStats(model, action, u)`); by default the
 * units' declared stats are used.
 */
export function resolveAncientsAction(model: ScenarioModel, action: ActionModel, dice: DiceChoice, statsAt?: StatsAt): Resolution | Unresolvable {
    const reading = buildAncientsInput(model, action.node, statsAt);
    if ('problem' in reading) return reading;
    const { input } = reading;
    const badSplit = splitProblem(input, reading.tables);
    if (badSplit) return { problem: badSplit };
    let outcome: AncientsOutcome;
    let diceRecord: unknown;
    if (dice.kind === 'seed') {
        outcome = resolveAncients(input, seededAncientsDice(dice.seed), reading.tables);
        diceRecord = dice.seed;
    } else {
        const entered = enteredDiceSource(ancientsEnteredValues(model, action.node));
        outcome = resolveAncients(input, throwsFrom(entered), reading.tables);
        const short = entered.taken.filter(t => t.values.length < t.request.count).map(t => `${t.request.label} ${t.request.who[0]}`);
        if (short.length > 0) {
            return { problem: `Engagement '${action.node.name}' is short of entered dice (${short.join(', ')}): run 'umpire check'.` };
        }
        diceRecord = outcome.units.map(u => [u.attacks.map(a => a.rolls), u.saveRolls, u.test?.dice ?? []]);
    }
    return {
        // The fingerprint worked out when read (`withLazyFingerprint`): a settled engagement's result is carried through the campaign at every check.
        json: withLazyFingerprint({
            name: action.node.name, kind: action.node.kind, rules: 'ancients', turn: turnLabel(action.turn) ?? null,
            seed: dice.kind === 'seed' ? dice.seed : null, summary: outcome.summary, check: '',
            firstTurn: input.firstTurn, breakDice: input.breakDice,
            sideHits: outcome.sideHits, winner: outcome.winner,
            units: outcome.units.map(unitJson)
        }, { rules: 'ancients', input, dice: diceRecord }, nameAliases(model)),
        lines: outcome.units.map(outcomeLine),
        text: [...ancientsText(reading, outcome), ...(reading.idle.length > 0 ? [`not in contact, so not fighting: ${reading.idle.map(u => u.id).join(', ')}`] : [])]
    };
}

/** One unit in the JSON of docs/json.md ("Ancients"). */
function unitJson(r: AncientsUnitResult) {
    return {
        force: r.force, unit: r.unit, side: r.side, result: r.result,
        dice: r.dice,
        attacks: r.attacks.map(a => ({ target: a.target, dice: a.dice, advantage: a.advantage, toHit: a.toHit, rolls: a.rolls, hits: a.hits })),
        hitsScored: r.hitsScored, hitsReceived: r.hitsReceived,
        saves: { on: r.saveOn, rolls: r.saveRolls, saved: r.saved },
        hits: r.hits, unsavedHits: r.hits, threshold: r.threshold,
        tested: r.tested,
        test: r.test && { dice: r.test.dice, roll: r.test.roll, modifiers: r.test.modifiers, total: r.test.total, needed: r.test.needed },
        tokensGained: r.tokensGained,
        givesGround: r.givesGroundDistance,
        followUp: r.followUp,
        opponents: r.opponents
    };
}

/**
 * `G.Hoplites: holds, hits 5, tested, roll 7, total 8, tokens 1 vs P.Immortals`. The keys are the
 * ones the campaign reads back: `hits` (unsaved hits taken), `tokens` (gained), `tested`.
 */
function outcomeLine(r: AncientsUnitResult): OutcomeLineText {
    const facts: OutcomeLineText['facts'] = [['hits', r.hits]];
    if (r.test) facts.push(['tested', true], ['roll', r.test.roll], ['total', r.test.total]);
    if (r.tokensGained > 0) facts.push(['tokens', r.tokensGained]);
    if (r.followUp?.moves) facts.push(['follow-up', true]);
    return { unit: r.id, result: r.result, facts, opponent: r.opponents[0] };
}


const REASONS: Record<TestModifier['reason'], string> = {
    'first-test': 'first test', 'winning-side': 'winning side', 'extra-multiples': 'extra multiples', 'damage-tokens': 'damage tokens'
};

function stepsText(steps: readonly AdvantageStep[]): string {
    const parts = steps.filter(s => s.mine !== s.theirs).map(s => `${s.category} ${signed(s.mine - s.theirs)}`);
    return parts.length > 0 ? parts.join(', ') : 'even';
}

/**
 * Unit by unit: the pool and its split, each throw at its to-hit; then saves, test and result. A line
 * that read a house rule's entry ends with it (`(house: save heavy 3)`).
 */
function ancientsText(reading: AncientsReading, outcome: AncientsOutcome): string[] {
    const { input, tables } = reading;
    const house = (uses: readonly TableUse[]) => houseNote(reading.inForce, uses);
    const out: string[] = [];
    const byId = new Map(input.units.map(u => [u.id, u]));
    for (const r of outcome.units) {
        const u = byId.get(r.id)!;
        const bonus = u.shock ? 'shock' : 'defensive';
        const extra = r.dice > tables.dice[u.size] ? ` (+${r.dice - tables.dice[u.size]} ${bonus}, first turn)` : '';
        out.push(`${r.id}: ${u.size}, ${r.dice} dice${extra}${house([['pool', u.size], ...(extra ? [['first-turn', bonus] as const] : [])])}`);
        for (const a of r.attacks) {
            out.push(`  → ${a.target}: ${a.dice} at ${a.toHit}+ (advantage ${signed(a.advantage)}: ${stepsText(a.steps)}): ${a.rolls.join(' ') || '—'} = ${a.hits} hit${a.hits === 1 ? '' : 's'}`
                + house([['to-hit', a.advantage], ...advantageUses(input, u, byId.get(a.target)!)]));
        }
        const saves = r.hitsReceived > 0 ? `saves on ${r.saveOn}+: ${r.saveRolls.join(' ')} = ${r.saved} saved` : 'no saves to make';
        out.push(`  ${r.hitsReceived} hit${r.hitsReceived === 1 ? '' : 's'} received, ${saves}, ${r.hits} unsaved (threshold ${r.threshold})`
            + house([...(r.hitsReceived > 0 ? [['save', u.weight] as const] : []), ['threshold', u.size]]));
        if (r.test) {
            const mods = r.test.modifiers.map(m => ` ${signed(m.value)} ${REASONS[m.reason]}`).join('');
            out.push(`  break test: ${r.test.dice.join('+')} = ${r.test.roll}${mods} → ${r.test.total} vs leadership ${r.test.needed}: ${r.result}`
                + (r.tokensGained > 0 ? `; gains ${r.tokensGained} token${r.tokensGained === 1 ? '' : 's'}` : '')
                + house([['break', 'd6'], ...r.test.modifiers.map(m => ['break', m.reason] as const)]));
        } else {
            out.push(`  untested`);
        }
        if (r.givesGroundDistance !== null) out.push(`  gives ground ${r.givesGroundDistance}"${house([['movement', 'give-ground']])}`);
        if (r.followUp) {
            const f = r.followUp;
            out.push(f.moves ? `  follows up${f.distance !== null ? ` ${f.distance}"${house([['movement', 'follow-up']])}` : ''}`
                : f.allowed ? '  may follow up (not chosen)' : `  cannot follow up: ${f.reason}`);
        }
    }
    return out;
}
